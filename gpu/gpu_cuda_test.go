//go:build cuda

package gpu

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
	"time"

	"gorgonia.org/cu"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// needDevice skips the test with the reason when no GPU can run kernels.
func needDevice(t testing.TB) *device {
	t.Helper()
	d, err := getDevice()
	if err != nil {
		t.Skipf("no usable CUDA device: %v", err)
	}
	return d
}

// needRun opens a run for the test (closed when the test ends), or skips
// the test when no GPU can run kernels.
func needRun(t testing.TB) *run {
	t.Helper()
	needDevice(t)
	r, err := newRun()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.close)
	return r
}

func randomInstance(n int, m solver.Metric, scale float64, seed uint64) *solver.Instance {
	rng := rand.New(rand.NewPCG(seed, 7))
	x, y := make([]float64, n), make([]float64, n)
	for i := range x {
		x[i] = math.Floor(rng.Float64() * scale)
		y[i] = math.Floor(rng.Float64() * scale)
	}
	return solver.NewCoordInstance(fmt.Sprintf("rand%d", n), m, x, y, nil)
}

func TestIntDistMatchesCPU(t *testing.T) {
	r := needRun(t)
	for _, m := range []solver.Metric{solver.Euc2D, solver.Ceil2D, solver.Att} {
		in := randomInstance(2000, m, 20000, 3)
		code, _ := metricCode(in)
		const pairs = 100000
		rng := rand.New(rand.NewPCG(9, 9))
		a, b := make([]int32, pairs), make([]int32, pairs)
		for k := range a {
			a[k], b[k] = int32(rng.IntN(in.N)), int32(rng.IntN(in.N))
		}
		got := make([]int32, pairs)
		err := r.do(func() error {
			var bufs buffers
			defer bufs.freeAll()
			var xy, pa, pb, po cu.DevicePtr
			var err error
			for _, x := range []struct {
				p     *cu.DevicePtr
				bytes int64
			}{{&xy, int64(8 * in.N)}, {&pa, 4 * pairs}, {&pb, 4 * pairs}, {&po, 4 * pairs}} {
				if *x.p, err = bufs.alloc(x.bytes); err != nil {
					return err
				}
			}
			if err := htod(xy, shiftedCoords(in)); err != nil {
				return err
			}
			if err := htod(pa, a); err != nil {
				return err
			}
			if err := htod(pb, b); err != nil {
				return err
			}
			if err := r.launch("dist_check_"+metricSuffix[code], (pairs+255)/256, 1, 256, 0, r.stream, xy, pa, pb, int64(pairs), po); err != nil {
				return err
			}
			if err := r.stream.Synchronize(); err != nil {
				return err
			}
			return dtoh(got, po)
		})
		if err != nil {
			t.Fatal(err)
		}
		off := 0
		for k := range a {
			want := in.Dist(int(a[k]), int(b[k]))
			if diff := int64(got[k]) - want; diff != 0 {
				off++
				if diff > 1 || diff < -1 {
					t.Fatalf("%s: d(%d,%d) GPU %d, CPU %d", m, a[k], b[k], got[k], want)
				}
			}
		}
		// Fast-math square roots may round a distance at a .5 tie the other
		// way; the engines' lengths are recomputed exactly on the CPU.
		if off > pairs/1000 {
			t.Errorf("%s: %d of %d GPU distances differ from the CPU's by one", m, off, pairs)
		}
		t.Logf("%s: %d of %d distances differ by one", m, off, pairs)
	}
}

// cpuFloatDelta is the 2-opt delta of (i, j) in float64 on the kernel's
// scaled coordinates.
func cpuFloatDelta(pts []float32, i, j, n int) float64 {
	p := func(k int) (float64, float64) { return float64(pts[4*k]), float64(pts[4*k+1]) }
	dist := func(a, b int) float64 {
		ax, ay := p(a)
		bx, by := p(b)
		return math.Hypot(ax-bx, ay-by)
	}
	return dist(i, j) + dist(i+1, (j+1)%n) - dist(i, i+1) - dist(j, (j+1)%n)
}

