package gpu

import (
	"errors"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/tsplab/tsplab/gpu/ils"
	"github.com/tsplab/tsplab/internal/gputest"
	"github.com/tsplab/tsplab/lab/gpu/climb"
	"github.com/tsplab/tsplab/solver"
	cpuils "github.com/tsplab/tsplab/solver/cpu/ils"
)

// TestGPUOptionsValidate: the GPU engines' declared options are checked
// by solver.Validate (the same ranges and messages in every build), and a
// key an engine does not declare is refused naming its options.
func TestGPUOptionsValidate(t *testing.T) {
	small := gputest.HostInstance(100, 1)
	cases := []struct {
		name, algo string
		settings   []string
		flag, want string // flag "": accepted
	}{
		{"rkbi_k 8", ils.AlgoThreeOptILS, []string{"rkbi_k=8"}, "", ""},
		{"rkbi_k 9", ils.AlgoThreeOptILS, []string{"rkbi_k=9"}, "--opt rkbi_k", "1..8"},
		{"samples is gone", ils.AlgoThreeOptILS, []string{"samples=4"}, "--opt", "unknown"},
		{"loop is gone", ils.AlgoThreeOptILS, []string{"loop=host"}, "--opt", "unknown"},
		{"pick is gone", climb.AlgoTwoOptClimb, []string{"pick=best"}, "--opt", "unknown"},
		{"an engine's report read back", climb.AlgoSwapClimb, []string{"launch_waves=3"}, "", ""},
		{"tenure 0", climb.AlgoSwapClimb, []string{"tenure=0"}, "--opt tenure", "1..2^20"},
		{"wmoves is gone", ils.AlgoOrILS, []string{"wmoves=3opt"}, "--opt", "unknown"},
		{"replicas is gone", ils.AlgoOrILS, []string{"replicas=4"}, "--opt", "unknown"},
		{"wsegment on or-ils", ils.AlgoOrILS, []string{"wsegment=30"}, "--opt", "unknown"},
		{"segment past 512", ils.AlgoOrILS, []string{"segment=513"}, "--opt segment", "1..512"},
		{"start random", climb.AlgoTwoOptClimb, []string{"start=random"}, "", ""},
		{"start unknown", climb.AlgoTwoOptClimb, []string{"start=greedy"}, "--opt start", "nn|random"},
		{"2opt-ils has no options but gpus", climb.AlgoTwoOptILS, []string{"kicks=3"}, "--opt", "2opt-ils/gpu: gpus"},
		{"auto takes the windows", AlgoAuto, []string{"windows=on"}, "", ""},
		{"auto's windows on or off", AlgoAuto, []string{"windows=gpu"}, "--opt windows", "on|off"},
	}
	for _, c := range cases {
		e, err := solver.Lookup(c.algo, solver.BackendGPU)
		if err != nil {
			t.Fatal(err)
		}
		err = solver.Validate(e, small, withOpts(t, solver.Params{}, c.settings...))
		if c.flag == "" {
			if err != nil {
				t.Errorf("%s: refused: %v", c.name, err)
			}
			continue
		}
		var pe *solver.ParamError
		if !errors.As(err, &pe) || pe.Flag != c.flag || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want flag %s and %q", c.name, err, c.flag, c.want)
		}
	}
}

