//go:build cuda

package climb

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/internal/gputest"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
)

// cpuSwapDelta is the exact change of length when positions i < j swap.
func cpuSwapDelta(in *solver.Instance, t []int, i, j int) int64 {
	u := append([]int(nil), t...)
	u[i], u[j] = u[j], u[i]
	return solver.TourLength(in, u) - solver.TourLength(in, t)
}

// swapDeltasOnGPU runs the debug kernel: every move's (i, j) and delta.
func swapDeltasOnGPU(t *testing.T, r *device.Run, in *solver.Instance, tr []int, matrix bool) (pi, pj, delta []int32) {
	t.Helper()
	m := int(swapMoves(in.N))
	pi, pj, delta = make([]int32, m), make([]int32, m), make([]int32, m)
	for k := range pi {
		pi[k], pj[k], delta[k] = -7, -7, -7 // poison: every entry must be written
	}
	err := r.Do(func() error {
		var bufs device.Buffers
		defer bufs.FreeAll()
		dist, err := device.NewLSDist(&bufs, in, matrix)
		if err != nil {
			return err
		}
		c := make([]int32, in.N)
		for i, v := range tr {
			c[i] = int32(v)
		}
		tp, err := bufs.Alloc(int64(4 * in.N))
		if err != nil {
			return err
		}
		dp, err := bufs.Alloc(int64(4 * m))
		if err != nil {
			return err
		}
		ip, err := bufs.Alloc(int64(4 * m))
		if err != nil {
			return err
		}
		jp, err := bufs.Alloc(int64(4 * m))
		if err != nil {
			return err
		}
		device.HtoD(tp, c)
		device.HtoD(dp, delta)
		device.HtoD(ip, pi)
		device.HtoD(jp, pj)
		if err := r.Launch("swap_deltas_"+dist.Suffix, (m+127)/128, 1, 128, 0, r.Stream, dist.Xy, dist.Mat, in.N, tp, dp, ip, jp); err != nil {
			return err
		}
		if err := r.Stream.Synchronize(); err != nil {
			return err
		}
		device.DtoH(delta, dp)
		device.DtoH(pi, ip)
		return device.DtoH(pj, jp)
	})
	if err != nil {
		t.Fatal(err)
	}
	return
}

func TestSwapDeltasMatchCPU(t *testing.T) {
	r := gputest.NeedRun(t)
	cases := []struct {
		m      solver.Metric
		n      int
		matrix bool
	}{
		{solver.Euc2D, 5, true}, {solver.Euc2D, 6, false}, {solver.Euc2D, 233, true},
		{solver.Euc2D, 233, false}, {solver.Ceil2D, 150, false}, {solver.Att, 150, false}, {solver.Att, 97, true},
	}
	for _, c := range cases {
		in := gputest.RandomInstance(c.n, c.m, 5000, uint64(c.n))
		tr := construct.Random(in.N, rand.New(rand.NewPCG(uint64(c.n), 3)))
		pi, pj, delta := swapDeltasOnGPU(t, r, in, tr, c.matrix)
		k, off := 0, 0
		for i := 0; i < in.N; i++ {
			for j := i + 1; j < in.N; j++ {
				if int(pi[k]) != i || int(pj[k]) != j {
					t.Fatalf("%s n=%d: move %d maps to (%d,%d), want (%d,%d)", c.m, c.n, k, pi[k], pj[k], i, j)
				}
				want := cpuSwapDelta(in, tr, i, j)
				if diff := int64(delta[k]) - want; diff != 0 {
					if c.matrix {
						t.Fatalf("%s n=%d matrix: swap (%d,%d) GPU delta %d, CPU %d", c.m, c.n, i, j, delta[k], want)
					}
					// coordinates: each of the 8 distances may round the other way
					if diff > 8 || diff < -8 {
						t.Fatalf("%s n=%d coords: swap (%d,%d) GPU delta %d, CPU %d", c.m, c.n, i, j, delta[k], want)
					}
					off++
				}
				k++
			}
		}
		if off*100 > k {
			t.Errorf("%s n=%d: %d of %d GPU deltas differ from the CPU's", c.m, c.n, off, k)
		}
	}
}

