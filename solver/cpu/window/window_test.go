package window

import (
	"cmp"
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/tsplab/tsplab/internal/runctl"
	"github.com/tsplab/tsplab/internal/testinst"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/tour"
)

// uniform is n cities uniform in a 1000×1000 square.
func uniform(n int, seed uint64) *solver.Instance {
	return testinst.IntEuc(n, 1000, rand.New(rand.NewPCG(seed, 5)))
}

// scrambled is a poor tour of in: cities in index order (uniform
// cities, so each step jumps across the square), with in's fixed edges
// put in by walking each fixed pair together.
func scrambled(in *solver.Instance) []int32 {
	next := map[int]int{}
	for _, e := range in.FixedEdges {
		next[e[0]] = e[1]
	}
	seen := make([]bool, in.N)
	t := make([]int32, 0, in.N)
	for c := range in.N {
		if seen[c] {
			continue
		}
		for ; !seen[c]; c = next[c] {
			seen[c] = true
			t = append(t, int32(c))
			if _, ok := next[c]; !ok {
				break
			}
		}
	}
	return t
}

// strips is a fair tour of in's cities in a 1000×1000 square: ten
// vertical strips, up one and down the next.
func strips(in *solver.Instance) []int32 {
	t := make([]int32, in.N)
	for i := range t {
		t[i] = int32(i)
	}
	key := func(c int32) float64 {
		s := min(int(in.X[c]/100), 9)
		y := in.Y[c]
		if s%2 == 1 {
			y = 1000 - y
		}
		return float64(s)*2000 + y
	}
	slices.SortFunc(t, func(a, b int32) int { return cmp.Compare(key(a), key(b)) })
	return t
}

// control is a run's control over start with the time limit limit (0:
// none) as its context's deadline, ending with ctx.
func control(t *testing.T, ctx context.Context, in *solver.Instance, start []int32, limit time.Duration) *runctl.Control {
	ctx, cancel := solver.WithTimeLimit(ctx, limit)
	t.Cleanup(cancel)
	c := runctl.NewControl(ctx, solver.Params{}, 2, nil, time.Now())
	c.Offer(start, solver.TourLength(in, start))
	return c
}

// checkTour fails t unless tour is a tour of in keeping its fixed edges,
// and returns its length measured again.
func checkTour(t *testing.T, in *solver.Instance, tour []int32) int64 {
	t.Helper()
	ints := make([]int, len(tour))
	for i, c := range tour {
		ints[i] = int(c)
	}
	if err := solver.ValidateTour(ints, in.N); err != nil {
		t.Fatalf("not a tour: %v", err)
	}
	pos := make([]int, in.N)
	for i, c := range ints {
		pos[c] = i
	}
	for _, e := range in.FixedEdges {
		if d := (pos[e[0]] - pos[e[1]] + in.N) % in.N; d != 1 && d != in.N-1 {
			t.Fatalf("fixed edge %d-%d is not in the tour", e[0]+1, e[1]+1)
		}
	}
	return solver.TourLength(in, ints)
}

// TestRun: the windows improve a poor tour within the time limit; the
// tour the run holds is a tour keeping the fixed edges, its length as
// measured again, shorter by the gain the stats say, and no window made
// it longer.
func TestRun(t *testing.T) {
	fixedEvery := func(in *solver.Instance, k int) *solver.Instance {
		// fixed edges between cities 2i and 2i+1 for every k-th pair
		out := *in
		for i := 0; i+1 < in.N; i += 2 * k {
			out.FixedEdges = append(out.FixedEdges, [2]int{i, i + 1})
		}
		return &out
	}
	for _, tc := range []struct {
		name  string
		in    *solver.Instance
		cfg   Config
		start func(*solver.Instance) []int32
	}{
		{"paths of 150, 1 core each", uniform(900, 1), Config{Shape: Paths, Size: 150, Cores: 1, Workers: 2, Slice: 200 * time.Millisecond}, nil},
		{"paths, one window a core", uniform(700, 2), Config{Shape: Paths, Cores: 1, Workers: 2, Slice: 300 * time.Millisecond}, nil},
		{"2 cores a window", uniform(800, 3), Config{Size: 200, Cores: 2, Workers: 2, Slice: 200 * time.Millisecond}, nil},
		{"paths, fixed edges", fixedEvery(uniform(800, 4), 3), Config{Shape: Paths, Size: 160, Cores: 1, Workers: 2, Slice: 200 * time.Millisecond}, nil},
		{"cells", uniform(900, 9), Config{Size: 150, Cores: 1, Workers: 2, Slice: 200 * time.Millisecond}, strips},
		{"cells, fixed edges", fixedEvery(uniform(800, 10), 3), Config{Size: 160, Cores: 1, Workers: 2, Slice: 200 * time.Millisecond}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := scrambled(tc.in)
			if tc.start != nil {
				start = tc.start(tc.in)
			}
			l0 := checkTour(t, tc.in, start)
			c := control(t, context.Background(), tc.in, start, 1500*time.Millisecond)
			st, err := Run(tc.in, c, tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			l := checkTour(t, tc.in, c.Best)
			if l != c.BestLen.Load() {
				t.Fatalf("the run holds length %d, its tour measures %d", c.BestLen.Load(), l)
			}
			if st.Improved == 0 || st.Gain <= 0 || l0-l != st.Gain {
				t.Fatalf("start %d, end %d: stats %+v", l0, l, st)
			}
			if st.Rounds < 1 || st.Searched < st.Improved {
				t.Fatalf("stats %+v", st)
			}
		})
	}
}

