package session

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// checkCfg is countingEngine's config: one option, k.
type checkCfg struct{ K int }

var checkSpec = solver.NewSpec(solver.SharedInt("k", func(c *checkCfg) *int { return &c.K }))

// countingEngine reads its settings with solver.Configure, as the real
// engines do.
type countingEngine struct{}

func (countingEngine) Name() string     { return "counting" }
func (countingEngine) Backend() string  { return solver.BackendCPU }
func (countingEngine) Describe() string { return "test engine: reads its settings" }
func (countingEngine) Available() error { return nil }

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

// reads counts the readings of settings from their text while f runs.
func reads(f func()) int64 {
	before := solver.OptionReads()
	f()
	return solver.OptionReads() - before
}

// A run through the pipeline reads its settings once: tsp solve's path
// (Choose before the instance is read, Prepare, Run) and the app's start
// (the runner's Choose, then Start and its first segment); a direct Solve,
// and a pipeline run whose params were changed after Prepare, read them
// once too, and a direct Solve refuses a bad value.
func TestPipelineReadsSettingsOnce(t *testing.T) {
	in := scatter(30, 3)
	p := solver.Params{Algorithm: "counting", Backend: solver.BackendCPU, Extra: map[string]string{"k": "4"}}
	var pl Pipeline
	var plan *Plan
	if n := reads(func() {
		choice, err := pl.Choose(p)
		if err != nil {
			t.Fatal(err)
		}
		if plan, err = pl.Prepare(choice.Engine, in, p); err != nil {
			t.Fatal(err)
		}
		if _, err := plan.Run(context.Background(), Request{}); err != nil {
			t.Fatal(err)
		}
	}); n != 1 {
		t.Fatalf("a solve through the pipeline read its settings %d times, want 1", n)
	}
	if n := reads(func() {
		r := NewRunner()
		if _, err := r.Choose(p); err != nil {
			t.Fatal(err)
		}
		if err := r.Start(in, p); err != nil {
			t.Fatal(err)
		}
		r.Wait()
	}); n != 1 {
		t.Fatalf("a runner's start read its settings %d times, want 1", n)
	}
	changed := plan.Params
	changed.Extra = map[string]string{"k": "5"}
	if n := reads(func() {
		if _, err := plan.Run(context.Background(), Request{Params: &changed}); err != nil {
			t.Fatal(err)
		}
	}); n != 1 {
		t.Fatalf("params changed after Prepare were read %d times in the engine, want 1", n)
	}
	e := countingEngine{}
	if n := reads(func() {
		if _, err := e.Solve(context.Background(), in, p, nil); err != nil {
			t.Fatal(err)
		}
	}); n != 1 {
		t.Fatalf("a direct Solve read its settings %d times, want 1", n)
	}
	bad := p
	bad.Extra = map[string]string{"k": "-3"}
	var pe *solver.ParamError
	if _, err := e.Solve(context.Background(), in, bad, nil); !errors.As(err, &pe) {
		t.Fatalf("a direct Solve with k=-3: %v, want a *solver.ParamError", err)
	}
	// the config is for one engine and one instance only: the reading
	// of the settings is kept
	if n := reads(func() {
		if _, err := e.Solve(context.Background(), scatter(30, 4), plan.Params, nil); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Fatalf("prepared params on another instance were read %d times, want 0", n)
	}
}
