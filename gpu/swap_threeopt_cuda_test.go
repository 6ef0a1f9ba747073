//go:build cuda

package gpu

import (
	"context"
	"testing"
	"time"

	"gorgonia.org/cu"

	"github.com/tsplab/tsplab/gpu/ils"
	"github.com/tsplab/tsplab/internal/gputest"
	"github.com/tsplab/tsplab/lab/gpu/climb"
	"github.com/tsplab/tsplab/solver"
)

// TestSwapAndThreeOptFreeDeviceMemory runs both engines many times with
// tiny time limits and checks that device memory ends where it started.
func TestSwapAndThreeOptFreeDeviceMemory(t *testing.T) {
	r := gputest.NeedRun(t)
	in := gputest.RandomInstance(300, solver.Euc2D, 10000, 41)
	free := func() int64 {
		var f int64
		if err := r.Do(func() error {
			v, _, err := cu.MemInfo()
			f = v
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return f
	}
	sw, _ := solver.Lookup(climb.AlgoSwapClimb, solver.BackendGPU)
	th, _ := solver.Lookup(ils.AlgoThreeOptILS, solver.BackendGPU)
	run := func() {
		for _, e := range []solver.Engine{sw, th} {
			if _, err := solver.RunAided(context.Background(), e, in, solver.Params{Seed: 1, TimeLimit: time.Millisecond}, nil, solver.Aid{}, false); err != nil {
				t.Fatal(err)
			}
		}
	}
	run() // warm-up: the first run tunes and loads what stays
	before := free()
	cycles := 100
	if testing.Short() {
		cycles = 20
	}
	for i := 0; i < cycles; i++ {
		run()
	}
	if after := free(); after < before-(1<<20) {
		t.Fatalf("device memory free went from %d to %d bytes after %d start/stop cycles", before, after, cycles)
	}
}
