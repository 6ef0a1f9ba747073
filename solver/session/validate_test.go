package session

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// checkCfg is countingEngine's config: one option, k.
type checkCfg struct{ K int }

var checkSpec = solver.NewSpec(solver.SharedInt("k", func(c *checkCfg) *int { return &c.K }))

// checks counts the validations of countingEngine's params on an
// instance: Validate asks the engine to tune its options once each time.
var checks atomic.Int32

// countingEngine reads its settings with solver.Configure, as the real
// engines do, and counts every validation on an instance (Tune).
type countingEngine struct{}

func (countingEngine) Name() string     { return "counting" }
func (countingEngine) Backend() string  { return solver.BackendCPU }
func (countingEngine) Describe() string { return "test engine: counts its validations" }
func (countingEngine) Available() error { return nil }

func (countingEngine) Tune(in *solver.Instance, opts solver.OptionSet) solver.OptionSet {
	checks.Add(1)
	return opts
}

func (e countingEngine) Solve(ctx context.Context, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot) (solver.Result, error) {
	start := time.Now()
	if _, err := solver.Configure(checkSpec, e, in, p); err != nil {
		return solver.Result{}, err
	}
	return solver.Finish(in, e, p, solver.Outcome{Tour: solver.IdentityTour(in.N), Start: start, Device: "test"})
}

func init() {
	solver.Register(countingEngine{})
	solver.Declare("counting", solver.BackendCPU, checkSpec)
}

// A pipeline run validates its params once (Prepare), not again in the
// engine; a direct Solve, and a pipeline run whose params were changed
// after Prepare, still validate, and a direct Solve refuses a bad value.
func TestPipelineValidatesOnce(t *testing.T) {
	in := scatter(30, 3)
	p := solver.Params{Algorithm: "counting", Backend: solver.BackendCPU, Extra: map[string]string{"k": "4"}}
	var pl Pipeline
	checks.Store(0)
	plan, _, err := pl.Plan(in, p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := plan.Run(context.Background(), Request{}); err != nil {
		t.Fatal(err)
	}
	if n := checks.Load(); n != 1 {
		t.Fatalf("a pipeline run validated its params %d times, want 1", n)
	}
	checks.Store(0)
	changed := plan.Params
	changed.Extra = map[string]string{"k": "5"}
	if _, err := plan.Run(context.Background(), Request{Params: &changed}); err != nil {
		t.Fatal(err)
	}
	if n := checks.Load(); n != 1 {
		t.Fatalf("params changed after Prepare validated %d times in the engine, want 1", n)
	}
	checks.Store(0)
	e := countingEngine{}
	if _, err := e.Solve(context.Background(), in, p, nil); err != nil {
		t.Fatal(err)
	}
	if n := checks.Load(); n != 1 {
		t.Fatalf("a direct Solve validated %d times, want 1", n)
	}
	bad := p
	bad.Extra = map[string]string{"k": "-3"}
	var pe *solver.ParamError
	if _, err := e.Solve(context.Background(), in, bad, nil); !errors.As(err, &pe) {
		t.Fatalf("a direct Solve with k=-3: %v, want a *solver.ParamError", err)
	}
	// the mark is for one engine and one instance only
	checks.Store(0)
	if _, err := e.Solve(context.Background(), scatter(30, 4), plan.Params, nil); err != nil {
		t.Fatal(err)
	}
	if n := checks.Load(); n != 1 {
		t.Fatalf("prepared params on another instance validated %d times, want 1", n)
	}
}
