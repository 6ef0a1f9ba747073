//go:build cuda

package gpu

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/internal/gputest"
	"github.com/tsplab/tsplab/lab/gpu/climb"
	"github.com/tsplab/tsplab/lab/gpu/pspm"
	"github.com/tsplab/tsplab/solver"
)

func TestEnginesReturnValidTours(t *testing.T) {
	gputest.NeedDevice(t)
	in := gputest.RandomInstance(200, solver.Euc2D, 1000, 11)
	for _, name := range allAlgorithms {
		e, err := solver.Lookup(name, solver.BackendGPU)
		if err != nil {
			t.Fatal(err)
		}
		snaps := solver.Latest()
		r, err := e.Solve(context.Background(), in, gputest.Takes(name, gputest.QuickParams(1)), snaps)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := solver.ValidateTour(r.Tour, in.N); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if r.Length != solver.TourLength(in, r.Tour) || r.Moves <= 0 {
			t.Fatalf("%s: length %d (exact %d), moves %d", name, r.Length, solver.TourLength(in, r.Tour), r.Moves)
		}
		select {
		case s := <-snaps:
			if s.BestLength <= 0 || solver.ValidateTour(s.Best, in.N) != nil {
				t.Fatalf("%s: bad snapshot %d", name, s.BestLength)
			}
		default:
			t.Fatalf("%s sent no snapshot", name)
		}
		t.Logf("%s: %d in %v, %.3g moves/s on %s", name, r.Length, r.Elapsed, r.MovesPerSecond(), r.Device)
	}
}

func TestStartStopLeavesMemory(t *testing.T) {
	r := gputest.NeedRun(t)
	in := gputest.RandomInstance(60, solver.Euc2D, 1000, 14)
	cycles := 1000
	if testing.Short() {
		cycles = 100
	}
	engines := []string{pspm.AlgoPSPM, climb.AlgoTwoOptILS}
	run := func(k int) {
		e, _ := solver.Lookup(engines[k%2], solver.BackendGPU)
		ctx, cancel := context.WithCancel(context.Background())
		p := gputest.Takes(engines[k%2], gputest.WithOpts(solver.Params{TimeLimit: time.Millisecond, Seed: uint64(k)}, "t0=10", "tend=5", "alpha=0.5", "sweeps=1", "k=1", "blocks=8"))
		if k%3 == 0 {
			cancel()
		}
		if _, err := solver.RunAided(ctx, e, in, p, nil, solver.Aid{}, false); err != nil && !errors.Is(err, context.Canceled) {
			t.Fatalf("cycle %d: %v", k, err)
		}
		cancel()
	}
	run(0)
	run(1)
	free0, err := device.RunFreeMemory(r)
	if err != nil {
		t.Fatal(err)
	}
	for k := 0; k < cycles; k++ {
		run(k)
	}
	free1, err := device.RunFreeMemory(r)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d start/stop cycles: free device memory %d -> %d bytes", cycles, free0, free1)
	if free1 != free0 {
		t.Fatalf("device memory changed over %d cycles: %d -> %d free bytes", cycles, free0, free1)
	}
}
