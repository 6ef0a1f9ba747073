//go:build cuda

package gpu

import (
	"context"
	"testing"
	"time"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/gpu/ils"
	"github.com/tsplab/tsplab/internal/gputest"
	"github.com/tsplab/tsplab/lab/gpu/climb"
	"github.com/tsplab/tsplab/lab/gpu/pspm"
	"github.com/tsplab/tsplab/solver"
)

// TestFirstGPUOnly: the engines that share their work out between the
// selected GPUs say so; the others run on the first (no device needed).
func TestFirstGPUOnly(t *testing.T) {
	for name, first := range map[string]bool{
		AlgoAuto: true, AlgoPop: true, ils.AlgoOrILS: true,
		pspm.AlgoPSPM: false, climb.AlgoTwoOptClimb: false, climb.AlgoTwoOptILS: false,
		ils.AlgoThreeOptILS: false, ils.AlgoTourLS: false, climb.AlgoSwapClimb: false,
	} {
		e, err := solver.Lookup(name, solver.BackendGPU)
		if err != nil {
			t.Fatal(err)
		}
		if got := device.FirstGPUOnly(e); got != first {
			t.Errorf("%s: FirstGPUOnly %v, want %v", name, got, first)
		}
	}
}

// TestIndependentOnTwoContexts: each engine of independent searches, on
// two contexts (both on device 0, so that one GPU is enough), gives a
// valid, exact tour, says it ran on both, and sends the best in its
// snapshots.
func TestIndependentOnTwoContexts(t *testing.T) {
	gputest.NeedDevice(t)
	in := gputest.RandomInstance(300, solver.Euc2D, 1000, 31)
	for _, name := range []string{climb.AlgoTwoOptILS, climb.AlgoSwapClimb, ils.AlgoThreeOptILS, ils.AlgoTourLS} {
		e := gputest.MultiEngine(t, name)
		p := gputest.WithOpts(solver.Params{Seed: 5, TimeLimit: 300 * time.Millisecond}, gputest.TwoContexts)
		snaps := make(chan solver.Snapshot, 1)
		best := int64(0)
		done := make(chan struct{})
		go func() {
			defer close(done)
			for s := range snaps {
				if s.Best != nil {
					best = s.BestLength
				}
			}
		}()
		res, err := solver.RunAided(context.Background(), e, in, p, snaps, solver.Aid{}, false)
		close(snaps)
		<-done
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		gputest.CheckExact(t, name, in, res)
		if g := res.Account.GPU; g == nil || g.Contexts != 2 || res.Settings.GPUs != "0,0" || res.Params.Seed != 5 {
			t.Fatalf("%s: GPU account %+v, settings %+v, seed %d", name, g, res.Settings, res.Params.Seed)
		}
		if best < res.Length {
			t.Errorf("%s: the snapshots' best %d is shorter than the result's %d", name, best, res.Length)
		}
	}
}

// TestAutoBesideOnTwoContexts: GPU auto with two contexts selected (both
// on device 0) puts its windows beside the partition search on both: the
// stretch improved, the account names two contexts, and the tour is
// valid and exact.
func TestAutoBesideOnTwoContexts(t *testing.T) {
	e, in := autoOnEarly(t)
	p := gputest.WithOpts(solver.Params{Seed: 1, TimeLimit: 6 * time.Second}, gputest.TwoContexts)
	res, err := solver.RunAided(context.Background(), e, in, p, nil, solver.Aid{}, false)
	if err != nil {
		t.Fatal(err)
	}
	gputest.CheckExact(t, AlgoAuto, in, res)
	if w := res.Account.Windows; w == nil || w.Improved == 0 || !w.OnGPU {
		t.Fatalf("no stretch improved beside the workers: %+v", w)
	}
	if g := res.Account.GPU; g == nil || g.Contexts != 2 || g.Selected != 2 {
		t.Fatalf("GPU account %+v, want the windows on two contexts", g)
	}
}
