package route

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/tsplab/tsplab/solver"
)

// routeEngine is an engine that only names itself and says whether it
// keeps fixed edges.
type routeEngine struct{ keeps bool }

func (routeEngine) Name() string            { return "fake" }
func (routeEngine) Backend() string         { return solver.BackendCPU }
func (routeEngine) Describe() string        { return "" }
func (routeEngine) Available() error        { return nil }
func (e routeEngine) KeepsFixedEdges() bool { return e.keeps }
func (routeEngine) Solve(context.Context, *solver.Instance, solver.Params, chan solver.Snapshot) (solver.Result, error) {
	return solver.Result{}, nil
}

func TestParseEnds(t *testing.T) {
	in := line(0, 3, 1, 2)
	cases := []struct {
		s    string
		a, b int
		err  string
	}{
		{"1,4", 0, 3, ""},
		{" 2 , 3", 1, 2, ""},
		{"1", 0, 0, "want two city ids or names"},
		{"1,x", 0, 0, `"x" is not a city of line`},
		{"1,5", 0, 0, "id 5 is not a city of line"},
		{"0,1", 0, 0, "id 0 is not a city"},
		{"2,2", 0, 0, "from a city to itself"},
	}
	for _, c := range cases {
		a, b, err := ParseEnds(c.s, in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: err %v, want %q", c.s, err, c.err)
			}
			continue
		}
		if err != nil || a != c.a || b != c.b {
			t.Errorf("%q: %d,%d %v, want %d,%d", c.s, a, b, err, c.a, c.b)
		}
	}
}

// TestParseEndsNames checks that --ends takes the names a file gives its
// cities, as --start does, names with commas and a matrix's names too.
func TestParseEndsNames(t *testing.T) {
	in := line(0, 3, 1, 2)
	in.Points = &solver.PointList{Labels: []string{"London", "New York, NY", "Tokyo", "7"}}
	cases := []struct {
		s    string
		a, b int
	}{
		{"London,Tokyo", 0, 2},
		{"New York, NY,London", 1, 0},
		{"Tokyo, New York, NY", 2, 1},
		{`"London","7"`, 0, 3},
	}
	for _, c := range cases {
		a, b, err := ParseEnds(c.s, in)
		if err != nil || a != c.a || b != c.b {
			t.Errorf("%q: %d,%d %v, want %d,%d", c.s, a, b, err, c.a, c.b)
		}
	}
	if _, _, err := ParseEnds("London,Paris", in); err == nil || !strings.Contains(err.Error(), `"Paris" is not a city of line`) {
		t.Errorf("an unknown name: %v", err)
	}
	in.Points, in.CityNames = nil, []string{"A", "B", "C", "D"}
	if a, b, err := ParseEnds("D,B", in); err != nil || a != 3 || b != 1 {
		t.Errorf("matrix names D,B: %d,%d %v", a, b, err)
	}
}

func TestRoute(t *testing.T) {
	in := line(0, 3, 1, 2) // x of cities 0..3
	keep := routeEngine{true}

	rt, err := New(in, keep, false, -1, -1)
	if err != nil || rt.IsPath() || rt.In != in {
		t.Fatalf("tour route: %+v %v", rt, err)
	}

	// Open: a tour of the open instance through the extra city 4.
	rt, err = New(in, routeEngine{false}, true, -1, -1)
	if err != nil || !rt.IsPath() || rt.In.N != 5 {
		t.Fatalf("open route: %+v %v", rt, err)
	}
	if got := rt.Start([]int{0, 2, 3, 1}); !slices.Equal(got, []int{0, 2, 3, 1, 4}) {
		t.Errorf("open start %v", got)
	}
	res, err := rt.Finish(solver.Result{Tour: []int{2, 3, 1, 4, 0}, Length: 3})
	if err != nil || !slices.Equal(res.Tour, []int{0, 2, 3, 1}) || res.Length != 3 || res.Account.Route == nil || !res.Account.Route.Open {
		t.Errorf("open finish: %+v %v", res, err)
	}
	if _, err := rt.Finish(solver.Result{Tour: []int{2, 3, 1, 4, 0}, Length: 4}); err == nil {
		t.Error("an open result whose length is not the path's was taken")
	}
	if _, err := rt.Finish(solver.Result{Tour: []int{2, 3, 1, 0}, Length: 3}); err == nil {
		t.Error("an open result without the extra city was taken")
	}

	// Ends 0 and 1 (x 0 and 3): the tour keeps the edge 0-1, the path drops it.
	rt, err = New(in, keep, false, 0, 1)
	if err != nil || rt.In.FixedEdges[len(rt.In.FixedEdges)-1] != [2]int{0, 1} {
		t.Fatalf("ends route: %+v %v", rt, err)
	}
	if got := rt.Length(6); got != 3 {
		t.Errorf("a tour of 6 is a path of %d, want 3", got)
	}
	res, err = rt.Finish(solver.Result{Tour: []int{1, 0, 2, 3}, Length: 6, Account: solver.Account{EAX: &solver.EAXAccount{FirstBest: 8, Best: 6}}})
	if err != nil || !slices.Equal(res.Tour, []int{0, 2, 3, 1}) || res.Length != 3 || res.Account.Route == nil || *res.Account.Route != (solver.RouteAccount{From: "1", To: "2"}) {
		t.Errorf("ends finish: %+v %v", res, err)
	}
	if e := res.Account.EAX; e == nil || e.FirstBest != 5 || e.Best != 3 {
		t.Errorf("ends finish: the populations' lengths %+v are not the paths'", e)
	}
	if _, err := rt.Finish(solver.Result{Tour: []int{0, 2, 1, 3}, Length: 8}); err == nil {
		t.Error("a tour without the edge of the ends was taken")
	}

	for _, c := range []struct {
		e    solver.Engine
		open bool
		a, b int
		want string
	}{
		{keep, true, 0, 1, "not both"},
		{keep, false, 0, 0, "from a city to itself"},
		{keep, false, 0, 9, "cities are 1..4"},
		{routeEngine{false}, false, 0, 1, "fake/cpu does not keep fixed edges"},
	} {
		if _, err := New(in, c.e, c.open, c.a, c.b); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("New(open %v, %d, %d): %v, want %q", c.open, c.a, c.b, err, c.want)
		}
	}
}
