//go:build cuda

package pspm

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"gorgonia.org/cu"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/internal/gputest"
	"github.com/tsplab/tsplab/solver"
)

// TestMultiPSPMTwoContexts: PSPM on two contexts of device 0 runs the
// same schedule with twice the searches (exactly twice the moves), gives a
// valid tour of exact length, names both contexts, reports the settings
// that rerun it, and is deterministic for a seed.
func TestMultiPSPMTwoContexts(t *testing.T) {
	gputest.NeedDevice(t)
	in := gputest.RandomInstance(300, solver.Euc2D, 1000, 21)
	e := gputest.MultiEngine(t, AlgoPSPM)
	one, err := e.Solve(context.Background(), in, gputest.PspmBudget(5), nil)
	if err != nil {
		t.Fatal(err)
	}
	two, err := e.Solve(context.Background(), in, gputest.PspmBudget(5, gputest.TwoContexts), nil)
	if err != nil {
		t.Fatal(err)
	}
	gputest.CheckExact(t, "one context", in, one)
	gputest.CheckExact(t, "two contexts", in, two)
	if two.Moves != 2*one.Moves || two.Steps != one.Steps {
		t.Fatalf("two contexts: %d moves in %d steps; one: %d in %d (want twice the moves, the same steps)", two.Moves, two.Steps, one.Moves, one.Steps)
	}
	if !strings.HasSuffix(two.Device, "× 2, gpus 0,0") || two.Account.GPU == nil || two.Account.GPU.Contexts != 2 {
		t.Fatalf("two contexts: device %q, GPU account %+v", two.Device, two.Account.GPU)
	}
	if two.Settings.GPUs != "0,0" {
		t.Fatalf("reported params %v lack %s", two.Params.Extra, gputest.TwoContexts)
	}
	again, err := e.Solve(context.Background(), in, gputest.PspmBudget(5, gputest.TwoContexts), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(again.Tour, two.Tour) {
		t.Fatalf("same seed on two contexts: %d, then %d", two.Length, again.Length)
	}
	t.Logf("one context %d (%.3g moves/s), two %d (%.3g moves/s), on %s", one.Length, one.MovesPerSecond(), two.Length, two.MovesPerSecond(), two.Device)
}

// TestMultiPSPMExchange: at every synchronisation the host keeps the best
// of the contexts' bests and both contexts then hold it on the device (the
// tour and its cost, which their searches, with islands the first island's,
// start the next segment from); some exchange gives one of them a better
// tour than its own.
func TestMultiPSPMExchange(t *testing.T) {
	gputest.NeedDevice(t)
	in := gputest.RandomInstance(400, solver.Euc2D, 1000, 22)
	exchanges, gave := 0, 0
	var hookErr error
	exchange := func(g *pspmGroup, before []int64) {
		exchanges++
		want := device.TourToNext(g.bestTour)
		if slices.Min(before) != g.bestLen && hookErr == nil {
			hookErr = fmt.Errorf("exchange %d: global best %d, the contexts' %v", exchanges, g.bestLen, before)
		}
		if slices.Max(before) > g.bestLen {
			gave++
		}
		for i, s := range g.shares {
			got, cost := make([]int32, s.n), []int64{0}
			err := s.r.Do(func() error {
				if err := device.DtoH(got, s.gbest); err != nil {
					return err
				}
				return device.DtoH(cost, s.gbestCost)
			})
			if err == nil && (!slices.Equal(got, want) || cost[0] != g.bestLen) {
				err = fmt.Errorf("exchange %d: context %d holds a tour of cost %d, the global best is %d", exchanges, i, cost[0], g.bestLen)
			}
			if err != nil && hookErr == nil {
				hookErr = err
			}
		}
	}
	res, err := hooked(pspmHooks{exchange: exchange}).Solve(context.Background(), in, gputest.PspmBudget(9, gputest.TwoContexts), nil)
	if err != nil {
		t.Fatal(err)
	}
	gputest.CheckExact(t, "pspm", in, res)
	if hookErr != nil {
		t.Fatal(hookErr)
	}
	if exchanges == 0 || gave == 0 {
		t.Fatalf("%d exchanges, %d of them giving a context a better tour", exchanges, gave)
	}
	t.Logf("%d exchanges, %d gave a context a better tour", exchanges, gave)
}

// TestMultiPSPMContextFails: a context that fails mid-run ends its share
// and the run goes on with the other, saying so; when both fail, the run
// fails.
func TestMultiPSPMContextFails(t *testing.T) {
	gputest.NeedDevice(t)
	in := gputest.RandomInstance(200, solver.Euc2D, 1000, 23)
	broken := errors.New("injected fault")
	res, err := hooked(pspmHooks{shareFault: func(i int, iter int64, _ *device.Run) error {
		if i == 1 && iter > 0 {
			return broken
		}
		return nil
	}}).Solve(context.Background(), in, gputest.PspmBudget(3, gputest.TwoContexts), nil)
	if err != nil {
		t.Fatal(err)
	}
	gputest.CheckExact(t, "one context failed", in, res)
	if w := strings.Join(res.Account.Warnings, "; "); !strings.Contains(w, "injected fault") || !strings.Contains(w, "went on") {
		t.Fatalf("warnings %q do not say a context failed", w)
	}
	both := hooked(pspmHooks{shareFault: func(int, int64, *device.Run) error { return broken }})
	if _, err := both.Solve(context.Background(), in, gputest.PspmBudget(3, gputest.TwoContexts), nil); !errors.Is(err, broken) {
		t.Fatalf("both contexts failed: %v", err)
	}
	// the contexts are still usable
	if _, err := gputest.MultiEngine(t, AlgoPSPM).Solve(context.Background(), in, gputest.PspmBudget(3, gputest.TwoContexts), nil); err != nil {
		t.Fatal(err)
	}
}

// TestMultiPSPMDeviceFault: a real sticky fault (an illegal address) on
// the second context mid-run ends its share with a one-line error wrapping
// the driver's. Where the driver keeps the fault to that context the run
// goes on with the first; on one physical GPU (two contexts of device 0)
// the fault reaches both contexts (an H100 does so), and the run ends
// with that error; runs after it work on a replaced context or say the GPU
// is lost. In a child process, as the fault may leave the device unusable
// to it.
func TestMultiPSPMDeviceFault(t *testing.T) {
	gputest.NeedDevice(t)
	if os.Getenv("TSPLAB_MULTI_FAULT_CHILD") != "" {
		multiFaultChild(t)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^TestMultiPSPMDeviceFault$", "-test.v")
	cmd.Env = append(os.Environ(), "TSPLAB_MULTI_FAULT_CHILD=1")
	out, err := cmd.CombinedOutput()
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		t.Log("child: " + l)
	}
	if err != nil {
		t.Fatalf("the child test failed: %v", err)
	}
}

func multiFaultChild(t *testing.T) {
	in := gputest.RandomInstance(200, solver.Euc2D, 1000, 29)
	faulted := false
	fault := func(i int, iter int64, r *device.Run) error {
		if i != 1 || iter == 0 || faulted {
			return nil
		}
		faulted = true
		if err := r.Launch("test_fault", 1, 1, 1, 0, r.Stream, cu.DevicePtr(16)); err != nil {
			return err
		}
		return r.Sync("test_fault")
	}
	res, err := hooked(pspmHooks{shareFault: fault}).Solve(context.Background(), in, gputest.PspmBudget(3, gputest.TwoContexts), nil)
	switch {
	case err == nil:
		gputest.CheckExact(t, "a context faulted", in, res)
		w := strings.Join(res.Account.Warnings, "; ")
		if !faulted || !strings.Contains(w, "IllegalAddress") {
			t.Fatalf("faulted %v, warnings %q", faulted, w)
		}
		t.Logf("the fault stayed in its context: %s", w)
	case errors.Is(err, cu.IllegalAddress):
		gputest.OneLine(t, "the fault reached both contexts of the GPU", err)
	default:
		t.Fatalf("faulted %v: %v", faulted, err)
	}
	e := gputest.MultiEngine(t, AlgoPSPM)
	for _, p := range []solver.Params{gputest.PspmBudget(3), gputest.PspmBudget(3, gputest.TwoContexts)} {
		res, err = e.Solve(context.Background(), in, p, nil)
		switch {
		case err == nil:
			gputest.CheckExact(t, "a run after the fault", in, res)
		case errors.Is(err, device.ErrContextLost):
			gputest.OneLine(t, "a run after the fault", err)
		default:
			t.Fatalf("a run after the fault (%s): %v", p.Extra[device.OptGPUs], err)
		}
	}
}

// TestMultiPSPMStops: on two contexts a long schedule stops at the time
// limit and at cancellation with a valid tour, as on one.
func TestMultiPSPMStops(t *testing.T) {
	gputest.NeedDevice(t)
	in := gputest.RandomInstance(300, solver.Euc2D, 1000, 24)
	e := gputest.MultiEngine(t, AlgoPSPM)
	long := gputest.WithOpts(solver.Params{Seed: 1}, "t0=100", "tend=0.1", "alpha=0.9999", "sweeps=4", gputest.TwoContexts)
	p := long
	p.TimeLimit = 300 * time.Millisecond
	res, err := solver.RunAided(context.Background(), e, in, p, nil, solver.Aid{}, false)
	if err != nil {
		t.Fatal(err)
	}
	gputest.CheckExact(t, "time limit", in, res)
	if !res.Stopped {
		t.Fatalf("a schedule of hours ended within the time limit: %+v", res.Schedule)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	res, err = solver.RunAided(ctx, e, in, long, nil, solver.Aid{}, false)
	if err != nil {
		t.Fatal(err)
	}
	gputest.CheckExact(t, "cancelled", in, res)
	if !res.Stopped {
		t.Fatal("a cancelled run says it was not stopped")
	}
}

// TestMultiSSPMAndPSSM: the one-search and one-move shapes split too.
func TestMultiSSPMAndPSSM(t *testing.T) {
	gputest.NeedDevice(t)
	in := gputest.RandomInstance(150, solver.Euc2D, 1000, 25)
	for _, name := range []string{AlgoSSPM, AlgoPSSM} {
		p := gputest.Takes(name, gputest.PspmBudget(2, gputest.TwoContexts))
		res, err := gputest.MultiEngine(t, name).Solve(context.Background(), in, p, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		gputest.CheckExact(t, name, in, res)
		if g := res.Account.GPU; g == nil || g.Contexts != 2 {
			t.Fatalf("%s: GPU account %+v", name, g)
		}
	}
}

// BenchmarkMultiPSPM times PSPM's moves per second on one context and on
// two contexts of device 0 (they share the GPU: a check of the path, not
// of a speed-up), on Lam's schedule for 1 s.
func BenchmarkMultiPSPM(b *testing.B) {
	gputest.NeedDevice(b)
	in := gputest.RandomInstance(1000, solver.Euc2D, 10000, 28)
	e, _ := solver.Lookup(AlgoPSPM, solver.BackendGPU)
	for _, gpus := range []string{"0,", "0,0"} {
		b.Run("gpus="+gpus, func(b *testing.B) {
			for range b.N {
				p := gputest.WithOpts(solver.Params{Seed: 1, TimeLimit: time.Second}, "alpha=0.99", device.OptGPUs+"="+gpus)
				res, err := solver.RunAided(context.Background(), e, in, p, nil, solver.Aid{}, false)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(res.MovesPerSecond(), "moves/s")
				b.ReportMetric(float64(res.Length), "length")
			}
		})
	}
}

// hooked is the GPU pspm engine with a test's hooks: the registered
// engine's checks and body, not registered.
func hooked(h pspmHooks) solver.Engine {
	return device.NewEngine(AlgoPSPM, "pspm with a test's hooks", false, device.Impl{
		Multi: func(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, s chan solver.Snapshot, sel []device.DevSlot) (solver.Result, error) {
			return solvePSPM(ctx, e, in, p, s, pspmShape{}, sel, h)
		},
	})
}
