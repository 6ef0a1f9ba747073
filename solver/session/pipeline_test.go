package session

import (
	"context"
	"errors"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tsplab/tsplab/internal/fakeengine"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/bound"
	"github.com/tsplab/tsplab/solver/strategy"
)

// hostEngine is the fake engine on an accelerator the ascent runs on
// too: its device opener counts the bounds asked of it and refuses, so
// that the bound falls back to the cores.
type hostEngine struct {
	fakeengine.Engine
	opens *atomic.Int32
}

var errRefused = errors.New("the test's accelerator refuses")

func (h hostEngine) AscentDevice() solver.OpenAscentDevice {
	return func() (solver.AscentDevice, error) {
		h.opens.Add(1)
		return nil, errRefused
	}
}

var hostOpens atomic.Int32

func init() {
	h := hostEngine{Engine: fakeengine.Engine{Algo: "fake-host", On: solver.BackendGPU}, opens: &hostOpens}
	solver.Register(h)
	solver.Declare(h.Name(), h.Backend(), solver.SharedOptions())
}

// scatter returns n random cities without a known optimum.
func scatter(n int, seed uint64) *solver.Instance {
	rng := rand.New(rand.NewPCG(seed, seed))
	x, y := make([]float64, n), make([]float64, n)
	for i := range x {
		x[i], y[i] = float64(rng.IntN(10000)), float64(rng.IntN(10000))
	}
	return solver.NewCoordInstance("scatter", solver.Euc2D, x, y, nil)
}

// TestPipelineRefusesOnce: a setting out of range is one
// *solver.ParamError from the pipeline, before any engine runs, whether
// the caller has the instance (Plan) or not yet (Choose).
func TestPipelineRefusesOnce(t *testing.T) {
	var pl Pipeline
	bad := solver.Params{Algorithm: "fake", Backend: solver.BackendCPU, Extra: map[string]string{"k": "-3"}}
	before := fakeengine.Calls()
	var pe *solver.ParamError
	if _, err := pl.Choose(bad); !errors.As(err, &pe) {
		t.Errorf("Choose: %v, want a *solver.ParamError", err)
	}
	if _, _, err := pl.Plan(ring(50), bad); !errors.As(err, &pe) {
		t.Errorf("Plan: %v, want a *solver.ParamError", err)
	}
	if n := fakeengine.Calls() - before; n != 0 {
		t.Errorf("%d engine runs after a refused setting", n)
	}
	if _, _, err := pl.Plan(nil, solver.Params{Algorithm: "fake"}); err == nil {
		t.Error("a plan without an instance")
	}
}

