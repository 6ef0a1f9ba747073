//go:build cuda

package gpu

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

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/enginetest"
)

// twoContexts are the settings that run an engine on two contexts of
// device 0: the multi-device path on a host with one GPU.
const twoContexts = OptGPUs + "=0,0"

// multiEngine looks up GPU engine name.
func multiEngine(t *testing.T, name string) solver.Engine {
	t.Helper()
	e, err := solver.Lookup(name, solver.BackendGPU)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// checkExact fails unless res's tour is valid and its length exact.
func checkExact(t *testing.T, what string, in *solver.Instance, res solver.Result) {
	t.Helper()
	if err := solver.ValidateTour(res.Tour, in.N); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if exact := solver.TourLength(in, res.Tour); res.Length != exact {
		t.Fatalf("%s: length %d, exact %d", what, res.Length, exact)
	}
}

// pspmBudget is a short whole schedule of PSPM on 64 searches a context.
func pspmBudget(seed uint64, extra ...string) solver.Params {
	p := withOpts(solver.Params{Seed: seed}, "t0=100", "tend=1", "alpha=0.8", "sweeps=2", "k=5", "blocks=64")
	return withOpts(p, extra...)
}

// TestMultiPSPMTwoContexts: PSPM on two contexts of device 0 runs the
// same schedule with twice the searches (exactly twice the moves), gives a
// valid tour of exact length, names both contexts, reports the settings
// that rerun it, and is deterministic for a seed.
func TestMultiPSPMTwoContexts(t *testing.T) {
	needDevice(t)
	in := randomInstance(300, solver.Euc2D, 1000, 21)
	e := multiEngine(t, AlgoPSPM)
	one, err := e.Solve(context.Background(), in, pspmBudget(5), nil)
	if err != nil {
		t.Fatal(err)
	}
	two, err := e.Solve(context.Background(), in, pspmBudget(5, twoContexts), nil)
	if err != nil {
		t.Fatal(err)
	}
	checkExact(t, "one context", in, one)
	checkExact(t, "two contexts", in, two)
	if two.Moves != 2*one.Moves || two.Steps != one.Steps {
		t.Fatalf("two contexts: %d moves in %d steps; one: %d in %d (want twice the moves, the same steps)", two.Moves, two.Steps, one.Moves, one.Steps)
	}
	if !strings.HasSuffix(two.Device, "× 2, gpus 0,0") || !strings.Contains(two.Note, "2 GPU contexts") {
		t.Fatalf("two contexts: device %q, note %q", two.Device, two.Note)
	}
	if two.Params.Extra[OptGPUs] != "0,0" {
		t.Fatalf("reported params %v lack %s", two.Params.Extra, twoContexts)
	}
	again, err := e.Solve(context.Background(), in, pspmBudget(5, twoContexts), nil)
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
// tour and its cost, which their searches start the next segment from);
// some exchange gives one of them a better tour than its own.
func TestMultiPSPMExchange(t *testing.T) {
	needDevice(t)
	in := randomInstance(400, solver.Euc2D, 1000, 22)
	exchanges, gave := 0, 0
	var hookErr error
	pspmExchangeHook = func(g *pspmGroup, before []int64) {
		exchanges++
		want := tourToNext(g.bestTour)
		if slices.Min(before) != g.bestLen && hookErr == nil {
			hookErr = fmt.Errorf("exchange %d: global best %d, the contexts' %v", exchanges, g.bestLen, before)
		}
		if slices.Max(before) > g.bestLen {
			gave++
		}
		for i, s := range g.shares {
			got, cost := make([]int32, s.n), []int64{0}
			err := s.r.do(func() error {
				if err := dtoh(got, s.gbest); err != nil {
					return err
				}
				return dtoh(cost, s.gbestCost)
			})
			if err == nil && (!slices.Equal(got, want) || cost[0] != g.bestLen) {
				err = fmt.Errorf("exchange %d: context %d holds a tour of cost %d, the global best is %d", exchanges, i, cost[0], g.bestLen)
			}
			if err != nil && hookErr == nil {
				hookErr = err
			}
		}
	}
	t.Cleanup(func() { pspmExchangeHook = nil })
	res, err := multiEngine(t, AlgoPSPM).Solve(context.Background(), in, pspmBudget(9, twoContexts), nil)
	if err != nil {
		t.Fatal(err)
	}
	checkExact(t, "pspm", in, res)
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
	needDevice(t)
	in := randomInstance(200, solver.Euc2D, 1000, 23)
	e := multiEngine(t, AlgoPSPM)
	broken := errors.New("injected fault")
	pspmShareFault = func(i int, iter int64, _ *run) error {
		if i == 1 && iter > 0 {
			return broken
		}
		return nil
	}
	t.Cleanup(func() { pspmShareFault = nil })
	res, err := e.Solve(context.Background(), in, pspmBudget(3, twoContexts), nil)
	if err != nil {
		t.Fatal(err)
	}
	checkExact(t, "one context failed", in, res)
	if !strings.Contains(res.Note, "injected fault") || !strings.Contains(res.Note, "went on") {
		t.Fatalf("note %q does not say a context failed", res.Note)
	}
	pspmShareFault = func(int, int64, *run) error { return broken }
	if _, err := e.Solve(context.Background(), in, pspmBudget(3, twoContexts), nil); !errors.Is(err, broken) {
		t.Fatalf("both contexts failed: %v", err)
	}
	// the contexts are still usable
	pspmShareFault = nil
	if _, err := e.Solve(context.Background(), in, pspmBudget(3, twoContexts), nil); err != nil {
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
	needDevice(t)
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
	in := randomInstance(200, solver.Euc2D, 1000, 29)
	e := multiEngine(t, AlgoPSPM)
	faulted := false
	pspmShareFault = func(i int, iter int64, r *run) error {
		if i != 1 || iter == 0 || faulted {
			return nil
		}
		faulted = true
		if err := r.launch("test_fault", 1, 1, 1, 0, r.stream, cu.DevicePtr(16)); err != nil {
			return err
		}
		return r.sync("test_fault")
	}
	defer func() { pspmShareFault = nil }()
	res, err := e.Solve(context.Background(), in, pspmBudget(3, twoContexts), nil)
	switch {
	case err == nil:
		checkExact(t, "a context faulted", in, res)
		if !faulted || !strings.Contains(res.Note, "IllegalAddress") {
			t.Fatalf("faulted %v, note %q", faulted, res.Note)
		}
		t.Logf("the fault stayed in its context: %s", res.Note)
	case errors.Is(err, cu.IllegalAddress):
		oneLine(t, "the fault reached both contexts of the GPU", err)
	default:
		t.Fatalf("faulted %v: %v", faulted, err)
	}
	pspmShareFault = nil
	for _, p := range []solver.Params{pspmBudget(3), pspmBudget(3, twoContexts)} {
		res, err = e.Solve(context.Background(), in, p, nil)
		switch {
		case err == nil:
			checkExact(t, "a run after the fault", in, res)
		case errors.Is(err, ErrContextLost):
			oneLine(t, "a run after the fault", err)
		default:
			t.Fatalf("a run after the fault (%s): %v", p.Extra[OptGPUs], err)
		}
	}
}

// TestMultiPSPMStops: on two contexts a long schedule stops at the time
// limit and at cancellation with a valid tour, as on one.
func TestMultiPSPMStops(t *testing.T) {
	needDevice(t)
	in := randomInstance(300, solver.Euc2D, 1000, 24)
	e := multiEngine(t, AlgoPSPM)
	long := withOpts(solver.Params{Seed: 1}, "t0=100", "tend=0.1", "alpha=0.9999", "sweeps=4", twoContexts)
	p := long
	p.TimeLimit = 300 * time.Millisecond
	res, err := e.Solve(context.Background(), in, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkExact(t, "time limit", in, res)
	if !res.Stopped {
		t.Fatalf("a schedule of hours ended within the time limit: %+v", res.Schedule)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	res, err = e.Solve(ctx, in, long, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkExact(t, "cancelled", in, res)
	if !res.Stopped {
		t.Fatal("a cancelled run says it was not stopped")
	}
}

// TestMultiSSPMAndPSSM: the one-search and one-move shapes split too.
func TestMultiSSPMAndPSSM(t *testing.T) {
	needDevice(t)
	in := randomInstance(150, solver.Euc2D, 1000, 25)
	for _, name := range []string{AlgoSSPM, AlgoPSSM} {
		p := takes(name, pspmBudget(2, twoContexts))
		res, err := multiEngine(t, name).Solve(context.Background(), in, p, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		checkExact(t, name, in, res)
		if !strings.Contains(res.Note, "2 GPU contexts") {
			t.Fatalf("%s: note %q", name, res.Note)
		}
	}
}

// TestMultiClimbTwoContexts: 2opt-climb on two contexts runs exactly the
// climbs asked for in all, with a valid, exact tour; a context that fails
// ends its share and the run goes on.
func TestMultiClimbTwoContexts(t *testing.T) {
	needDevice(t)
	in := randomInstance(200, solver.Euc2D, 1000, 26)
	e := multiEngine(t, AlgoTwoOptClimb)
	p := withOpts(solver.Params{Seed: 4}, OptRestarts+"=2001", twoContexts)
	res, err := e.Solve(context.Background(), in, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkExact(t, "2opt-climb", in, res)
	if res.Steps != 2001 || !strings.Contains(res.Note, "2 GPU contexts") || res.Params.Extra[OptGPUs] != "0,0" {
		t.Fatalf("%d climbs (want 2001), note %q, params %v", res.Steps, res.Note, res.Params.Extra)
	}
	calls := 0
	climbShareFault = func(i int) error {
		if i == 1 {
			if calls++; calls > 1 {
				return errors.New("injected fault")
			}
		}
		return nil
	}
	t.Cleanup(func() { climbShareFault = nil })
	p = withOpts(solver.Params{Seed: 4, TimeLimit: 500 * time.Millisecond}, twoContexts)
	res, err = e.Solve(context.Background(), in, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkExact(t, "2opt-climb, a context failed", in, res)
	if !strings.Contains(res.Note, "injected fault") {
		t.Fatalf("note %q does not say a context failed", res.Note)
	}
}

// TestMultiSelection: a selection the host does not have is refused in one
// line before the run; an engine that does not split runs on GPU 0 and
// says so.
func TestMultiSelection(t *testing.T) {
	needDevice(t)
	gpus, err := GPUs()
	if err != nil {
		t.Fatal(err)
	}
	in := randomInstance(100, solver.Euc2D, 1000, 27)
	pspm := multiEngine(t, AlgoPSPM)
	for _, bad := range []string{fmt.Sprintf("%d,", len(gpus)), fmt.Sprint(len(gpus) + 1), "0,x", "none"} {
		_, err := pspm.Solve(context.Background(), in, pspmBudget(1, OptGPUs+"="+bad), nil)
		var pe *solver.ParamError
		if !errors.As(err, &pe) || strings.Contains(err.Error(), "\n") {
			t.Fatalf("gpus=%s: %v", bad, err)
		}
	}
	res, err := multiEngine(t, AlgoTwoOptILS).Solve(context.Background(), in, withOpts(solver.Params{Seed: 1, TimeLimit: 200 * time.Millisecond}, twoContexts), nil)
	if err != nil {
		t.Fatal(err)
	}
	checkExact(t, "2opt-ils", in, res)
	if !strings.Contains(res.Note, "GPU 0 alone") {
		t.Fatalf("2opt-ils on two contexts: note %q", res.Note)
	}
}

// TestEngineContractTwoContexts runs the engine contract on every GPU
// engine that takes OptGPUs with two contexts on device 0.
func TestEngineContractTwoContexts(t *testing.T) {
	takesGPUs := func(e solver.Engine) bool {
		_, ok := solver.OptionsFor(e.Name(), e.Backend()).Lookup(OptGPUs)
		return ok
	}
	cfg := enginetest.Config{
		Budget: func(e solver.Engine) solver.Params {
			p := gpuBudget(e)
			if len(p.Extra) == 0 {
				// no budget of its own: the contract's run of 300 ms
				p.TimeLimit = 300 * time.Millisecond
			}
			return withOpts(p, twoContexts)
		},
		Open:    func(e solver.Engine) solver.Params { return withOpts(gpuOpen(e), twoContexts) },
		Ready:   deviceReady,
		Descent: func(e solver.Engine) bool { return e.Name() == AlgoTourLS },
	}
	n := 0
	for _, e := range solver.Engines() {
		if e.Backend() != solver.BackendGPU || !takesGPUs(e) {
			continue
		}
		n++
		t.Run(e.Name(), func(t *testing.T) { enginetest.Run(t, e, cfg) })
	}
	if n < 4 {
		t.Fatalf("%d GPU engines take %s", n, OptGPUs)
	}
}

// BenchmarkMultiPSPM times PSPM's moves per second on one context and on
// two contexts of device 0 (they share the GPU: a check of the path, not
// of a speed-up), on Lam's schedule for 1 s.
func BenchmarkMultiPSPM(b *testing.B) {
	needDevice(b)
	in := randomInstance(1000, solver.Euc2D, 10000, 28)
	e, _ := solver.Lookup(AlgoPSPM, solver.BackendGPU)
	for _, gpus := range []string{"0,", "0,0"} {
		b.Run("gpus="+gpus, func(b *testing.B) {
			for range b.N {
				p := withOpts(solver.Params{Seed: 1, TimeLimit: time.Second}, "alpha=0.99", OptGPUs+"="+gpus)
				res, err := e.Solve(context.Background(), in, p, nil)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(res.MovesPerSecond(), "moves/s")
				b.ReportMetric(float64(res.Length), "length")
			}
		})
	}
}