// TestSwapPairMappingLargeN checks the one-to-two index mapping over every
// move of 6,000 and 16,500 cities (the float and the double root), and a
// sample of the deltas.
func TestSwapPairMappingLargeN(t *testing.T) {
	r := gputest.NeedRun(t)
	if testing.Short() {
		t.Skip("a 16,500-city neighbourhood (136 million moves): not under -short")
	}
	for _, n := range []int{6000, 16500} {
		in := gputest.RandomInstance(n, solver.Euc2D, 100000, uint64(n))
		tr := construct.Random(n, rand.New(rand.NewPCG(uint64(n), 5)))
		pi, pj, delta := swapDeltasOnGPU(t, r, in, tr, false)
		k := 0
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				if int(pi[k]) != i || int(pj[k]) != j {
					t.Fatalf("n=%d: move %d maps to (%d,%d), want (%d,%d)", n, k, pi[k], pj[k], i, j)
				}
				if k%9973 == 0 {
					if diff := int64(delta[k]) - cpuSwapDelta(in, tr, i, j); diff > 8 || diff < -8 {
						t.Fatalf("n=%d: swap (%d,%d) GPU delta %d, CPU off by %d", n, i, j, delta[k], diff)
					}
				}
				k++
			}
		}
	}
}

// cpuBestSwap is the best swap with the kernels' tie-break (delta, i, j).
func cpuBestSwap(in *solver.Instance, t []int) (best int64, bi, bj int) {
	bi, bj = -1, -1
	for i := 0; i < len(t); i++ {
		for j := i + 1; j < len(t); j++ {
			if dl := cpuSwapDelta(in, t, i, j); bi < 0 || dl < best {
				best, bi, bj = dl, i, j
			}
		}
	}
	return
}

func TestSwapApplyMakesCPUBestMove(t *testing.T) {
	r := gputest.NeedRun(t)
	in := gputest.RandomInstance(300, solver.Euc2D, 10000, 11)
	rng := rand.New(rand.NewPCG(4, 4))
	tours := [][]int{construct.Random(in.N, rng), construct.Random(in.N, rng), construct.Random(in.N, rng)}
	got := make([]int32, len(tours)*in.N)
	flags := make([]int32, len(tours))
	passes := make([]int64, len(tours))
	err := r.Do(func() error {
		b, err := newSwapBatch(r, in, len(tours), true)
		if err != nil {
			return err
		}
		defer b.free()
		for k, tr := range tours {
			if err := b.upload(k, tr); err != nil {
				return err
			}
		}
		b.block = 128
		if err := b.eval(); err != nil {
			return err
		}
		if err := b.apply(); err != nil {
			return err
		}
		if err := r.Stream.Synchronize(); err != nil {
			return err
		}
		device.DtoH(flags, b.flags)
		device.DtoH(passes, b.passes)
		return device.DtoH(got, b.tours)
	})
	if err != nil {
		t.Fatal(err)
	}
	for k, tr := range tours {
		delta, i, j := cpuBestSwap(in, tr)
		if delta >= 0 {
			t.Fatalf("a random tour has no improving swap")
		}
		want := append([]int(nil), tr...)
		want[i], want[j] = want[j], want[i]
		for p := range want {
			if int(got[k*in.N+p]) != want[p] {
				t.Fatalf("climber %d: position %d holds %d, want %d (CPU best swap (%d,%d) delta %d)", k, p, got[k*in.N+p], want[p], i, j, delta)
			}
		}
		if flags[k] != 1 || passes[k] != 1 {
			t.Fatalf("climber %d: flag %d passes %d, want 1 and 1", k, flags[k], passes[k])
		}
	}
}