// TestStops: a run that is cancelled, or whose deadline has passed,
// returns with its tour whole and no longer than the start.
func TestStops(t *testing.T) {
	in := uniform(2000, 6)
	start := scrambled(in)
	l0 := solver.TourLength(in, start)
	cfg := Config{Size: 500, Cores: 1, Workers: 2, Slice: time.Hour}

	ctx, cancel := context.WithCancel(context.Background())
	c := control(t, ctx, in, start, 0) // no deadline: only the cancel ends it
	go func() { time.Sleep(300 * time.Millisecond); cancel() }()
	if _, err := Run(in, c, cfg); err != nil {
		t.Fatal(err)
	}
	if l := checkTour(t, in, c.Best); l > l0 {
		t.Fatalf("cancelled: %d, longer than the start's %d", l, l0)
	}

	c = control(t, context.Background(), in, start, time.Nanosecond)
	time.Sleep(time.Millisecond)
	st, err := Run(in, c, cfg)
	if err != nil || st.Searched != 0 || !slices.Equal(c.Best, start) {
		t.Fatalf("past its deadline: %+v, %v, tour changed %v", st, err, !slices.Equal(c.Best, start))
	}
}

// TestSplice: a window's path is spliced only when it is shorter, and
// the tour then changes only inside the window.
func TestSplice(t *testing.T) {
	in := uniform(300, 7)
	start := scrambled(in)
	c := control(t, context.Background(), in, start, 0)
	s := &search{in: in, c: c, cfg: Config{Cores: 1, Workers: 1}, cur: slices.Clone(start), curLen: solver.TourLength(in, start)}
	pos, size := 290, 40 // a window across the tour's end
	cities := make([]int, size)
	for k := range cities {
		cities[k] = int(start[(pos+k)%in.N])
	}
	// the reverse of the inner cities is some other path between the ends
	inner := make([]int, size)
	for k := range inner {
		inner[k] = k
	}
	slices.Reverse(inner[1 : size-1])
	mapped := make([]int, size)
	for k, i := range inner {
		mapped[k] = cities[i]
	}
	longer := solver.PathLength(in, mapped) >= solver.PathLength(in, cities)
	s.splice(&pathWindow{pos: pos, cities: cities, in: slices.Clone(cities)}, inner, true)
	switch {
	case longer && !slices.Equal(s.cur, start):
		t.Fatal("a path no shorter was spliced")
	case !longer && s.curLen >= solver.TourLength(in, start):
		t.Fatal("a shorter path was not spliced")
	}
	for i := range in.N {
		if (i-pos+in.N)%in.N >= size && s.cur[i] != start[i] {
			t.Fatalf("position %d outside the window changed", i)
		}
	}
	if got := solver.TourLength(in, s.cur); got != s.curLen {
		t.Fatalf("held length %d, tour measures %d", s.curLen, got)
	}
	// and back again: of a path and its reverse one is shorter
	want := map[bool]int{true: 0, false: 1}[longer]
	back := slices.Clone(s.cur)
	now := make([]int, size)
	for k := range now {
		now[k] = int(back[(pos+k)%in.N])
	}
	s.splice(&pathWindow{pos: pos, cities: now, in: slices.Clone(now)}, inner, true)
	if s.st.Improved != want || s.st.Searched != 2 {
		t.Fatalf("%d of %d splices of a path and its reverse improved, want %d of 2", s.st.Improved, s.st.Searched, want)
	}
}

