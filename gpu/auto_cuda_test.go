//go:build cuda

package gpu

import (
	"context"
	"testing"
	"time"

	"github.com/tsplab/tsplab/internal/gputest"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/strategy"

	// the CPU auto engine, which GPU auto runs
	_ "github.com/tsplab/tsplab/solver/cpu"
)

// autoOnEarly is GPU auto and a uniform instance of strategy.GPUEarlyMinN
// cities, for a 6-s run; the test is skipped without a device or with
// -short.
func autoOnEarly(t *testing.T) (solver.Engine, *solver.Instance) {
	t.Helper()
	gputest.NeedDevice(t)
	if testing.Short() {
		t.Skip("a 6 s run on 200,000 cities")
	}
	e, err := solver.Lookup(AlgoAuto, solver.BackendGPU)
	if err != nil {
		t.Fatal(err)
	}
	in := gputest.RandomInstance(strategy.GPUEarlyMinN, solver.Euc2D, 1e6, 6)
	return e, in
}

// TestAutoEarlyOrILS runs GPU auto from strategy.GPUEarlyMinN cities: or-ils's
// tour reaches the snapshots before the CPU engine's first tour, the
// best length in them never grows, or-ils stops at the engine's first
// tour (its length in the run's statistics), the windows beside the
// engine's partition search improved a stretch, and the result is a valid
// tour of the reported length within the time limit.
func TestAutoEarlyOrILS(t *testing.T) {
	e, in := autoOnEarly(t)
	snaps := solver.Latest()
	type seen struct {
		n     int
		first time.Duration
		grew  bool
	}
	got := make(chan seen, 1)
	go func() {
		var sn seen
		last := int64(-1)
		for s := range snaps {
			if s.Best == nil {
				continue
			}
			if sn.n == 0 {
				sn.first = s.Elapsed
			}
			sn.n++
			if last >= 0 && s.BestLength > last {
				sn.grew = true
			}
			last = s.BestLength
		}
		got <- sn
	}()
	res, err := solver.RunAided(context.Background(), e, in, solver.Params{TimeLimit: 6 * time.Second, Seed: 1}, snaps, solver.Aid{}, false)
	close(snaps)
	sn := <-got
	if err != nil {
		t.Fatal(err)
	}
	if !res.Stopped || res.StopReason != solver.StopTime {
		t.Errorf("a 6-s run stopped %v (%v), want by its time limit", res.Stopped, res.StopReason)
	}
	if err := solver.ValidateTour(res.Tour, in.N); err != nil {
		t.Fatal(err)
	}
	if got := solver.TourLength(in, res.Tour); got != res.Length {
		t.Fatalf("reported %d, exact %d", res.Length, got)
	}
	if sn.n == 0 || sn.grew || res.Stats.EarlyLength == 0 || (res.Stats.EarlyKept && res.Stats.EarlyLength != res.Length) {
		t.Fatalf("%d snapshots with a tour (the best grew: %v); stats %+v", sn.n, sn.grew, res.Stats)
	}
	if w := res.Account.Windows; w == nil || w.Improved == 0 {
		t.Fatalf("no stretch improved beside the workers: %+v", w)
	}
	t.Logf("%d cities, 6 s: %d; first tour at %v, %d snapshots; %+v", in.N, res.Length, sn.first, sn.n, *res.Account.Windows)
}

// TestAutoAlphaAscent runs GPU auto where the CPU auto engine's merged
// search takes alpha-nearness lists (between strategy.PopMaxN and
// strategy.PartitionMinN cities, too short a run a city for the
// population search): the ascent behind them runs on the GPU, as the
// run's statistics say, and the tour is valid and exact.
func TestAutoAlphaAscent(t *testing.T) {
	gputest.NeedDevice(t)
	in := gputest.RandomInstance((strategy.PopMaxN+strategy.PartitionMinN)/2, solver.Euc2D, 1e6, 7)
	res, _ := runAuto(t, in, solver.Params{TimeLimit: 3 * time.Second, Seed: 1})
	if !res.Stats.AscentOnGPU || res.Stats.AscentIterations == 0 {
		t.Fatalf("the ascent did not run on the GPU: %+v", res.Stats)
	}
	t.Logf("%d cities, 3 s: %d; %+v on %s", in.N, res.Length, res.Account, res.Device)
}

// runAuto runs GPU auto on in with p and fails t unless it returns a valid
// tour of the reported length; it returns the result and the run's wall
// time.
func runAuto(t *testing.T, in *solver.Instance, p solver.Params) (solver.Result, time.Duration) {
	t.Helper()
	e, err := solver.Lookup(AlgoAuto, solver.BackendGPU)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	res, err := solver.RunAided(context.Background(), e, in, p, nil, solver.Aid{}, false)
	if err != nil {
		t.Fatal(err)
	}
	el := time.Since(t0)
	gputest.CheckResult(t, "auto", in, res)
	return res, el
}

// TestAutoWithoutKernels: GPU auto takes the instances its kernels cannot
// (under 5 cities, a metric of coordinates they do not compute, a matrix
// without coordinates), as CPU auto alone: a tour of every city, its
// length as recomputed, and the account says the GPU took no part.
func TestAutoWithoutKernels(t *testing.T) {
	gputest.NeedDevice(t)
	e, err := solver.Lookup(AlgoAuto, solver.BackendGPU)
	if err != nil {
		t.Fatal(err)
	}
	n := 12
	w := make([]int32, n*n)
	for i := range n {
		for j := range n {
			if i != j {
				w[i*n+j] = int32(1 + (i*j)%97 + i + j)
			}
		}
	}
	geo := gputest.RandomInstance(30, solver.Euc2D, 90, 3)
	geo = solver.NewCoordInstance("geo", solver.Geo, geo.X, geo.Y, nil)
	for _, in := range []*solver.Instance{
		solver.NewCoordInstance("square", solver.Euc2D, []float64{0, 10, 10, 0}, []float64{0, 0, 10, 10}, nil),
		geo,
		{Name: "matrix", N: n, Metric: solver.Explicit, Matrix: w},
	} {
		in.Prepare()
		r, err := solver.Run(context.Background(), e, in, solver.Params{Seed: 1, TimeLimit: 300 * time.Millisecond}, nil)
		if err != nil {
			t.Fatalf("%s: %v", in.Name, err)
		}
		if err := solver.ValidateTour(r.Tour, in.N); err != nil {
			t.Fatalf("%s: %v", in.Name, err)
		}
		if got := solver.TourLength(in, r.Tour); got != r.Length {
			t.Errorf("%s: length %d reported, %d recomputed", in.Name, r.Length, got)
		}
		if g := r.Account.GPU; g == nil || !g.Alone {
			t.Errorf("%s: account %+v, want the CPU search alone", in.Name, r.Account.GPU)
		}
	}
}
