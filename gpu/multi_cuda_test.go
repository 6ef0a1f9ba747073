//go:build cuda

package gpu

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/gpu/ils"
	"github.com/tsplab/tsplab/internal/gputest"
	"github.com/tsplab/tsplab/lab/gpu/climb"
	"github.com/tsplab/tsplab/lab/gpu/pspm"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/enginetest"
)

// TestMultiSelection: a selection the host does not have is refused in one
// line before the run; 2opt-ils on two contexts runs a search on each and
// says so in its account.
func TestMultiSelection(t *testing.T) {
	gputest.NeedDevice(t)
	gpus, err := device.GPUs()
	if err != nil {
		t.Fatal(err)
	}
	in := gputest.RandomInstance(100, solver.Euc2D, 1000, 27)
	annealer := gputest.MultiEngine(t, pspm.AlgoPSPM)
	for _, bad := range []string{fmt.Sprintf("%d,", len(gpus)), fmt.Sprint(len(gpus) + 1), "0,x", "none"} {
		_, err := annealer.Solve(context.Background(), in, gputest.PspmBudget(1, device.OptGPUs+"="+bad), nil)
		var pe *solver.ParamError
		if !errors.As(err, &pe) || strings.Contains(err.Error(), "\n") {
			t.Fatalf("gpus=%s: %v", bad, err)
		}
	}
	res, err := solver.RunAided(context.Background(), gputest.MultiEngine(t, climb.AlgoTwoOptILS), in, gputest.WithOpts(solver.Params{Seed: 1, TimeLimit: 200 * time.Millisecond}, gputest.TwoContexts), nil, solver.Aid{}, false)
	if err != nil {
		t.Fatal(err)
	}
	gputest.CheckExact(t, "2opt-ils", in, res)
	if g := res.Account.GPU; g == nil || g.Contexts != 2 || g.Selected != 2 {
		t.Fatalf("2opt-ils on two contexts: GPU account %+v", g)
	}
}

// TestEngineContractTwoContexts runs the engine contract on every GPU
// engine that takes OptGPUs with two contexts on device 0.
func TestEngineContractTwoContexts(t *testing.T) {
	takesGPUs := func(e solver.Engine) bool {
		_, ok := solver.OptionsFor(e.Name(), e.Backend()).Lookup(device.OptGPUs)
		return ok
	}
	cfg := enginetest.Config{
		Budget: func(e solver.Engine) solver.Params {
			p := gpuBudget(e)
			if len(p.Extra) == 0 {
				// no budget of its own: the contract's run of 300 ms
				p.TimeLimit = 300 * time.Millisecond
			}
			return gputest.WithOpts(p, gputest.TwoContexts)
		},
		Open:    func(e solver.Engine) solver.Params { return gputest.WithOpts(gpuOpen(e), gputest.TwoContexts) },
		Ready:   deviceReady,
		Descent: func(e solver.Engine) bool { return e.Name() == ils.AlgoTourLS },
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
		t.Fatalf("%d GPU engines take %s", n, device.OptGPUs)
	}
}
