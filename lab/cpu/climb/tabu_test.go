package climb

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tsplab/tsplab/internal/runctl"
	"github.com/tsplab/tsplab/internal/testinst"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/tour"
)

// swapLocalMin climbs t with best-improvement swaps to a swap-optimal tour.
func swapLocalMin(d *tour.Dist, t []int32) []int32 {
	for {
		best, i, j := bestSwap(d, t, func(int64) bool { return false })
		if best >= 0 {
			return t
		}
		t[i], t[j] = t[j], t[i]
	}
}

func TestSwapTabuForbidsRecentSwap(t *testing.T) {
	in := uniformInstance(40, 3)
	d := tour.NewDist(in)
	min := swapLocalMin(d, runctl.NewRand(1, 0).RandomTour(in.N))
	// Without a tabu list the search leaves the local minimum by its least
	// bad swap and the next iteration undoes it: a cycle of two.
	free := newSwapTabu(d, min, 0)
	free.step()
	if slices.Equal(free.t, min) || free.cur <= d.Length(min) {
		t.Fatalf("first step from a swap-optimal tour should worsen it: %d -> %d", d.Length(min), free.cur)
	}
	free.step()
	if !slices.Equal(free.t, min) {
		t.Fatalf("with tenure 0 the second step should undo the first (cycle); it did not")
	}
	// With a tenure the undoing swap is tabu: the search goes elsewhere.
	tabu := newSwapTabu(d, min, 5)
	tabu.step()
	var i, j = -1, -1
	for p := range tabu.t {
		if tabu.t[p] != min[p] {
			if i < 0 {
				i = p
			} else {
				j = p
			}
		}
	}
	k := swapMoveIndex(in.N, i, j)
	if tabu.until[k] != 1+5 {
		t.Fatalf("swap (%d,%d) made at iteration 0 should be tabu until iteration 6, got %d", i, j, tabu.until[k])
	}
	undo := swapDelta(d, tabu.t, i, j)
	if tabu.admissible(k, undo) {
		t.Fatalf("undoing the last swap (delta %d, back to %d, best %d) should be tabu", undo, tabu.cur+undo, tabu.bestL)
	}
	tabu.step()
	if slices.Equal(tabu.t, min) {
		t.Fatalf("the tabu search undid its last swap")
	}
	// Aspiration: a tabu swap that beats the best so far is admissible.
	tabu.until[0] = 1 << 30
	if !tabu.admissible(0, tabu.bestL-tabu.cur-1) {
		t.Fatalf("a tabu swap reaching a new best should be admissible")
	}
	if tabu.admissible(0, tabu.bestL-tabu.cur) {
		t.Fatalf("a tabu swap only equalling the best should not be admissible")
	}
}

func TestSwapTabuHonoursIterations(t *testing.T) {
	in := uniformInstance(60, 7)
	m := int64(in.N) * int64(in.N-1) / 2
	for _, iters := range []int{1, 57, 400} {
		r := solve(t, "swap-climb", in, solver.Params{Seed: 2, Config: func(c *climbConfig) { c.Tabu = iters }}, nil)
		if r.Steps != int64(iters) || r.Moves != int64(iters)*m {
			t.Fatalf("tabu=%d: %d iterations and %d moves, want %d and %d", iters, r.Steps, r.Moves, iters, int64(iters)*m)
		}
		if r.Settings.Tenure != 10 {
			t.Fatalf("tenure for 60 cities should default to 10, got %d", r.Settings.Tenure)
		}
	}
	// The search keeps the best tour it met: never longer than its start,
	// and more iterations never end worse (same seed, same trajectory).
	start := runctl.NewRand(2, 0).RandomTour(in.N)
	startLen := tour.NewDist(in).Length(start)
	var prev int64 = -1
	for _, iters := range []int{10, 100, 1000} {
		r := solve(t, "swap-climb", in, solver.Params{Seed: 2, Config: func(c *climbConfig) { c.Tabu = iters }}, nil)
		if r.Length > startLen || (prev >= 0 && r.Length > prev) {
			t.Fatalf("tabu=%d: best %d (start %d, fewer iterations %d)", iters, r.Length, startLen, prev)
		}
		prev = r.Length
	}
}

// TestSwapTabuChooseMatchesPricingEachSwap checks the row-wise choice of
// the tabu search against pricing every swap on its own with swapDelta
// and the admissibility rule, ties to the first pair in row order, along
// a search with tabu and aspiration in play: with a distance matrix, with
// EUC_2D computed from coordinates (over MatrixMaxEUC2D cities), and with
// the instance's own distance function (ATT, many ties, without a matrix).
func TestSwapTabuChooseMatchesPricingEachSwap(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 1))
	att := testinst.Grid(90, 12, solver.Att, rng)
	cases := []*tour.Dist{
		tour.NewDist(uniformInstance(157, 4)),
		tour.NewDist(uniformInstance(tour.MatrixMaxEUC2D+61, 5)),
		tour.LazyDist(att),
	}
	for c, d := range cases {
		if (c == 0) != (d.Matrix() != nil) {
			t.Fatalf("case %d: matrix %v, want it only in the first case", c, d.Matrix() != nil)
		}
		n := d.N()
		name := fmt.Sprintf("case %d", c)
		s := newSwapTabu(d, runctl.NewRand(9, 0).RandomTour(n), 3)
		ref := func() (best int64, bi, bj int, ok bool) {
			for i := 0; i < n-1; i++ {
				for j := i + 1; j < n; j++ {
					delta := swapDelta(d, s.t, i, j)
					if (!ok || delta < best) && s.admissible(swapMoveIndex(n, i, j), delta) {
						best, bi, bj, ok = delta, i, j, true
					}
				}
			}
			return
		}
		for step := 0; step < 25; step++ {
			if step == 12 {
				// many tabu moves at once, a few of them aspiring
				for k := range s.until {
					if rng.IntN(3) == 0 {
						s.until[k] = s.it + 1 + int32(rng.IntN(5))
					}
				}
			}
			b1, i1, j1, ok1 := s.choose()
			b0, i0, j0, ok0 := ref()
			if b1 != b0 || i1 != i0 || j1 != j0 || ok1 != ok0 {
				t.Fatalf("%s (n %d), step %d: choose gives %d at (%d,%d) ok %v, pricing each swap %d at (%d,%d) ok %v",
					name, n, step, b1, i1, j1, ok1, b0, i0, j0, ok0)
			}
			if !s.step() {
				t.Fatalf("%s: step %d: no admissible swap", name, step)
			}
			if got := d.Length(s.t); got != s.cur {
				t.Fatalf("%s: step %d: tracked length %d, tour %d", name, step, s.cur, got)
			}
		}
	}
}
