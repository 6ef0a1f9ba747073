package construct

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tsplab/tsplab/internal/testinst"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/problem"
)

func TestConstructionValid(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	sizes := []int{1, 2, 3, 4, 5, 6, 7, 10, 31, 100, 200}
	for _, n := range sizes {
		for _, in := range testinst.Mix(n, rng) {
			testinst.MustValid(t, in, Random(n, rng), "Random")
			testinst.MustValid(t, in, NearestNeighbor(in, rng.IntN(n), nil), "NearestNeighbor(nil)")
			nb := neighbor.Nearest(in, 5)
			testinst.MustValid(t, in, NearestNeighbor(in, rng.IntN(n), nb), "NearestNeighbor(nb)")
			testinst.MustValid(t, in, Greedy(in, nil), "Greedy(nil)")
			testinst.MustValid(t, in, Greedy(in, nb), "Greedy(nb)")
			testinst.MustValid(t, in, Greedy(in, neighbor.Quadrant(in, 8)), "Greedy(quadrant)")
			testinst.MustValid(t, in, SpaceFillingCurve(in), "SpaceFillingCurve")
		}
	}
}

func TestConstructionOtherMetrics(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, m := range []problem.Metric{problem.Ceil2D, problem.Att, problem.Geo, problem.Man2D, problem.Max2D, problem.Euc3D} {
		for _, n := range []int{1, 2, 3, 9, 60} {
			x, y, z := make([]float64, n), make([]float64, n), make([]float64, n)
			for i := range n {
				x[i], y[i], z[i] = rng.Float64()*80-40, rng.Float64()*160-80, rng.Float64()*50
			}
			in := problem.NewCoordInstance(m.String(), m, x, y, z)
			nb := neighbor.Nearest(in, 6)
			testinst.MustValid(t, in, NearestNeighbor(in, 0, nb), "NearestNeighbor")
			testinst.MustValid(t, in, Greedy(in, nb), "Greedy")
			testinst.MustValid(t, in, SpaceFillingCurve(in), "SpaceFillingCurve")
		}
	}
}

func TestNearestNeighborMatchesScan(t *testing.T) {
	// With distinct distances, the candidate-list version must give the
	// same tour as the O(n²) scan: lists and the fallback both find the
	// nearest unvisited city.
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 20 {
		n := 2 + rng.IntN(300)
		in := testinst.Euc(n, 1e6, rng)
		start := rng.IntN(n)
		want := NearestNeighbor(in, start, nil)
		got := NearestNeighbor(in, start, neighbor.Nearest(in, 1+trial%6))
		if problem.TourLength(in, got) != problem.TourLength(in, want) {
			t.Fatalf("n=%d: NN with lists has length %d, scan %d", n, problem.TourLength(in, got), problem.TourLength(in, want))
		}
		if got[0] != start {
			t.Fatalf("NN tour starts at %d, want %d", got[0], start)
		}
	}
}

func TestConstructionBeatsRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{50, 200, 1000} {
		for _, in := range []*problem.Instance{testinst.Euc(n, 1000, rng), testinst.Explicit(n, rng)} {
			r := problem.TourLength(in, Random(n, rng))
			nn := problem.TourLength(in, NearestNeighbor(in, 0, neighbor.Nearest(in, 8)))
			g := problem.TourLength(in, Greedy(in, nil))
			if nn >= r || g >= r {
				t.Errorf("%s n=%d: random %d, NN %d, greedy %d: construction should beat random", in.Name, n, r, nn, g)
			}
			if in.Metric == problem.Euc2D {
				s := problem.TourLength(in, SpaceFillingCurve(in))
				if s >= r {
					t.Errorf("n=%d: space-filling curve %d not better than random %d", n, s, r)
				}
				// Greedy is typically 15-20% above optimal, space-filling
				// curve 25-40%, both far below random (~n/√n times worse).
				if 2*g >= r || 2*s >= r {
					t.Errorf("n=%d: greedy %d / curve %d not even twice better than random %d", n, g, s, r)
				}
			}
		}
	}
}

func TestGreedyUsesShortEdges(t *testing.T) {
	// Cities on a line: greedy must find the optimal tour (there the only
	// fragment is the whole line, closed by the one long edge).
	n := 40
	x, y := make([]float64, n), make([]float64, n)
	perm := rand.New(rand.NewPCG(9, 9)).Perm(n)
	for i, p := range perm {
		x[i] = float64(p) * 10
	}
	in := problem.NewCoordInstance("line", problem.Euc2D, x, y, nil)
	if got, want := problem.TourLength(in, Greedy(in, nil)), int64(2*10*(n-1)); got != want {
		t.Fatalf("greedy on a line: %d, want %d", got, want)
	}
	if got, want := problem.TourLength(in, SpaceFillingCurve(in)), int64(2*10*(n-1)); got != want {
		t.Fatalf("curve on a line: %d, want %d", got, want)
	}
}

