package batch

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/cpu/recomb"
	"github.com/tsplab/tsplab/solver/gen"
	"github.com/tsplab/tsplab/solver/neighbor"
)

// TestMergeTours merges randomized nearest-neighbour tours, a block's
// few and a population of them (evolve): the child is a tour of every
// city, its length is the one returned, it is no longer than the
// shortest parent, and on tours this far apart it is shorter.
func TestMergeTours(t *testing.T) {
	for _, c := range [][2]int{{12, 4}, {200, 4}, {1000, 4}, {200, evolveMinTours + 2}, {1000, evolveMinTours + 2}} {
		n := c[0]
		in, err := gen.Generate("uniform", n, uint64(n))
		if err != nil {
			t.Fatal(err)
		}
		nb := neighbor.Nearest(in, 8)
		rng := rand.New(rand.NewPCG(1, uint64(n)))
		var tours [][]int32
		shortest := int64(-1)
		for range c[1] {
			tr, err := construct.RandomizedNearestNeighborContext(context.Background(), in, rng.IntN(n), nb, rng, 0.1)
			if err != nil {
				t.Fatal(err)
			}
			t32 := make([]int32, n)
			for i, c := range tr {
				t32[i] = int32(c)
			}
			tours = append(tours, t32)
			if l := solver.TourLength(in, tr); shortest < 0 || l < shortest {
				shortest = l
			}
		}
		var g recomb.GPX
		var e recomb.EAX
		child, l := mergeTours(in, tours, nb.List, nb.K, &g, &e, 7, 1, time.Time{})
		seen := slices.Clone(child)
		slices.Sort(seen)
		for i, c := range seen {
			if int(c) != i {
				t.Fatalf("%d cities: the child is not a tour (city %d at %d of the sorted cities)", n, c, i)
			}
		}
		if got := solver.TourLength(in, child); got != l {
			t.Fatalf("%d cities: merged length %d, the child measures %d", n, l, got)
		}
		if l > shortest {
			t.Fatalf("%d cities: child %d longer than the shortest parent %d", n, l, shortest)
		}
		if n >= 200 && l >= shortest {
			t.Errorf("%d cities: the child (%d) is no shorter than the shortest parent", n, l)
		}
		t.Logf("%d cities, %d tours: shortest parent %d, child %d", n, c[1], shortest, l)
	}
}

// TestSpread hands every index to exactly one worker, and a worker whose
// func says false takes no more.
func TestSpread(t *testing.T) {
	const count = 1000
	var seen [count]atomic.Int32
	spread(count, 7, func() func(int) bool {
		return func(k int) bool { seen[k].Add(1); return true }
	})()
	for k := range seen {
		if v := seen[k].Load(); v != 1 {
			t.Fatalf("index %d taken %d times", k, v)
		}
	}
	var taken atomic.Int32
	spread(count, 3, func() func(int) bool {
		return func(int) bool { taken.Add(1); return false }
	})()
	if v := taken.Load(); v != 3 {
		t.Fatalf("3 workers that stop at once took %d indices", v)
	}
}

// TestEvolveStale evolves one population of randomized nearest-neighbour
// tours until one generation and until three in a row gain nothing: the
// longer evolution goes on from where the shorter stopped (the same
// generations first), so its tour is a tour no longer, and here shorter.
func TestEvolveStale(t *testing.T) {
	const n, count = 500, 20
	in, err := gen.Generate("uniform", n, 3)
	if err != nil {
		t.Fatal(err)
	}
	nb := neighbor.Nearest(in, 8)
	rng := rand.New(rand.NewPCG(2, n))
	tours, lens := make([][]int32, count), make([]int64, count)
	for j := range tours {
		tr, err := construct.RandomizedNearestNeighborContext(context.Background(), in, rng.IntN(n), nb, rng, 0.1)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range tr {
			tours[j] = append(tours[j], int32(c))
		}
		lens[j] = solver.TourLength(in, tr)
	}
	var got [2]int64
	for k, stale := range []int{1, 3} {
		e := recomb.EAX{NB: nb.List, K: nb.K}
		child, l := evolve(in, tours, lens, 0, slices.Clone(tours[0]), lens[0], &e, 5, stale, time.Time{})
		if err := solver.ValidateTour(toInts(child), n); err != nil {
			t.Fatalf("stale %d: %v", stale, err)
		}
		if m := solver.TourLength(in, toInts(child)); m != l {
			t.Fatalf("stale %d: length %d, the tour measures %d", stale, l, m)
		}
		got[k] = l
	}
	t.Logf("one generation without gain: %d; three: %d", got[0], got[1])
	if got[1] >= got[0] {
		t.Errorf("three generations without gain ended at %d, one at %d: no shorter", got[1], got[0])
	}
}

func toInts(t []int32) []int {
	out := make([]int, len(t))
	for i, c := range t {
		out[i] = int(c)
	}
	return out
}
