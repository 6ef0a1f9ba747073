//go:build cuda

package climb

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tsplab/tsplab/gpu/ils"
	"github.com/tsplab/tsplab/internal/gputest"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
)

// refSwapTabu is a plain reference tabu search (exact deltas from whole
// tour lengths): the best admissible swap each iteration, a swap of
// positions (i, j) tabu for tenure iterations unless it reaches a new best,
// ties to the first pair in row order. It returns the best tour's length
// and the tour after iters iterations.
func refSwapTabu(in *solver.Instance, start []int, iters, tenure int) (best int64, cur []int) {
	n := len(start)
	cur = slices.Clone(start)
	l := solver.TourLength(in, cur)
	best = l
	until := map[[2]int]int{}
	for it := 0; it < iters; it++ {
		bi, bj := -1, -1
		var bd int64
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				d := cpuSwapDelta(in, cur, i, j)
				if until[[2]int{i, j}] > it && l+d >= best {
					continue
				}
				if bi < 0 || d < bd {
					bi, bj, bd = i, j, d
				}
			}
		}
		cur[bi], cur[bj] = cur[bj], cur[bi]
		until[[2]int{bi, bj}] = it + 1 + tenure
		l += bd
		best = min(best, l)
	}
	return best, cur
}

func TestSwapTabuMatchesReference(t *testing.T) {
	gputest.NeedDevice(t)
	e, err := solver.Lookup(AlgoSwapClimb, solver.BackendGPU)
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []*solver.Instance{gputest.RandomInstance(70, solver.Euc2D, 10000, 5), gputest.MatrixInstance(50, 6)} {
		start := construct.Random(in.N, rand.New(rand.NewPCG(9, 9)))
		const iters, tenure = 150, 7
		want, _ := refSwapTabu(in, start, iters, tenure)
		// per: one thread per neighbour, threads whose moves cross rows,
		// a thread longer than a row, and the thread control's choice
		for _, per := range []int{1, 3, 8, 64, 0} {
			r, err := e.Solve(context.Background(), in, solver.Params{Seed: 1, Start: start,
				Config: func(c *SwapConfig) { c.Dist, c.Tabu, c.Tenure, c.Per = "matrix", iters, tenure, per }}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if r.Steps != iters || r.Moves != iters*swapMoves(in.N) {
				t.Fatalf("%s per %d: %d iterations, %d moves; want %d and %d", in.Name, per, r.Steps, r.Moves, iters, iters*swapMoves(in.N))
			}
			if r.Length != want {
				t.Fatalf("%s per %d: GPU tabu search best %d, reference %d", in.Name, per, r.Length, want)
			}
			if r.Length > solver.TourLength(in, start) {
				t.Fatalf("%s per %d: best %d is longer than the start", in.Name, per, r.Length)
			}
		}
	}
}

// The moves per thread change the schedule, not the search: from
// coordinates too (the distances are symmetric in float), on an instance
// large enough for every per to take whole rows and parts of rows.
func TestSwapTabuPerSameSearch(t *testing.T) {
	gputest.NeedDevice(t)
	e, _ := solver.Lookup(AlgoSwapClimb, solver.BackendGPU)
	in := gputest.RandomInstance(1500, solver.Euc2D, 100000, 13)
	var lens []int64
	for _, per := range []int{1, 5, 16, 0} {
		r, err := e.Solve(context.Background(), in, solver.Params{Seed: 3, Config: func(c *SwapConfig) { c.Tabu, c.Per = 400, per }}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Steps != 400 {
			t.Fatalf("per %d: %d iterations", per, r.Steps)
		}
		t.Logf("per %d (ran %d, block %d): best %d in %v", per, r.Settings.Per, r.Settings.Threads, r.Length, r.Elapsed)
		lens = append(lens, r.Length)
	}
	if slices.Min(lens) != slices.Max(lens) {
		t.Fatalf("same seed, different moves per thread, different results: %v", lens)
	}
}

func TestSwapTabuThreadControlAndFixedBlocks(t *testing.T) {
	gputest.NeedDevice(t)
	e, _ := solver.Lookup(AlgoSwapClimb, solver.BackendGPU)
	in := gputest.RandomInstance(400, solver.Euc2D, 10000, 8)
	var lens []int64
	for _, threads := range []int{0, 256, 64} {
		r, err := e.Solve(context.Background(), in, gputest.WithOpts(solver.Params{Seed: 4, Config: func(c *SwapConfig) { c.Dist, c.Tabu = "matrix", 300 }}, fmt.Sprint("threads=", threads)), nil)
		if err != nil {
			t.Fatal(err)
		}
		if ran := r.Settings.Threads; r.Steps != 300 || ran < 32 || (threads > 0 && ran != threads) {
			t.Fatalf("threads %d: %d iterations, block %d", threads, r.Steps, ran)
		}
		lens = append(lens, r.Length)
	}
	// the launch size changes the schedule, not the search
	if lens[0] != lens[1] || lens[1] != lens[2] {
		t.Fatalf("same seed, different block sizes, different results: %v", lens)
	}
}

func TestThreeOptILSHonoursKicks(t *testing.T) {
	gputest.NeedDevice(t)
	e, _ := solver.Lookup(ils.AlgoThreeOptILS, solver.BackendGPU)
	in := gputest.RandomInstance(200, solver.Euc2D, 10000, 12)
	for _, k := range []int{1, 25} {
		r, err := e.Solve(context.Background(), in, solver.Params{Seed: 2, Config: func(c *ils.ThreeOptConfig) { c.Kicks = k }}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Steps != int64(k) || r.Stopped {
			t.Fatalf("kicks=%d: %d kicks, stopped %v", k, r.Steps, r.Stopped)
		}
	}
}