// TestPipelineResultExact: the outcome's tour is a tour of the instance,
// its length recomputed, and the report says the same; the run stops at
// a known optimum unless the caller asks to run on.
func TestPipelineResultExact(t *testing.T) {
	var pl Pipeline
	in := ring(60)
	plan, _, err := pl.Plan(in, solver.Params{Algorithm: "fake", Backend: solver.BackendCPU, Seed: 4, TimeLimit: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	out, err := plan.Run(context.Background(), Request{})
	if err != nil {
		t.Fatal(err)
	}
	res := out.Result
	if err := solver.ValidateTour(res.Tour, in.N); err != nil {
		t.Fatal(err)
	}
	if l := solver.TourLength(in, res.Tour); l != res.Length || out.Report.LengthScaled != l {
		t.Errorf("length %d, report %d, recomputed %d", res.Length, out.Report.LengthScaled, l)
	}
	if res.Algorithm != "fake" || res.Params.Seed != 4 || out.Report.Seed != 4 {
		t.Errorf("result names %s, seed %d (report %d)", res.Algorithm, res.Params.Seed, out.Report.Seed)
	}
	if got := fakeengine.LastParams().Target; got != in.Optimum {
		t.Errorf("the engine's target %d, want the optimum %d", got, in.Optimum)
	}
	if _, err := plan.Run(context.Background(), Request{NoOptimumStop: true}); err != nil {
		t.Fatal(err)
	}
	if got := fakeengine.LastParams().Target; got != 0 {
		t.Errorf("running on past the optimum: the engine's target %d", got)
	}
}

// TestPipelineThrottlesAtTheReadersRate: the engine sends a snapshot
// every 5 ms; the reader gets one per interval it asked for at most, in
// order, the last one before Run returns.
func TestPipelineThrottlesAtTheReadersRate(t *testing.T) {
	var pl Pipeline
	plan, _, err := pl.Plan(ring(80), solver.Params{Algorithm: "fake", Backend: solver.BackendCPU, Seed: 1, TimeLimit: 600 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	const interval = 100 * time.Millisecond
	var got []solver.Snapshot
	start := time.Now()
	if _, err := plan.Run(context.Background(), Request{Interval: interval, OnSnapshot: func(s solver.Snapshot) { got = append(got, s) }}); err != nil {
		t.Fatal(err)
	}
	most := int(time.Since(start)/interval) + 2 // one per interval begun, and the last
	if len(got) < 2 || len(got) > most {
		t.Errorf("%d snapshots in %v at %v, want 2 to %d", len(got), time.Since(start).Round(time.Millisecond), interval, most)
	}
	for i := 1; i < len(got); i++ {
		if got[i].Elapsed < got[i-1].Elapsed {
			t.Fatalf("snapshot %d out of order", i)
		}
	}
}

// TestBoundPolicyOfEveryFrontEnd: a run on an instance without a known
// optimum gets its lower bound by one policy whoever asks, a CLI-like
// caller of Plan.Run or the app's Runner: on the engine's accelerator
// (here one that refuses, so the cores take over), within BoundShare of
// the time limit.
func TestBoundPolicyOfEveryFrontEnd(t *testing.T) {
	in := scatter(120, 9)
	p := solver.Params{Algorithm: "fake-host", Backend: solver.BackendGPU, Seed: 1, TimeLimit: 2 * time.Second}

	var pl Pipeline
	plan, _, err := pl.Plan(in, p)
	if err != nil {
		t.Fatal(err)
	}
	opened := hostOpens.Load()
	out, err := plan.Run(context.Background(), Request{Bound: true})
	if err != nil {
		t.Fatal(err)
	}
	if out.Bound == nil || out.Report.LowerBound == nil || *out.Report.LowerBoundScaled != out.Bound.Bound {
		t.Fatalf("CLI-like caller: no bound in the outcome (%v)", out.BoundErr)
	}
	if out.Bound.Bound > out.Result.Length || out.Bound.Device {
		t.Errorf("CLI-like caller: bound %d above the tour %d, or on the refusing device", out.Bound.Bound, out.Result.Length)
	}
	if hostOpens.Load() == opened {
		t.Error("CLI-like caller: the bound was not asked of the engine's accelerator")
	}

	// the runner proves its own, not the cached one of the run above
	t.Setenv(CacheDirEnv, t.TempDir())
	opened = hostOpens.Load()
	r := NewRunner()
	var mu sync.Mutex
	var lbs []int64
	stopped := false
	r.OnBound = func(got *solver.Instance, lb bound.Result) {
		mu.Lock()
		defer mu.Unlock()
		if got == in {
			lbs = append(lbs, lb.Bound)
			stopped = stopped || lb.Stopped
		}
	}
	if err := r.Start(in, p); err != nil {
		t.Fatal(err)
	}
	r.Wait()
	mu.Lock()
	defer mu.Unlock()
	// Two whole ascents give the same bound; one the run's end stopped
	// (a slow machine, -race) gives the best bound proven by then.
	switch {
	case len(lbs) != 1:
		t.Errorf("app-like caller: bounds %v, want one", lbs)
	case !stopped && !out.Bound.Stopped && lbs[0] != out.Bound.Bound:
		t.Errorf("app-like caller: bound %d, want the CLI-like caller's %d", lbs[0], out.Bound.Bound)
	case lbs[0] <= 0 || lbs[0] > out.Result.Length:
		t.Errorf("app-like caller: bound %d, tour %d", lbs[0], out.Result.Length)
	}
	if hostOpens.Load() == opened {
		t.Error("app-like caller: the bound was not asked of the engine's accelerator")
	}

	cpu, dev := boundOptions(nil, 10*time.Second), boundOptions(hostEngine{opens: &hostOpens}.AscentDevice(), 10*time.Second)
	if cpu.Time != 9*time.Second || dev.Time != cpu.Time || cpu.Device != nil || dev.Device == nil {
		t.Errorf("bound options: %v on the cores, %v on the device", cpu.Time, dev.Time)
	}
}

// TestSegmentsShareOnePlan: a paused and resumed run is validated once,
// at Start; its segments run the plan with their own params.
func TestSegmentsShareOnePlan(t *testing.T) {
	r := NewRunner()
	in := ring(40)
	if err := r.Start(in, solver.Params{Algorithm: "fake", Backend: solver.BackendCPU, Seed: 2, TimeLimit: 5 * time.Second}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "a tour", func() bool { _, l := r.Best(); return l > 0 })
	r.Pause()
	r.Wait()
	plan := r.plan
	if err := r.Resume(); err != nil {
		t.Fatal(err)
	}
	r.Stop()
	r.Wait()
	if r.plan != plan {
		t.Error("the resumed segment made a new plan")
	}
	if p := fakeengine.LastParams(); p.Start == nil {
		t.Error("the resumed segment did not start from the paused tour")
	}
}

// TestBoundAfterTheRun: a bound asked for after the run (tsp solve
// --bound D) follows the same rule, the engine's accelerator first, and
// lands in the outcome and its report; none for a known optimum.
func TestBoundAfterTheRun(t *testing.T) {
	var pl Pipeline
	in := scatter(100, 4)
	plan, _, err := pl.Plan(in, solver.Params{Algorithm: "fake-host", Backend: solver.BackendGPU, Seed: 1, TimeLimit: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	out, err := plan.Run(context.Background(), Request{})
	if err != nil {
		t.Fatal(err)
	}
	if out.Bound != nil {
		t.Fatal("a bound nobody asked for")
	}
	opened := hostOpens.Load()
	plan.BoundAfter(context.Background(), &out, time.Minute)
	if out.Bound == nil || out.Report.LowerBound == nil || *out.Report.LowerBoundScaled != out.Bound.Bound {
		t.Fatalf("no bound after the run (%v)", out.BoundErr)
	}
	if hostOpens.Load() == opened {
		t.Error("the bound after the run was not asked of the engine's accelerator")
	}
	known, _, err := pl.Plan(ring(30), solver.Params{Algorithm: "fake", Backend: solver.BackendCPU, TimeLimit: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	kout, err := known.Run(context.Background(), Request{Bound: true})
	if err != nil {
		t.Fatal(err)
	}
	known.BoundAfter(context.Background(), &kout, time.Minute)
	if kout.Bound != nil {
		t.Error("a bound for an instance with a known optimum")
	}
}

// TestNoBoundBesideASearchOnTwoCores: from strategy.PartitionMinN cities
// a run without an accelerator on fewer than four cores starts no ascent
// beside its search, and its outcome says why there is no bound.
func TestNoBoundBesideASearchOnTwoCores(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	in := scatter(strategy.PartitionMinN, 3)
	var pl Pipeline
	plan, _, err := pl.Plan(in, solver.Params{Algorithm: "fake", Backend: solver.BackendCPU, Seed: 1, TimeLimit: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	out, err := plan.Run(context.Background(), Request{Bound: true})
	if err != nil {
		t.Fatal(err)
	}
	if out.Bound != nil || !errors.Is(out.BoundErr, ErrNoBoundBeside) || out.Report.LowerBound != nil {
		t.Fatalf("bound %v, error %v: want none, ErrNoBoundBeside", out.Bound, out.BoundErr)
	}
}
