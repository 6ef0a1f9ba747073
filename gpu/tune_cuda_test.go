//go:build cuda

package gpu

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/tsplab/tsplab/gpu/ils"
	"github.com/tsplab/tsplab/internal/gputest"
	"github.com/tsplab/tsplab/lab/gpu/climb"
	"github.com/tsplab/tsplab/lab/gpu/pspm"
	"github.com/tsplab/tsplab/solver"
)

// TestTuneShowsWhatRuns: the default an engine's Tune reports for an
// instance is the value the engine then runs with (Result.Params), and the
// threads' bound is the device's.
func TestTuneShowsWhatRuns(t *testing.T) {
	gputest.NeedDevice(t)
	in := gputest.RandomInstance(493, solver.Euc2D, 1000, 3)
	for _, algo := range []string{pspm.AlgoPSPM, climb.AlgoTwoOptClimb, ils.AlgoThreeOptILS, climb.AlgoSwapClimb} {
		e, err := solver.Lookup(algo, solver.BackendGPU)
		if err != nil {
			t.Fatal(err)
		}
		set := solver.EffectiveOptions(e, in)
		b, ok := set.Lookup("blocks")
		if !ok || b.Default == "" {
			t.Errorf("%s: no blocks default for %d cities: %+v", algo, in.N, b)
			continue
		}
		res, err := solver.Run(context.Background(), e, in, solver.Params{Seed: 1, TimeLimit: 300 * time.Millisecond}, nil)
		if err != nil {
			t.Fatalf("%s: %v", algo, err)
		}
		if got := ranBlocks(res); got != b.Default {
			t.Errorf("%s: Tune says %s blocks, the run used %s", algo, b.Default, got)
		}
		if th, ok := set.Lookup("threads"); ok && int(th.Max) != gputest.NeedDevice(t).Limits.MaxThreads {
			t.Errorf("%s: threads up to %g, the device takes %d", algo, th.Max, gputest.NeedDevice(t).Limits.MaxThreads)
		}
	}
}

// TestGPURefusesLikeCPU: settings out of range are refused before any
// launch, with the error the CPU engine gives for the same Params.
func TestGPURefusesLikeCPU(t *testing.T) {
	gputest.NeedDevice(t)
	in := gputest.RandomInstance(200, solver.Euc2D, 1000, 4)
	for _, p := range []solver.Params{gputest.Ext("alpha", "1"), gputest.Ext("t0", "1", "tend", "2"), gputest.Ext("blocks", fmt.Sprint(1<<30)), gputest.Ext("sweeps", "-1")} {
		g, _ := solver.Lookup(pspm.AlgoPSPM, solver.BackendGPU)
		c, cerr := solver.Lookup(pspm.AlgoPSPM, solver.BackendCPU)
		_, gerr := g.Solve(context.Background(), in, p, nil)
		var pe *solver.ParamError
		if !errors.As(gerr, &pe) {
			t.Errorf("%+v: the GPU gave %v, want a ParamError", p, gerr)
		}
		if cerr == nil {
			if _, err := c.Solve(context.Background(), in, p, nil); err == nil || err.Error() != gerr.Error() {
				t.Errorf("%+v: cpu %v, gpu %v", p, err, gerr)
			}
		}
	}
}

// TestOrOptionsFromTheTable: or-ils reads its options through solver's
// table (same ranges and messages as Validate) and keeps its
// instance-dependent defaults.
func TestOrOptionsFromTheTable(t *testing.T) {
	o, err := ils.ParseOrOptions(solver.Params{}, 1000)
	if err != nil || o.Window != 1024 || !o.Greedy || o.GlobalEvery() != time.Second {
		t.Fatalf("defaults at 1000 cities: %+v %v", o, err)
	}
	o, err = ils.ParseOrOptions(withOpts(t, solver.Params{}, ils.OptWindow+"=64", ils.OptGlobal+"=0.5", ils.OptStart+"=sfc"), 1000)
	if err != nil || o.Window != 64 || o.Greedy || o.GlobalEvery() != 500*time.Millisecond {
		t.Fatalf("set: %+v %v", o, err)
	}
	for _, bad := range []string{ils.OptWindow + "=16", "segment=513", ils.OptGlobal + "=-1", ils.OptStart + "=random"} {
		_, err := ils.ParseOrOptions(withOpts(t, solver.Params{}, bad), 1000)
		var pe *solver.ParamError
		e, _ := solver.Lookup(ils.AlgoOrILS, solver.BackendGPU)
		verr := solver.Validate(e, nil, withOpts(t, solver.Params{}, bad))
		if !errors.As(err, &pe) || verr == nil || err.Error() != verr.Error() {
			t.Errorf("%v: parse %v, Validate %v", bad, err, verr)
		}
	}
}

// TestPSPMDefaultBlocksInRange: on instances of 10,000 cities and more
// the blocks default lies inside the option's own range, and the run uses
// that default.
func TestPSPMDefaultBlocksInRange(t *testing.T) {
	gputest.NeedDevice(t)
	e, _ := solver.Lookup(pspm.AlgoPSPM, solver.BackendGPU)
	for _, n := range []int{9847, 13509, 33810} {
		in := gputest.RandomInstance(n, solver.Euc2D, 100000, uint64(n))
		b, ok := solver.EffectiveOptions(e, in).Lookup("blocks")
		def, err := strconv.Atoi(b.Default)
		if !ok || err != nil || float64(def) < b.Min || float64(def) > b.Max {
			t.Fatalf("n %d: blocks default %q, range %g..%g", n, b.Default, b.Min, b.Max)
		}
		res, err := solver.Run(context.Background(), e, in, solver.Params{Seed: 1, TimeLimit: 500 * time.Millisecond}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if ranBlocks(res) != strconv.Itoa(def) {
			t.Fatalf("n %d: Tune says %d blocks, the run used %s", n, def, ranBlocks(res))
		}
		t.Logf("n %d: %d blocks (range %g..%g)", n, def, b.Min, b.Max)
	}
}

// ranBlocks is the blocks a run used: the engine's choice (Settings), else
// the value its parameters report.
func ranBlocks(res solver.Result) string {
	if res.Settings.Blocks > 0 {
		return strconv.Itoa(res.Settings.Blocks)
	}
	return res.Params.Extra["blocks"]
}
