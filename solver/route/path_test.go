package route

import (
	"slices"
	"strings"
	"testing"

	"github.com/tsplab/tsplab/solver"
)

// line is n cities on a line at x = order[i], in file order.
func line(order ...float64) *solver.Instance {
	return solver.NewCoordInstance("line", solver.Euc2D, order, make([]float64, len(order)), nil)
}

func TestOpenInstance(t *testing.T) {
	in := line(0, 3, 1, 2)
	op, err := OpenInstance(in)
	if err != nil {
		t.Fatal(err)
	}
	if op.N != 5 || op.Metric != solver.Explicit || op.Dist(4, 1) != 0 || op.Dist(1, 4) != 0 || op.Dist(0, 1) != 3 {
		t.Fatalf("open instance n %d metric %v, d(4,1) %d d(0,1) %d", op.N, op.Metric, op.Dist(4, 1), op.Dist(0, 1))
	}
	tour := []int{2, 3, 1, 4, 0} // the extra city between 1 and 0
	p, err := PathOfOpenTour(tour, in.N)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p, []int{0, 2, 3, 1}) {
		t.Fatalf("path %v", p)
	}
	if l, err := FinishPath(in, p, -1, -1); err != nil || l != 3 || l != solver.TourLength(op, tour) {
		t.Fatalf("path length %d (%v), the open tour's %d, want 3", l, err, solver.TourLength(op, tour))
	}
	big := solver.NewCoordInstance("big", solver.Euc2D, make([]float64, MaxOpenCities+1), make([]float64, MaxOpenCities+1), nil)
	if _, err := OpenInstance(big); err == nil || !strings.Contains(err.Error(), "at most 5000") {
		t.Fatalf("a large open path: %v", err)
	}
}

func TestPathBetween(t *testing.T) {
	cases := []struct {
		tour []int
		a, b int
		want []int
		err  string
	}{
		{[]int{0, 1, 2, 3}, 1, 0, []int{1, 2, 3, 0}, ""},
		{[]int{0, 1, 2, 3}, 0, 1, []int{0, 3, 2, 1}, ""},
		{[]int{2, 3, 0, 1}, 3, 2, []int{3, 0, 1, 2}, ""},
		{[]int{0, 1, 2, 3}, 0, 2, nil, "does not use the edge 1-3"},
		{[]int{0, 1, 2}, 0, 5, nil, "lacks city 1 or 6"},
	}
	for _, c := range cases {
		got, err := PathBetween(c.tour, c.a, c.b)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%v %d-%d: error %v, want %q", c.tour, c.a, c.b, err, c.err)
		case c.err == "" && (err != nil || !slices.Equal(got, c.want)):
			t.Errorf("%v %d-%d: %v %v, want %v", c.tour, c.a, c.b, got, err, c.want)
		}
	}
}

func TestFinishPathRefuses(t *testing.T) {
	in := line(0, 1, 2, 3)
	fixed := line(0, 1, 2, 3)
	fixed.FixedEdges = [][2]int{{0, 3}}
	cases := []struct {
		in   *solver.Instance
		p    []int
		a, b int
		want string
	}{
		{in, []int{0, 1, 1, 3}, -1, -1, "city 2 visited twice"},
		{in, []int{0, 1, 2}, -1, -1, "tour has 3 cities"},
		{in, []int{0, 1, 2, 3}, 1, 3, "from 1 to 4, want from 2 to 4"},
		{fixed, []int{0, 1, 2, 3}, -1, -1, "does not use the fixed edge 1-4"},
	}
	for _, c := range cases {
		if _, err := FinishPath(c.in, c.p, c.a, c.b); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.p, err, c.want)
		}
	}
	if _, err := WithEnds(in, 2, 2); err == nil {
		t.Error("ends 3,3 taken")
	}
	if _, err := WithEnds(in, 0, 4); err == nil {
		t.Error("ends 1,5 taken")
	}
	w, err := WithEnds(fixed, 1, 2)
	if err != nil || len(w.FixedEdges) != 2 || len(fixed.FixedEdges) != 1 {
		t.Fatalf("WithEnds: %v, %v; the original's %v", w.FixedEdges, err, fixed.FixedEdges)
	}
}