// TestSplicesWhileSearching: a window's shorter tours reach the run while its search goes on, not only at its end,
// and the run's tour stays whole and measured; its search then counts once.
func TestSplicesWhileSearching(t *testing.T) {
	for _, shape := range []Shape{Paths, Cells} {
		in := uniform(1200, 12)
		start := scrambled(in)
		l0 := solver.TourLength(in, start)
		ctx, cancel := context.WithCancel(context.Background())
		c := control(t, ctx, in, start, 0)
		cfg := Config{Shape: shape, Size: 600, Cores: 1, Workers: 2, Slice: time.Hour}
		done := make(chan Stats)
		go func() {
			st, err := Run(in, c, cfg)
			if err != nil {
				t.Error(err)
			}
			done <- st
		}()
		// the windows' searches run for an hour unless stopped: a shorter tour can only come from a splice under way
		for end := time.Now().Add(time.Minute); c.BestLen.Load() >= l0 && time.Now().Before(end); {
			time.Sleep(20 * time.Millisecond)
		}
		shorter := c.BestLen.Load() < l0
		cancel()
		st := <-done
		if !shorter {
			t.Fatalf("shape %v: the run's tour no shorter while the windows searched", shape)
		}
		l := checkTour(t, in, c.Best)
		if l != c.BestLen.Load() || l0-l != st.Gain || st.Searched != 2 || st.Improved < 1 {
			t.Fatalf("shape %v: length %d, held %d, start %d, stats %+v", shape, l, c.BestLen.Load(), l0, st)
		}
	}
}

// TestSubInstance: a window's instance measures as the instance does,
// its ends' edge fixed, with the fixed edges between its cities.
func TestSubInstance(t *testing.T) {
	in := uniform(100, 8)
	in.FixedEdges = [][2]int{{10, 11}, {50, 90}, {3, 4}}
	cities := []int{12, 10, 11, 40, 3, 7}
	sub := SubInstance(in, cities)
	for i := range cities {
		for j := range cities {
			if sub.Dist(i, j) != in.Dist(cities[i], cities[j]) {
				t.Fatalf("distance %d-%d: %d, want %d", i, j, sub.Dist(i, j), in.Dist(cities[i], cities[j]))
			}
		}
	}
	want := [][2]int{{0, 5}, {1, 2}}
	if !slices.Equal(sub.FixedEdges, want) {
		t.Fatalf("fixed edges %v, want %v", sub.FixedEdges, want)
	}
}

// TestCells: the plane's cells hold every city once, in sizes equal
// within one; a cell's window lists its cities in tour order with a join
// wherever the tour leaves the cell, and its paths' edges are the tour's.
func TestCells(t *testing.T) {
	in := uniform(1000, 11)
	tour := strips(in)
	for _, k := range []int{2, 5, 16} {
		cells := cutCells(in.X, in.Y, k, 0.7)
		seen := make([]bool, in.N)
		for _, cell := range cells {
			if len(cell) < in.N/k || len(cell) > in.N/k+1 {
				t.Fatalf("k %d: a cell of %d cities", k, len(cell))
			}
			for _, c := range cell {
				if seen[c] {
					t.Fatalf("k %d: city %d in two cells", k, c+1)
				}
				seen[c] = true
			}
		}
		if len(cells) != k || slices.Contains(seen, false) {
			t.Fatalf("k %d: %d cells, every city in one: %v", k, len(cells), !slices.Contains(seen, false))
		}
		w, ok := cellOf(tour, cells[0])
		if !ok || len(w.joins) == 0 {
			t.Fatalf("k %d: the first cell's window: %v, %d joins", k, ok, len(w.joins))
		}
		next := make(map[int]int, in.N)
		for i, c := range tour {
			next[int(c)] = int(tour[(i+1)%in.N])
		}
		for _, e := range w.oldEdges() {
			if next[e[0]] != e[1] {
				t.Fatalf("k %d: edge %d-%d is not the tour's", k, e[0]+1, e[1]+1)
			}
		}
		if got := len(w.oldEdges()) + len(w.joins); got != len(w.cities) {
			t.Fatalf("k %d: %d edges and joins for %d cities", k, got, len(w.cities))
		}
	}
	if _, ok := cellOf(tour, tour); ok {
		t.Fatal("the whole tour taken for a cell")
	}
}

// relink is tour t with the edges old taken out and added put in, from
// t's first city on; ok is false when an old edge is not in t or the
// edges no longer make one cycle.
func relink(t []int32, old, added [][2]int) ([]int32, bool) {
	adj := tour.Links(t)
	if !tour.Exchange(tour.NewAdj(adj), old, added) {
		return nil, false
	}
	return tour.Walk(adj, t[0])
}

