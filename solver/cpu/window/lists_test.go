package window

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/bound"
)

// wholeAlpha is in's 5 alpha-nearest a city from a whole ascent on the cores.
func wholeAlpha(t *testing.T, in *solver.Instance) *solver.AlphaLists {
	t.Helper()
	res, err := bound.Compute(context.Background(), in, bound.Options{})
	if err != nil {
		t.Fatal(err)
	}
	l, err := res.AlphaCandidates(5)
	if err != nil {
		t.Fatal(err)
	}
	if !l.Ranked {
		t.Fatal("alpha lists not marked ranked")
	}
	return &solver.AlphaLists{K: l.K, List: l.List}
}

// TestCellLists checks a window's lists taken from the whole instance's: each city keeps its alpha candidates inside
// the window first, in the whole list's rank, is filled up after them with its nearest window cities by distance, and
// never lists itself or one city twice.
func TestCellLists(t *testing.T) {
	in := uniform(600, 3)
	whole := wholeAlpha(t, in)
	var cities []int // the left half of the square, in an order unlike the indices
	for c := in.N - 1; c >= 0; c-- {
		if in.X[c] < 500 {
			cities = append(cities, c)
		}
	}
	sub := SubInstance(in, cities)
	got, err := cellLists{whole: whole, cities: cities}.Alpha(context.Background(), sub, 5, solver.AscentOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got.K != 5 || len(got.List) != sub.N*5 {
		t.Fatalf("K %d, %d entries, want 5 and %d", got.K, len(got.List), sub.N*5)
	}
	local := map[int]int32{}
	for a, c := range cities {
		local[c] = int32(a)
	}
	inside, filled := 0, 0
	for a, c := range cities {
		row := got.List[a*5 : (a+1)*5]
		for x, b := range row {
			if int(b) == a || b < 0 || int(b) >= sub.N || slices.Contains(row[:x], b) {
				t.Fatalf("city %d's row %v: itself, outside the window or twice", a, row)
			}
		}
		want := 0
		for _, g := range whole.List[c*5 : (c+1)*5] {
			if b, ok := local[int(g)]; ok {
				if row[want] != b {
					t.Fatalf("city %d's row %v: position %d is not its alpha candidate %d (whole %d) in rank", a, row, want, b, g)
				}
				want++
			}
		}
		for x := want + 1; x < len(row); x++ {
			if sub.Dist(a, int(row[x-1])) > sub.Dist(a, int(row[x])) {
				t.Fatalf("city %d's row %v: the fill-ups after position %d are not by distance", a, row, want)
			}
		}
		// the rest are its nearest window cities not already listed
		rest := slices.DeleteFunc(slices.Clone(row), func(b int32) bool {
			return slices.Contains(whole.List[c*5:(c+1)*5], int32(cities[b]))
		})
		for _, b := range rest {
			for o := range sub.N {
				if o != a && !slices.Contains(row, int32(o)) && sub.Dist(a, o) < sub.Dist(a, int(b)) {
					t.Fatalf("city %d filled with %d where %d is nearer", a, b, o)
				}
			}
		}
		inside += want
		filled += len(rest)
	}
	if inside == 0 || filled == 0 {
		t.Fatalf("%d candidates kept, %d filled: the case is not exercised", inside, filled)
	}
}

// TestRunOnWholeLists: windows large enough for alpha lists take the whole instance's from Config.Lists once it has
// them, each window's search its own ascent before, and the tour stays whole and gets shorter.
func TestRunOnWholeLists(t *testing.T) {
	if testing.Short() {
		t.Skip("windows of 1,200 cities searched for a second each")
	}
	in := uniform(2400, 12)
	whole := wholeAlpha(t, in)
	var asked atomic.Int32
	lists := func() *solver.AlphaLists {
		if asked.Add(1) == 1 {
			return nil // not made yet: the first window runs its own ascent
		}
		return whole
	}
	start := strips(in)
	l0 := checkTour(t, in, start)
	c := control(t, context.Background(), in, start, 3*time.Second)
	st, err := Run(in, c, Config{Size: 1200, Cores: 1, Workers: 2, Slice: time.Second, Lists: lists})
	if err != nil {
		t.Fatal(err)
	}
	if l := checkTour(t, in, c.Best); l >= l0 || l != c.BestLen.Load() {
		t.Fatalf("start %d, end %d, the run holds %d", l0, l, c.BestLen.Load())
	}
	if st.Searched < 2 || st.WholeLists != int(asked.Load())-1 || st.WholeLists == 0 {
		t.Fatalf("stats %+v, lists asked %d times", st, asked.Load())
	}
}
