//go:build cuda

package pspm

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	"gorgonia.org/cu"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/internal/gputest"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/tsplib"
)

func TestIntDistMatchesCPU(t *testing.T) {
	r := gputest.NeedRun(t)
	for _, m := range []solver.Metric{solver.Euc2D, solver.Ceil2D, solver.Att} {
		in := gputest.RandomInstance(2000, m, 20000, 3)
		code, _ := device.MetricCode(in)
		const pairs = 100000
		rng := rand.New(rand.NewPCG(9, 9))
		a, b := make([]int32, pairs), make([]int32, pairs)
		for k := range a {
			a[k], b[k] = int32(rng.IntN(in.N)), int32(rng.IntN(in.N))
		}
		got := make([]int32, pairs)
		err := r.Do(func() error {
			var bufs device.Buffers
			defer bufs.FreeAll()
			var xy, pa, pb, po cu.DevicePtr
			var err error
			for _, x := range []struct {
				p     *cu.DevicePtr
				bytes int64
			}{{&xy, int64(8 * in.N)}, {&pa, 4 * pairs}, {&pb, 4 * pairs}, {&po, 4 * pairs}} {
				if *x.p, err = bufs.Alloc(x.bytes); err != nil {
					return err
				}
			}
			if err := device.HtoD(xy, device.ShiftedCoords(in)); err != nil {
				return err
			}
			if err := device.HtoD(pa, a); err != nil {
				return err
			}
			if err := device.HtoD(pb, b); err != nil {
				return err
			}
			if err := r.Launch("dist_check_"+device.MetricSuffix[code], (pairs+255)/256, 1, 256, 0, r.Stream, xy, pa, pb, int64(pairs), po); err != nil {
				return err
			}
			if err := r.Stream.Synchronize(); err != nil {
				return err
			}
			return device.DtoH(got, po)
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

func TestPSPMSameSeedSameResult(t *testing.T) {
	gputest.NeedDevice(t)
	in := gputest.RandomInstance(150, solver.Euc2D, 1000, 12)
	e, _ := solver.Lookup(AlgoPSPM, solver.BackendGPU)
	p := gputest.QuickParams(42)
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

func TestPSPMUsesSharedMemoryWhenItFits(t *testing.T) {
	r := gputest.NeedRun(t)
	err := r.Do(func() error {
		for _, n := range []int{100, 493, 5000, 20000, 70000} {
			pl, err := planPSPM(r, n, 32, device.MetricEuc2D, 0, pspmDefaultNbrBytes(n, pspmDefaultNNK(AlgoPSPM, n)))
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

// lamInstances are Lam et al.'s 20 TSPLIB instances (their Table 2, the
// same list as bench.LamInstances).
var lamInstances = []string{"rd100", "eil101", "bier127", "ch150", "kroA150", "pr152", "u159", "rat195", "ts225", "tsp225",
	"gil262", "pr264", "a280", "pr299", "lin318", "rd400", "fl417", "pr439", "pcb442", "d493"}

// BenchmarkPSPMLam runs PSPM under Lam et al.'s schedule on their 20
// instances (TSPLIB_DIR; TSPLAB_LAM_ONLY=name for one) and reports the
// mean SSES (moves/s) and the mean error against the optimum.
func BenchmarkPSPMLam(b *testing.B) {
	gputest.NeedDevice(b)
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
	gputest.NeedDevice(t)
	in := gputest.RandomInstance(120, solver.Euc2D, 1000, 15)
	e, _ := solver.Lookup(AlgoPSPM, solver.BackendGPU)
	for _, threads := range []int{1, 7, 32, 64, 96} {
		p := gputest.QuickParams(7)
		p.TimeLimit = 0
		p = gputest.WithOpts(p, fmt.Sprint("threads=", threads))
		r1, err := e.Solve(context.Background(), in, p, nil)
		if err != nil {
			t.Fatalf("threads %d: %v", threads, err)
		}
		r2, err := e.Solve(context.Background(), in, p, nil)
		if err != nil {
			t.Fatalf("threads %d, again: %v", threads, err)
		}
		gputest.CheckResult(t, fmt.Sprintf("threads %d", threads), in, r1)
		if fmt.Sprint(r1.Tour) != fmt.Sprint(r2.Tour) {
			t.Fatalf("threads %d: the same seed gave %d, then %d", threads, r1.Length, r2.Length)
		}
		if got := r1.Settings.Threads; got != threads {
			t.Fatalf("threads %d: the result says %d ran", threads, got)
		}
		t.Logf("threads %d: %d", threads, r1.Length)
	}
}
