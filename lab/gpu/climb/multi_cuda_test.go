//go:build cuda

package climb

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/internal/gputest"
	"github.com/tsplab/tsplab/solver"
)

// TestMultiClimbTwoContexts: 2opt-climb on two contexts runs exactly the
// climbs asked for in all, with a valid, exact tour; a context that fails
// ends its share and the run goes on.
func TestMultiClimbTwoContexts(t *testing.T) {
	gputest.NeedDevice(t)
	in := gputest.RandomInstance(200, solver.Euc2D, 1000, 26)
	e := gputest.MultiEngine(t, AlgoTwoOptClimb)
	p := gputest.WithOpts(solver.Params{Seed: 4, Config: func(c *ClimbConfig) { c.Restarts = 2001 }}, gputest.TwoContexts)
	res, err := e.Solve(context.Background(), in, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	gputest.CheckExact(t, "2opt-climb", in, res)
	if g := res.Account.GPU; res.Steps != 2001 || g == nil || g.Contexts != 2 || res.Settings.GPUs != "0,0" {
		t.Fatalf("%d climbs (want 2001), GPU account %+v, settings %+v", res.Steps, g, res.Settings)
	}
	calls := 0
	faulty := device.NewEngine(AlgoTwoOptClimb, "2opt-climb with a test's fault", false, device.Impl{
		Multi: func(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, s chan solver.Snapshot, sel []device.DevSlot) (solver.Result, error) {
			return twoOptClimbFaulty(ctx, e, in, p, s, sel, func(i int) error {
				if i == 1 {
					if calls++; calls > 1 {
						return errors.New("injected fault")
					}
				}
				return nil
			})
		},
	})
	p = gputest.WithOpts(solver.Params{Seed: 4, TimeLimit: 500 * time.Millisecond}, gputest.TwoContexts)
	res, err = solver.RunAided(context.Background(), faulty, in, p, nil, solver.Aid{}, false)
	if err != nil {
		t.Fatal(err)
	}
	gputest.CheckExact(t, "2opt-climb, a context failed", in, res)
	if w := strings.Join(res.Account.Warnings, "; "); !strings.Contains(w, "injected fault") {
		t.Fatalf("warnings %q do not say a context failed", w)
	}
}