// TestRelink: a 2-opt move's edges relink a tour into the moved tour; two
// edges that cut it into two cycles, or an edge not in it, are refused.
func TestRelink(t *testing.T) {
	tour := []int32{0, 1, 2, 3, 4, 5, 6, 7}
	got, ok := relink(tour, [][2]int{{1, 2}, {5, 6}}, [][2]int{{1, 5}, {2, 6}})
	back := slices.Clone(got)
	slices.Reverse(back[1:]) // either way round from city 0
	if want := []int32{0, 1, 5, 4, 3, 2, 6, 7}; !ok || !slices.Equal(got, want) && !slices.Equal(back, want) {
		t.Fatalf("2-opt: %v %v, want %v", got, ok, want)
	}
	if _, ok := relink(tour, [][2]int{{1, 2}, {5, 6}}, [][2]int{{1, 6}, {2, 5}}); ok {
		t.Fatal("two cycles taken for a tour")
	}
	if _, ok := relink(tour, [][2]int{{1, 3}}, [][2]int{{1, 2}}); ok {
		t.Fatal("an edge not in the tour taken out")
	}
}

// TestJoin: edges that cut a tour into cycles are joined into one tour by
// the exchange of two edges that costs least, as a search of every such
// exchange finds, and a fixed edge is never taken out.
func TestJoin(t *testing.T) {
	in := uniform(40, 3)
	t0 := make([]int32, in.N)
	for i := range t0 {
		t0[i] = int32(i)
	}
	members := slices.Clone(t0)
	// the exchange that cuts the tour into two cycles: 0..9 with 30..39, and 10..29
	old, added := [][2]int{{9, 10}, {29, 30}}, [][2]int{{9, 30}, {10, 29}}
	for _, fixed := range []map[[2]int32]bool{nil, cheapestJoin(in, t0, old, added)} {
		adj := tour.Links(t0)
		if !tour.Exchange(tour.NewAdj(adj), old, added) {
			t.Fatal("the exchange refused")
		}
		if _, ok := tour.Walk(adj, 0); ok {
			t.Fatal("two cycles taken for a tour")
		}
		want := bestJoin(t, in, adj, fixed)
		if !join(in, adj, members, fixed) {
			t.Fatal("join failed")
		}
		got, ok := tour.Walk(adj, 0)
		if !ok {
			t.Fatalf("join left %v, not a tour", got)
		}
		if l := solver.TourLength(in, got); l != want {
			t.Errorf("fixed %v: joined tour %d, the cheapest exchange gives %d", fixed, l, want)
		}
		for e := range fixed {
			if !slices.Contains(adj[e[0]][:], e[1]) {
				t.Errorf("fixed edge %v taken out", e)
			}
		}
	}
}

// bestJoin is the length of the shortest tour made by one exchange of two
// edges, not fixed, of the two cycles of adj, found by trying every pair.
func bestJoin(t *testing.T, in *solver.Instance, adj [][2]int32, fixed map[[2]int32]bool) int64 {
	comp := make([]int32, len(adj))
	if k := len(tour.Cycles(adj, comp)); k != 2 {
		t.Fatalf("%d cycles, want 2", k)
	}
	best := int64(-1)
	for a := range int32(len(adj)) {
		for c := range int32(len(adj)) {
			if comp[a] != 0 || comp[c] != 1 {
				continue
			}
			for _, b := range adj[a] {
				for _, e := range adj[c] {
					if fixed[[2]int32{min(a, b), max(a, b)}] || fixed[[2]int32{min(c, e), max(c, e)}] {
						continue
					}
					for _, in2 := range [][2][2]int32{{{a, c}, {b, e}}, {{a, e}, {b, c}}} {
						try := slices.Clone(adj)
						tour.Exchange(tour.NewAdj(try), [][2]int{{int(a), int(b)}, {int(c), int(e)}},
							[][2]int{{int(in2[0][0]), int(in2[0][1])}, {int(in2[1][0]), int(in2[1][1])}})
						if tr, ok := tour.Walk(try, 0); ok {
							if l := solver.TourLength(in, tr); best < 0 || l < best {
								best = l
							}
						}
					}
				}
			}
		}
	}
	return best
}

// cheapestJoin is the edges of the exchange join makes without fixed
// edges, on tour t0 changed by old and added, all of them fixed.
func cheapestJoin(in *solver.Instance, t0 []int32, old, added [][2]int) map[[2]int32]bool {
	adj := tour.Links(t0)
	tour.Exchange(tour.NewAdj(adj), old, added)
	before := tour.Links(t0)
	tour.Exchange(tour.NewAdj(before), old, added)
	join(in, adj, t0, nil)
	fixed := map[[2]int32]bool{}
	for a := range int32(len(adj)) {
		for _, b := range before[a] {
			if !slices.Contains(adj[a][:], b) {
				fixed[[2]int32{min(a, b), max(a, b)}] = true
			}
		}
	}
	return fixed
}
