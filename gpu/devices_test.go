package gpu

import (
	"testing"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/gpu/ils"
	"github.com/tsplab/tsplab/lab/gpu/climb"
	"github.com/tsplab/tsplab/lab/gpu/pspm"
	"github.com/tsplab/tsplab/solver"
)

// TestEveryGPUEngineTakesGPUs: the option is declared for every GPU engine
// whose options this package declares (auto, the default engine, among
// them), with a default that the parser takes, and a run's settings that
// name GPUs pass the engine's check; it is not passed on to the engines'
// own specs.
func TestEveryGPUEngineTakesGPUs(t *testing.T) {
	for _, name := range []string{AlgoAuto, pspm.AlgoPSPM, pspm.AlgoSSPM, pspm.AlgoPSSM, climb.AlgoTwoOptClimb, climb.AlgoTwoOptILS, ils.AlgoThreeOptILS, climb.AlgoSwapClimb, ils.AlgoOrILS, ils.AlgoTourLS} {
		o, ok := solver.OptionsFor(name, solver.BackendGPU).Lookup(device.OptGPUs)
		if !ok {
			t.Errorf("%s does not declare %s", name, device.OptGPUs)
			continue
		}
		if _, err := device.ParseGPUs(o.Default, []error{nil}); err != nil {
			t.Errorf("%s: default %q: %v", name, o.Default, err)
		}
		e, err := solver.Lookup(name, solver.BackendGPU)
		if err != nil {
			t.Fatal(err)
		}
		for _, gpus := range []string{"all", "1", "0"} {
			p := withOpts(t, solver.Params{Algorithm: name, Backend: solver.BackendGPU}, device.OptGPUs+"="+gpus)
			if err := solver.Validate(e, nil, p); err != nil {
				t.Errorf("%s with gpus=%s: %v", name, gpus, err)
			}
		}
	}
	p := withOpts(t, solver.Params{}, device.OptGPUs+"=0,0", "draw=nn")
	q := device.WithoutGPUs(p)
	if _, ok := q.Extra[device.OptGPUs]; ok || q.Extra["draw"] != "nn" || p.Extra[device.OptGPUs] != "0,0" {
		t.Fatalf("withoutGPUs: %v (caller's %v)", q.Extra, p.Extra)
	}
	if _, err := pspm.PspmSpecs[pspm.AlgoPSPM].Parse(nil, q); err != nil {
		t.Fatalf("pspm's spec on the stripped params: %v", err)
	}
}