// TestCurveOrder: the curve visits the cities by increasing curve index,
// cities of one cell (here many: points on a coarse grid, duplicates
// too) in file order.
func TestCurveOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	n := 50000
	x, y := make([]float64, n), make([]float64, n)
	for i := range n {
		x[i], y[i] = float64(rng.IntN(300)), float64(rng.IntN(200))*1e6
	}
	in := problem.NewCoordInstance("grid", problem.Euc2D, x, y, nil)
	got := SpaceFillingCurve(in)
	scale := float64(uint32(1)<<hilbertOrder-1) / 199e6
	key := func(c int) uint64 {
		return hilbertIndex(uint32(clampUnit(x[c]*scale)), uint32(clampUnit(y[c]*scale)))
	}
	for p := 1; p < n; p++ {
		a, b := got[p-1], got[p]
		if ka, kb := key(a), key(b); ka > kb || ka == kb && a > b {
			t.Fatalf("positions %d, %d: cities %d (index %d), %d (index %d) out of order", p-1, p, a, ka, b, kb)
		}
	}
}

func TestHilbertIndexBijective(t *testing.T) {
	// On the coarsest levels the curve visits every cell once and moves
	// between neighbouring cells: check a 2^16 curve restricted to the
	// first 4096 positions is a path of unit steps.
	seen := map[uint64][2]uint32{}
	for x := uint32(0); x < 64; x++ {
		for y := uint32(0); y < 64; y++ {
			d := hilbertIndex(x, y)
			if _, dup := seen[d]; dup {
				t.Fatalf("index %d twice", d)
			}
			seen[d] = [2]uint32{x, y}
		}
	}
	for d := uint64(0); d+1 < 4096; d++ {
		a, ok1 := seen[d]
		b, ok2 := seen[d+1]
		if !ok1 || !ok2 {
			t.Fatalf("curve leaves the 64×64 corner at %d", d)
		}
		dx, dy := int(a[0])-int(b[0]), int(a[1])-int(b[1])
		if dx*dx+dy*dy != 1 {
			t.Fatalf("step %d→%d jumps from %v to %v", d, d+1, a, b)
		}
	}
}

func TestDegenerateInstances(t *testing.T) {
	// All cities on one point, and all on one vertical line: every
	// construction stays valid, and on one point every tour has length 0.
	for _, n := range []int{1, 2, 3, 4, 50, 3000} {
		point, column := testinst.Degenerate(n)
		for _, in := range []*problem.Instance{point, column} {
			nb := neighbor.Nearest(in, 10)
			q := neighbor.Quadrant(in, 8)
			tours := map[string][]int{
				"nn":     NearestNeighbor(in, n/2, nb),
				"greedy": Greedy(in, nb),
				"quad":   Greedy(in, q),
				"sfc":    SpaceFillingCurve(in),
			}
			for what, tr := range tours {
				testinst.MustValid(t, in, tr, what)
				if in.Name == "point" && problem.TourLength(in, tr) != 0 {
					t.Errorf("%s on one point: length %d", what, problem.TourLength(in, tr))
				}
			}
			if in.Name == "column" && n >= 97 {
				// Optimal: up the column and back, 2·96.
				if g := problem.TourLength(in, tours["greedy"]); g != 2*96 {
					t.Errorf("greedy on a column of %d: %d, want %d", n, g, 2*96)
				}
			}
		}
	}
}

func TestKeepFixed(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	for _, n := range []int{2, 3, 5, 12, 200} {
		in := testinst.Euc(n, 1000, rng)
		// Paths of fixed edges over a random permutation: cut it into
		// pieces, every piece's consecutive cities joined.
		perm := rng.Perm(n)
		for i := 0; i+1 < n; i++ {
			if rng.IntN(3) > 0 {
				in.FixedEdges = append(in.FixedEdges, [2]int{perm[i], perm[i+1]})
			}
		}
		for _, order := range [][]int{problem.IdentityTour(n), Random(n, rng), Greedy(in, nil)} {
			got := KeepFixed(in, order)
			testinst.MustValid(t, in, got, "KeepFixed")
			if err := in.CheckFixedEdges(got); err != nil {
				t.Fatalf("n=%d: %v (fixed %v, tour %v)", n, err, in.FixedEdges, got)
			}
		}
		// Fixed edges closing a whole tour give that tour.
		in.FixedEdges = nil
		for i := range n {
			in.FixedEdges = append(in.FixedEdges, [2]int{perm[i], perm[(i+1)%n]})
		}
		if n > 2 {
			got := KeepFixed(in, Random(n, rng))
			testinst.MustValid(t, in, got, "KeepFixed(cycle)")
			if err := in.CheckFixedEdges(got); err != nil {
				t.Fatalf("n=%d, fixed cycle: %v", n, err)
			}
		}
	}
}

