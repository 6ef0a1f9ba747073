package gpu

import (
	"errors"
	"strings"
	"testing"

	"github.com/tsplab/tsplab/gpu/climb"
	"github.com/tsplab/tsplab/gpu/ils"
	"github.com/tsplab/tsplab/gpu/internal/gputest"
	"github.com/tsplab/tsplab/solver"
)

// TestGPUOptionsValidate: the GPU engines' declared options are checked
// by solver.Validate (the same ranges and messages in every build), and a
// key an engine does not declare is refused naming its options.
func TestGPUOptionsValidate(t *testing.T) {
	small := gputest.HostInstance(100, 1)
	cases := []struct {
		name, algo string
		extra      map[string]string
		flag, want string // flag "": accepted
	}{
		{"rkbi_k 8", ils.AlgoThreeOptILS, map[string]string{"rkbi_k": "8"}, "", ""},
		{"rkbi_k 9", ils.AlgoThreeOptILS, map[string]string{"rkbi_k": "9"}, "--opt rkbi_k", "1..8"},
		{"samples is gone", ils.AlgoThreeOptILS, map[string]string{"samples": "4"}, "--opt", "unknown"},
		{"loop is gone", ils.AlgoThreeOptILS, map[string]string{"loop": "host"}, "--opt", "unknown"},
		{"pick is gone", climb.AlgoTwoOptClimb, map[string]string{"pick": "best"}, "--opt", "unknown"},
		{"an engine's report read back", climb.AlgoSwapClimb, map[string]string{"launch_waves": "3"}, "", ""},
		{"tenure 0", climb.AlgoSwapClimb, map[string]string{"tenure": "0"}, "--opt tenure", "1..2^20"},
		{"wmoves is gone", ils.AlgoOrILS, map[string]string{"wmoves": "3opt"}, "--opt", "unknown"},
		{"replicas is gone", ils.AlgoOrILS, map[string]string{"replicas": "4"}, "--opt", "unknown"},
		{"wsegment on or-ils", ils.AlgoOrILS, map[string]string{"wsegment": "30"}, "--opt", "unknown"},
		{"segment past 512", ils.AlgoOrILS, map[string]string{"segment": "513"}, "--opt segment", "1..512"},
		{"start random", climb.AlgoTwoOptClimb, map[string]string{"start": "random"}, "", ""},
		{"start unknown", climb.AlgoTwoOptClimb, map[string]string{"start": "greedy"}, "--opt start", "nn|random"},
		{"2opt-ils has no options but gpus", climb.AlgoTwoOptILS, map[string]string{"kicks": "3"}, "--opt", "2opt-ils/gpu: gpus"},
		{"auto takes the windows", AlgoAuto, map[string]string{"windows": "on"}, "", ""},
		{"auto's windows on or off", AlgoAuto, map[string]string{"windows": "gpu"}, "--opt windows", "on|off"},
	}
	for _, c := range cases {
		e, err := solver.Lookup(c.algo, solver.BackendGPU)
		if err != nil {
			t.Fatal(err)
		}
		err = solver.Validate(e, small, solver.Params{Extra: c.extra})
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
	c3, err := ils.ThreeOptSpec.Parse(gputest.HostInstance(100, 1), solver.Params{Extra: map[string]string{"blocks": "7", "rkbi_k": "5", "dist": "matrix"}})
	if err != nil || c3 != (ils.ThreeOptConfig{Blocks: 7, Threads: 256, K: 5, Dist: "matrix"}) {
		t.Errorf("3opt-ils: %+v %v", c3, err)
	}
	cs, err := climb.SwapSpec.Parse(gputest.HostInstance(100, 1), solver.Params{Extra: map[string]string{"threads": "64", "tabu": "100"}})
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
