//go:build cuda

package climb

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tsplab/tsplab/gpu/internal/gputest"
	"github.com/tsplab/tsplab/solver"
)

// TestMultiClimbTwoContexts: 2opt-climb on two contexts runs exactly the
// climbs asked for in all, with a valid, exact tour; a context that fails
// ends its share and the run goes on.
func TestMultiClimbTwoContexts(t *testing.T) {
	gputest.NeedDevice(t)
	in := gputest.RandomInstance(200, solver.Euc2D, 1000, 26)
	e := gputest.MultiEngine(t, AlgoTwoOptClimb)
	p := gputest.WithOpts(solver.Params{Seed: 4}, OptRestarts+"=2001", gputest.TwoContexts)
	res, err := e.Solve(context.Background(), in, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	gputest.CheckExact(t, "2opt-climb", in, res)
	if res.Steps != 2001 || !strings.Contains(res.Note, "2 GPU contexts") || res.Settings.GPUs != "0,0" {
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
	p = gputest.WithOpts(solver.Params{Seed: 4, TimeLimit: 500 * time.Millisecond}, gputest.TwoContexts)
	res, err = e.Solve(context.Background(), in, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	gputest.CheckExact(t, "2opt-climb, a context failed", in, res)
	if !strings.Contains(res.Note, "injected fault") {
		t.Fatalf("note %q does not say a context failed", res.Note)
	}
}