// TestRandomizedNearestNeighbor: with no detours it is the nearest-
// neighbour tour; with 3 % of the steps to the second-nearest candidate
// it gives valid tours from the start city that differ between streams and
// stay near the nearest-neighbour tour's length (far below a random
// tour's), the same whatever the rows' order; without lists it says so.
func TestRandomizedNearestNeighbor(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	in := testinst.Euc(3000, 1e6, rng)
	nb := neighbor.Nearest(in, 8)
	ctx := context.Background()
	nn := NearestNeighbor(in, 17, nb)
	same, err := RandomizedNearestNeighborContext(ctx, in, 17, nb, rand.New(rand.NewPCG(1, 1)), 0)
	if err != nil || !slices.Equal(same, nn) {
		t.Fatalf("second = 0: not the nearest-neighbour tour (err %v)", err)
	}
	ln := problem.TourLength(in, nn)
	lr := problem.TourLength(in, Random(in.N, rng))
	var prev []int
	for s := uint64(1); s <= 4; s++ {
		r, err := RandomizedNearestNeighborContext(ctx, in, 17, nb, rand.New(rand.NewPCG(s, 2)), 0.03)
		if err != nil {
			t.Fatal(err)
		}
		if err := problem.ValidateTour(r, in.N); err != nil || r[0] != 17 {
			t.Fatalf("stream %d: %v, first city %d", s, err, r[0])
		}
		l := problem.TourLength(in, r)
		if slices.Equal(r, nn) || (prev != nil && slices.Equal(r, prev)) {
			t.Fatalf("stream %d: the same tour as the nearest-neighbour tour or the previous stream's", s)
		}
		if float64(l) > 1.15*float64(ln) || l*5 > lr {
			t.Fatalf("stream %d: length %d, nearest neighbour %d, random %d", s, l, ln, lr)
		}
		prev = r
	}
	// rows in another rank than distance (alpha lists are) give the same tours
	rev := &neighbor.Lists{K: nb.K, List: slices.Clone(nb.List), Ranked: true}
	for c := range in.N {
		slices.Reverse(rev.Of(c))
	}
	for s := uint64(1); s <= 2; s++ {
		a, _ := RandomizedNearestNeighborContext(ctx, in, 17, nb, rand.New(rand.NewPCG(s, 2)), 0.03)
		b, err := RandomizedNearestNeighborContext(ctx, in, 17, rev, rand.New(rand.NewPCG(s, 2)), 0.03)
		if err != nil || !slices.Equal(a, b) {
			t.Fatalf("stream %d: rows farthest first give another tour (err %v)", s, err)
		}
	}
	if _, err := RandomizedNearestNeighborContext(ctx, in, 0, nil, rng, 0.03); err == nil {
		t.Fatal("no candidate lists: no error")
	}
}

// TestRandomizedNearestNeighborSecondAlways: with every step a detour,
// each step goes to the second unvisited city of the current city's
// candidate list when it has two, to the only one when it has one, and
// else to a nearest unvisited city; a cancelled context gives its error
// and no tour.
func TestRandomizedNearestNeighborSecondAlways(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	in := testinst.Euc(600, 1e5, rng)
	nb := neighbor.Nearest(in, 5)
	r, err := RandomizedNearestNeighborContext(context.Background(), in, 42, nb, rand.New(rand.NewPCG(1, 1)), 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := problem.ValidateTour(r, in.N); err != nil || r[0] != 42 {
		t.Fatalf("%v, first city %d", err, r[0])
	}
	visited := make([]bool, in.N)
	visited[r[0]] = true
	for i := 0; i+1 < len(r); i++ {
		cur, next := r[i], r[i+1]
		var free []int
		for _, c := range nb.Of(cur) {
			if !visited[c] {
				free = append(free, int(c))
			}
		}
		switch {
		case len(free) >= 2 && next != free[1]:
			t.Fatalf("step %d from %d: went to %d, want the second unvisited candidate %d (of %v)", i, cur, next, free[1], free)
		case len(free) == 1 && next != free[0]:
			t.Fatalf("step %d from %d: went to %d, want the only unvisited candidate %d", i, cur, next, free[0])
		case len(free) == 0:
			for j := range visited {
				if !visited[j] && in.Dist(cur, j) < in.Dist(cur, next) {
					t.Fatalf("step %d from %d: went to %d, but unvisited %d is nearer", i, cur, next, j)
				}
			}
		}
		visited[next] = true
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	big := testinst.Euc(3*checkEvery, 1e5, rng)
	if tr, err := RandomizedNearestNeighborContext(ctx, big, 0, neighbor.Nearest(big, 5), rng, 0.03); err != context.Canceled || tr != nil {
		t.Fatalf("cancelled: %d cities, err %v; want no tour and context.Canceled", len(tr), err)
	}
}