func TestDebugDeltasMatchCPU(t *testing.T) {
	needDevice(t)
	for _, m := range []solver.Metric{solver.Euc2D, solver.Att} {
		in := randomInstance(300, m, 10000, 5)
		tr := construct.Random(in.N, rand.New(rand.NewPCG(1, 2)))
		got, pts, err := debugDeltas(in, tr)
		if err != nil {
			t.Fatal(err)
		}
		n := in.N
		checked := 0
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				g := got[i*n+j]
				if !validMove(i, j, n) {
					if !math.IsInf(float64(g), 1) {
						t.Fatalf("(%d,%d) is no move but got delta %v", i, j, g)
					}
					continue
				}
				f := cpuFloatDelta(pts, i, j, n)
				if math.Abs(float64(g)-f) > 1e-5*40000+1e-3 {
					t.Fatalf("%s (%d,%d): GPU %v, CPU float %v", m, i, j, g, f)
				}
				// Four TSPLIB roundings: the exact integer delta is within 2 of
				// the real-valued one (ATT: its pseudo-Euclidean rounding).
				// (pts are scaled so that f is in the metric's units.)
				ex := float64(exactDelta(in, tr, i, j))
				if math.Abs(ex-f) > 4.01 {
					t.Fatalf("%s (%d,%d): exact %v, float %v", m, i, j, ex, f)
				}
				checked++
			}
		}
		if checked != int(movesPerPass(n)) {
			t.Fatalf("checked %d moves, want %d", checked, movesPerPass(n))
		}
	}
}

func TestEvalTilesFindTileMinimum(t *testing.T) {
	needDevice(t)
	for _, n := range []int{5, 7, 1000, 1025, 2500} {
		in := randomInstance(n, solver.Euc2D, 50000, uint64(n))
		tr := construct.Random(n, rand.New(rand.NewPCG(uint64(n), 3)))
		tbs, err := evalTiles(in, tr)
		if err != nil {
			t.Fatal(err)
		}
		pts := make([]float32, 4*n)
		tourPoints(shiftedCoords(in), 1, tr, pts)
		T, tiles := evalGrid(n)
		if len(tbs) != tiles {
			t.Fatalf("n=%d: %d tiles, want %d", n, len(tbs), tiles)
		}
		k := 0
		for bi := 0; bi < T; bi++ {
			for bj := bi; bj < T; bj++ {
				want, wi, wj := math.Inf(1), -1, -1
				for i := bi * evalTile; i < min(n, (bi+1)*evalTile); i++ {
					for j := bj * evalTile; j < min(n, (bj+1)*evalTile); j++ {
						if validMove(i, j, n) {
							if f := cpuFloatDelta(pts, i, j, n); f < want {
								want, wi, wj = f, i, j
							}
						}
					}
				}
				g := tbs[k]
				k++
				if wi < 0 {
					if g.I >= 0 {
						t.Fatalf("n=%d tile (%d,%d): no move, GPU reported (%d,%d)", n, bi, bj, g.I, g.J)
					}
					continue
				}
				if !validMove(int(g.I), int(g.J), n) {
					t.Fatalf("n=%d tile (%d,%d): GPU reported invalid move (%d,%d)", n, bi, bj, g.I, g.J)
				}
				gf := cpuFloatDelta(pts, int(g.I), int(g.J), n)
				if math.Abs(gf-float64(g.Delta)) > 0.05 || gf > want+0.05 {
					t.Fatalf("n=%d tile (%d,%d): GPU (%d,%d) delta %v (CPU %v), CPU best (%d,%d) %v", n, bi, bj, g.I, g.J, g.Delta, gf, wi, wj, want)
				}
				ex := exactDelta(in, tr, int(g.I), int(g.J))
				if math.Abs(float64(ex)-gf) > 2.01 {
					t.Fatalf("n=%d: exact delta %d of the reported move, float %v", n, ex, gf)
				}
			}
		}
	}
}

func quickParams(seed uint64) solver.Params {
	p := solver.Params{Seed: seed, TimeLimit: 300 * time.Millisecond}
	return withOpts(p, "t0=100", "tend=1", "alpha=0.8", "sweeps=2", "k=5", "blocks=64")
}