// TestGPUConfigsParse: each spec fills its config from a run's Params
// with its defaults, the shared options it takes and the instance's size.
func TestGPUConfigsParse(t *testing.T) {
	c3, err := ils.ThreeOptSpec.Parse(gputest.HostInstance(100, 1), withOpts(t, solver.Params{}, "blocks=7", "rkbi_k=5", "dist=matrix"))
	if err != nil || c3 != (ils.ThreeOptConfig{Blocks: 7, Threads: 256, K: 5, Dist: "matrix"}) {
		t.Errorf("3opt-ils: %+v %v", c3, err)
	}
	cs, err := climb.SwapSpec.Parse(gputest.HostInstance(100, 1), withOpts(t, solver.Params{}, "threads=64", "tabu=100"))
	if err != nil || cs != (climb.SwapConfig{Threads: 64, Dist: "auto", Tabu: 100}) {
		t.Errorf("swap-climb: %+v %v (tenure and blocks left for the engine)", cs, err)
	}
	cc, err := climb.ClimbSpec.Parse(gputest.HostInstance(100, 1), solver.Params{})
	if err != nil || cc != (climb.ClimbConfig{NearStarts: true}) {
		t.Errorf("2opt-climb: %+v %v", cc, err)
	}
	for _, c := range []struct {
		n      int
		global float64
		greedy bool
	}{{1000, 1, true}, {ils.OrStartSFCMinN, 2, false}} {
		co, err := ils.OrSpec.Parse(&solver.Instance{N: c.n}, solver.Params{})
		if err != nil || co.Global != c.global || co.Greedy != c.greedy || co.Window != 1024 || co.Segment != 30 {
			t.Errorf("or-ils on %d cities: %+v %v", c.n, co, err)
		}
	}
}

// withOpts returns p with the settings, "name=value" as --opt takes them:
// the options' texts, for the tests of their reading.
func withOpts(t testing.TB, p solver.Params, settings ...string) solver.Params {
	t.Helper()
	for _, s := range settings {
		if err := p.Set(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return p
}

// TestPrepareAuto: GPU auto reads its config once: its own options
// (the windows' window and wsegment as their kick segment; segment, fixed
// in CPU auto, refused; the early or-ils without global passes; the
// windows off when beside is given 0; a bad wsegment refused) and CPU
// auto's from the others (a bad one refused). The caller's options are
// left alone.
func TestPrepareAuto(t *testing.T) {
	in := gputest.HostInstance(50000, 1)
	for _, c := range []struct {
		settings  []string
		window    int
		seg       int
		noWindows bool
		ok        bool
	}{
		{nil, 1024, 30, false, true},
		{[]string{ils.OptWindowSegment + "=50", ils.OptWindow + "=512"}, 512, 50, false, true},
		{[]string{"segment=100000"}, 0, 0, false, false},
		{[]string{ils.OptBeside + "=0"}, 1024, 30, true, true},
		{[]string{ils.OptWindowSegment + "=0"}, 0, 0, false, false},
		{[]string{cpuils.OptPartition + "=sometimes"}, 0, 0, false, false},
	} {
		p := withOpts(t, solver.Params{}, c.settings...)
		before := maps.Clone(p.Extra)
		set, err := prepareAuto(in, p)
		if (err == nil) != c.ok {
			t.Fatalf("%v: error %v, want ok=%v", c.settings, err, c.ok)
		}
		if !maps.Equal(before, p.Extra) {
			t.Fatalf("the caller's options changed: %v, were %v", p.Extra, before)
		}
		if !c.ok {
			continue
		}
		if set.windows.Window != c.window || set.windows.Segment != c.seg || set.noWindows != c.noWindows {
			t.Errorf("%v: %+v", c.settings, set)
		}
		if set.early.Global != 0 || set.windows.Global == 0 || set.early.Window != set.windows.Window {
			t.Errorf("%v: early %+v, windows %+v", c.settings, set.early, set.windows)
		}
	}
}

// TestCPUParams: the CPU auto engine gets GPU auto's parameters on the
// CPU backend with the time limit as it was, the options but GPU auto's
// own as they were, and GPU auto's own options are read alone; the
// caller's are left alone.
func TestCPUParams(t *testing.T) {
	for _, left := range []time.Duration{20 * time.Second, time.Hour} {
		p := withOpts(t, solver.Params{Backend: solver.BackendGPU, Seed: 4, TimeLimit: left}, ils.OptWindow+"=512", "kicks=10")
		own, q := splitParams(p)
		if q.Backend != solver.BackendCPU || q.Seed != 4 || q.TimeLimit != left ||
			len(q.Extra) != 1 || q.Text("kicks") != "10" || len(p.Extra) != 2 {
			t.Errorf("left %v: CPU params %+v", left, q)
		}
		if own.Backend != solver.BackendGPU || own.Seed != 4 || len(own.Extra) != 1 || own.Text(ils.OptWindow) != "512" {
			t.Errorf("left %v: GPU auto's own params %+v", left, own)
		}
	}
}
