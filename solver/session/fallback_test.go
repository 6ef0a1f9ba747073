package session

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/tsplab/tsplab/internal/fakeengine"
	"github.com/tsplab/tsplab/solver"
)

func init() {
	// an engine whose set-up outlasts every stop below: stopped there, it
	// returns a shuffled order it never searched
	fakeengine.Register(fakeengine.Engine{Algo: "slowsetup", SetupDelay: time.Hour})
}

// TestStopKeepsStartConstruction stops runs at several moments, in the
// engine's set-up and in its search, and checks that each result is a
// valid tour no longer than the start construction.
func TestStopKeepsStartConstruction(t *testing.T) {
	in := scatter(400, 3)
	fb := solver.TourLength(in, Fallback(in, solver.Params{}))
	for _, algo := range []string{"slowsetup", "fake"} {
		for _, after := range []time.Duration{time.Millisecond, 20 * time.Millisecond, 100 * time.Millisecond} {
			var pl Pipeline
			plan, _, err := pl.Plan(in, solver.Params{Algorithm: algo, Backend: solver.BackendCPU, TimeLimit: time.Minute, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(after, cancel)
			out, err := plan.Run(ctx, Request{})
			cancel()
			if errors.Is(err, ErrNoTour) && after < 5*time.Millisecond {
				continue // stopped before the run began: TestStopBeforeRunHasNoTour
			}
			if err != nil {
				t.Fatalf("%s stopped after %v: %v", algo, after, err)
			}
			res := out.Result
			if err := solver.ValidateTour(res.Tour, in.N); err != nil {
				t.Fatalf("%s stopped after %v: %v", algo, after, err)
			}
			if got := solver.TourLength(in, res.Tour); got != res.Length || got > fb {
				t.Errorf("%s stopped after %v: length %d (reported %d), the start construction's %d", algo, after, got, res.Length, fb)
			}
			if res.StopReason != solver.StopInterrupt {
				t.Errorf("%s stopped after %v: stop reason %q, want interrupt", algo, after, res.StopReason)
			}
			if algo == "slowsetup" && !out.Fallback {
				t.Errorf("stopped in the set-up after %v: the result does not say it is the start construction", after)
			}
		}
	}
}

// TestStopBeforeRunHasNoTour checks that a run whose context ended before
// it began gives ErrNoTour and no tour.
func TestStopBeforeRunHasNoTour(t *testing.T) {
	var pl Pipeline
	plan, _, err := pl.Plan(scatter(50, 1), solver.Params{Algorithm: "fake", Backend: solver.BackendCPU})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out, err := plan.Run(ctx, Request{})
	if !errors.Is(err, ErrNoTour) || out.Result.Tour != nil {
		t.Fatalf("run after the stop: error %v, tour of %d cities; want ErrNoTour and none", err, len(out.Result.Tour))
	}
}

// TestFallbackKeepsStartAndFixedEdges checks that the fallback is the
// given start tour, and otherwise keeps the instance's fixed edges.
func TestFallbackKeepsStartAndFixedEdges(t *testing.T) {
	in := scatter(60, 2)
	start := solver.IdentityTour(in.N)
	if got := Fallback(in, solver.Params{Start: start}); &got[0] != &start[0] {
		t.Errorf("the fallback of a run with a start tour is not that tour")
	}
	in.FixedEdges = [][2]int{{0, 59}, {5, 40}}
	if err := in.CheckFixedEdges(Fallback(in, solver.Params{})); err != nil {
		t.Errorf("fallback: %v", err)
	}
}