func TestSwapThreadControlFallsBack(t *testing.T) {
	r := gputest.NeedRun(t)
	in := gputest.RandomInstance(400, solver.Euc2D, 10000, 12)
	var trials []LaunchTrial
	var chosen int
	err := r.Do(func() error {
		b, err := newSwapBatch(r, in, 2, false)
		if err != nil {
			return err
		}
		defer b.free()
		for k := 0; k < 2; k++ {
			b.upload(k, construct.Random(in.N, rand.New(rand.NewPCG(1, uint64(k)))))
		}
		// 2048 threads per block exceeds every GPU's limit: the waves stop
		// there and the faster of 64 and 128 stays.
		trials, err = b.tune([]int{64, 128, 2048, 256})
		chosen = b.block
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(trials) != 3 || trials[2].Err == nil || trials[0].Err != nil || trials[1].Err != nil {
		t.Fatalf("trials %+v: want two good waves then the failed 2048", trials)
	}
	if chosen != 64 && chosen != 128 {
		t.Fatalf("chose block %d after a failed launch, want 64 or 128", chosen)
	}
	// the context still works after the failed launch
	if err := contextWorks(r); err != nil {
		t.Fatalf("after the failed launch: %v", err)
	}
}

// contextWorks allocates and copies, to show the context is usable.
func contextWorks(r *device.Run) error {
	return r.Do(func() error {
		var bufs device.Buffers
		defer bufs.FreeAll()
		p, err := bufs.Alloc(64)
		if err != nil {
			return err
		}
		return device.HtoD(p, make([]int32, 16))
	})
}

// swapOptimal reports whether no swap improves t (exact distances).
func swapOptimal(in *solver.Instance, t []int) bool {
	best, _, _ := cpuBestSwap(in, t)
	return best >= 0
}

func TestSwapClimbEngine(t *testing.T) {
	gputest.NeedDevice(t)
	e, err := solver.Lookup(AlgoSwapClimb, solver.BackendGPU)
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []*solver.Instance{gputest.RandomInstance(120, solver.Euc2D, 10000, 21), gputest.MatrixInstance(60, 22)} {
		snaps := solver.Latest()
		// the exact matrix, so the climbers' minima are swap-optimal exactly
		r, err := solver.RunAided(context.Background(), e, in, solver.Params{Seed: 3, TimeLimit: 500 * time.Millisecond, Config: func(c *SwapConfig) { c.Dist = "matrix" }}, snaps, solver.Aid{}, false)
		if err != nil {
			t.Fatal(err)
		}
		if err := solver.ValidateTour(r.Tour, in.N); err != nil {
			t.Fatal(err)
		}
		if r.Length != solver.TourLength(in, r.Tour) || r.Moves <= 0 || r.Steps <= 0 {
			t.Fatalf("%s: length %d (exact %d), moves %d, climbs %d", in.Name, r.Length, solver.TourLength(in, r.Tour), r.Moves, r.Steps)
		}
		if r.Moves%swapMoves(in.N) != 0 {
			t.Fatalf("moves %d is not a whole number of neighbourhoods of %d", r.Moves, swapMoves(in.N))
		}
		if !swapOptimal(in, r.Tour) {
			t.Fatalf("%s: the best climber's tour is not swap-optimal", in.Name)
		}
		if r.Settings.Threads < 32 || r.Settings.Blocks < 1 {
			t.Fatalf("params %+v: thread control left no launch size", r.Params)
		}
		select {
		case s := <-snaps:
			if s.BestLength < r.Length {
				t.Fatalf("snapshot best %d below the result %d", s.BestLength, r.Length)
			}
		default:
			t.Fatal("no snapshot")
		}
	}
}

// BenchmarkSwapEval times one evaluation of the whole swap neighbourhood
// of 3,000 cities (distances from the matrix or from coordinates, block
// size from the thread control) and reports moves evaluated per second.
func BenchmarkSwapEval(b *testing.B) {
	r := gputest.NeedRun(b)
	in := gputest.RandomInstance(3000, solver.Euc2D, 100000, 1)
	for _, mode := range []string{"matrix", "coords"} {
		b.Run(mode, func(b *testing.B) {
			err := r.Do(func() error {
				sb, err := newSwapBatch(r, in, 1, mode == "matrix")
				if err != nil {
					return err
				}
				defer sb.free()
				if err := sb.upload(0, construct.Random(in.N, rand.New(rand.NewPCG(1, 1)))); err != nil {
					return err
				}
				if _, err := sb.tune(SwapLaunchCandidates); err != nil {
					return err
				}
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if err := sb.eval(); err != nil {
						return err
					}
				}
				return r.Stream.Synchronize()
			})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(swapMoves(in.N))*float64(b.N)/b.Elapsed().Seconds(), "moves/s")
		})
	}
}