func TestEnginesReturnValidTours(t *testing.T) {
	needDevice(t)
	in := randomInstance(200, solver.Euc2D, 1000, 11)
	for _, a := range algorithms {
		e, err := solver.Lookup(a.name, solver.BackendGPU)
		if err != nil {
			t.Fatal(err)
		}
		snaps := solver.Latest()
		r, err := e.Solve(context.Background(), in, takes(a.name, quickParams(1)), snaps)
		if err != nil {
			t.Fatalf("%s: %v", a.name, err)
		}
		if err := solver.ValidateTour(r.Tour, in.N); err != nil {
			t.Fatalf("%s: %v", a.name, err)
		}
		if r.Length != solver.TourLength(in, r.Tour) || r.Moves <= 0 {
			t.Fatalf("%s: length %d (exact %d), moves %d", a.name, r.Length, solver.TourLength(in, r.Tour), r.Moves)
		}
		select {
		case s := <-snaps:
			if s.BestLength <= 0 || solver.ValidateTour(s.Best, in.N) != nil {
				t.Fatalf("%s: bad snapshot %d", a.name, s.BestLength)
			}
		default:
			t.Fatalf("%s sent no snapshot", a.name)
		}
		t.Logf("%s: %d in %v, %.3g moves/s on %s", a.name, r.Length, r.Elapsed, r.MovesPerSecond(), r.Device)
	}
}

func TestPSPMSameSeedSameResult(t *testing.T) {
	needDevice(t)
	in := randomInstance(150, solver.Euc2D, 1000, 12)
	e, _ := solver.Lookup(AlgoPSPM, solver.BackendGPU)
	p := quickParams(42)
	p.TimeLimit = 0
	r1, err := e.Solve(context.Background(), in, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := e.Solve(context.Background(), in, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r1.Length != r2.Length || fmt.Sprint(r1.Tour) != fmt.Sprint(r2.Tour) {
		t.Fatalf("same seed, different results: %d vs %d", r1.Length, r2.Length)
	}
	p.Seed = 43
	r3, err := e.Solve(context.Background(), in, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(r1.Tour) == fmt.Sprint(r3.Tour) {
		t.Fatalf("seeds 42 and 43 gave the same tour: the seed does not reach the kernels")
	}
}

func TestILSDescentDeterministicAndLocallyOptimal(t *testing.T) {
	needDevice(t)
	in := randomInstance(3000, solver.Euc2D, 100000, 13)
	nb := neighbor.Nearest(in, 10)
	start := construct.Greedy(in, nb)
	r1, err := TwoOptDescent(in, start)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := TwoOptDescent(in, start)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r1.Tour, r2.Tour) {
		t.Fatalf("descent not deterministic: %d vs %d", solver.TourLength(in, r1.Tour), solver.TourLength(in, r2.Tour))
	}
	polish2Opt(in, r1.Tour, nb) // as 2opt-ils's descent ends
	// No exact improving 2-opt move may remain.
	for i := 0; i < in.N; i++ {
		for j := i + 2; j < in.N; j++ {
			if validMove(i, j, in.N) && exactDelta(in, r1.Tour, i, j) < 0 {
				t.Fatalf("improving move (%d,%d) left: %d", i, j, exactDelta(in, r1.Tour, i, j))
			}
		}
	}
}

func TestPSPMUsesSharedMemoryWhenItFits(t *testing.T) {
	r := needRun(t)
	err := r.do(func() error {
		for _, n := range []int{100, 493, 5000, 20000, 70000} {
			pl, err := r.planPSPM(n, 32, metricEuc2D, 0, pspmDefaultNbrBytes(n, pspmDefaultNNK(AlgoPSPM, n)))
			if err != nil {
				return err
			}
			t.Logf("n=%d: %s shared=%d B searches/block=%d searches/SM=%d", n, pl.layout.name, pl.shared, pl.perBlock, pl.perSM)
			if n <= 493 && pl.layout.shared&pspmSharedLists == 0 {
				return fmt.Errorf("n=%d: lists not in shared memory", n)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestStartStopLeavesMemory(t *testing.T) {
	r := needRun(t)
	in := randomInstance(60, solver.Euc2D, 1000, 14)
	cycles := 1000
	if testing.Short() {
		cycles = 100
	}
	engines := []string{AlgoPSPM, AlgoTwoOptILS}
	run := func(k int) {
		e, _ := solver.Lookup(engines[k%2], solver.BackendGPU)
		ctx, cancel := context.WithCancel(context.Background())
		p := takes(engines[k%2], withOpts(solver.Params{TimeLimit: time.Millisecond, Seed: uint64(k)}, "t0=10", "tend=5", "alpha=0.5", "sweeps=1", "k=1", "blocks=8"))
		if k%3 == 0 {
			cancel()
		}
		if _, err := e.Solve(ctx, in, p, nil); err != nil && !errors.Is(err, context.Canceled) {
			t.Fatalf("cycle %d: %v", k, err)
		}
		cancel()
	}
	run(0)
	run(1)
	free0, err := runFreeMemory(r)
	if err != nil {
		t.Fatal(err)
	}
	for k := 0; k < cycles; k++ {
		run(k)
	}
	free1, err := runFreeMemory(r)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d start/stop cycles: free device memory %d -> %d bytes", cycles, free0, free1)
	if free1 != free0 {
		t.Fatalf("device memory changed over %d cycles: %d -> %d free bytes", cycles, free0, free1)
	}
}

// BenchmarkEvalRate measures the 2-opt evaluation kernel alone (moves
// evaluated per second, the figure docs/BENCHMARKS.md records) at sizes from
// 1,000 to 100,000 cities.
func BenchmarkEvalRate(b *testing.B) {
	needDevice(b)
	for _, n := range []int{1000, 2000, 5000, 10000, 33810, 50000, 100000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			passes := max(3, int(2e11/float64(movesPerPass(n))/40))
			var rate float64
			for b.Loop() {
				r, err := EvalRate(n, passes, 1)
				if err != nil {
					b.Fatal(err)
				}
				rate = r.MovesPerSec
			}
			b.ReportMetric(rate, "moves/s")
		})
	}
}

// lamInstances are Lam et al.'s 20 TSPLIB instances (their Table 2, the
// same list as bench.LamInstances).
var lamInstances = []string{"rd100", "eil101", "bier127", "ch150", "kroA150", "pr152", "u159", "rat195", "ts225", "tsp225",
	"gil262", "pr264", "a280", "pr299", "lin318", "rd400", "fl417", "pr439", "pcb442", "d493"}

// BenchmarkPSPMLam runs PSPM under Lam et al.'s schedule on their 20
// instances (TSPLIB_DIR; TSPLAB_LAM_ONLY=name for one) and reports the
// mean SSES (moves/s) and the mean error against the optimum.
func BenchmarkPSPMLam(b *testing.B) {
	needDevice(b)
	dir := os.Getenv("TSPLIB_DIR")
	if dir == "" {
		b.Skip("set TSPLIB_DIR to the TSPLIB folder")
	}
	e, _ := solver.Lookup(AlgoPSPM, solver.BackendGPU)
	names := lamInstances
	if only := os.Getenv("TSPLAB_LAM_ONLY"); only != "" {
		names = []string{only}
	}
	for b.Loop() {
		var sumGap, sumRate float64
		for _, name := range names {
			in, err := tsplib.Load(dir+"/"+name+".tsp", dir)
			if err != nil {
				b.Fatal(err)
			}
			r, err := e.Solve(context.Background(), in, solver.Params{Seed: 1}, nil)
			if err != nil {
				b.Fatal(err)
			}
			gap, _ := solver.GapPercent(r.Length, in.Optimum)
			sumGap += gap
			sumRate += r.MovesPerSecond()
		}
		b.ReportMetric(sumGap/float64(len(names)), "gap%")
		b.ReportMetric(sumRate/float64(len(names)), "moves/s")
	}
}

func TestPSPMBlockModeAndDeterminism(t *testing.T) {
	needDevice(t)
	in := randomInstance(120, solver.Euc2D, 1000, 15)
	e, _ := solver.Lookup(AlgoPSPM, solver.BackendGPU)
	for _, threads := range []int{1, 7, 32, 64, 96} {
		p := quickParams(7)
		p.TimeLimit = 0
		p = withOpts(p, fmt.Sprint("threads=", threads))
		r1, err := e.Solve(context.Background(), in, p, nil)
		if err != nil {
			t.Fatalf("threads %d: %v", threads, err)
		}
		r2, err := e.Solve(context.Background(), in, p, nil)
		if err != nil {
			t.Fatalf("threads %d, again: %v", threads, err)
		}
		checkResult(t, fmt.Sprintf("threads %d", threads), in, r1)
		if fmt.Sprint(r1.Tour) != fmt.Sprint(r2.Tour) {
			t.Fatalf("threads %d: the same seed gave %d, then %d", threads, r1.Length, r2.Length)
		}
		if got := r1.Params.Extra["threads"]; got != fmt.Sprint(threads) {
			t.Fatalf("threads %d: the result says %s ran", threads, got)
		}
		t.Logf("threads %d: %d", threads, r1.Length)
	}
}
