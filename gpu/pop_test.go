package gpu

import (
	"testing"

	"github.com/tsplab/tsplab/gpu/device"

	"github.com/tsplab/tsplab/solver"

	// the CPU pop engine, whose options GPU pop inherits
	_ "github.com/tsplab/tsplab/solver/cpu"
)

// GPU pop lists CPU pop's options with a GPU pool (its pool's rounds and
// starts, experimental) and gpus, without CPU pop's experiments, which
// CPU pop lists without the GPU pool's; the CPU engine gets the run's
// parameters on its own backend.
func TestPopOptions(t *testing.T) {
	opts := solver.OptionsFor(AlgoPop, solver.BackendGPU)
	cpu := solver.OptionsFor(AlgoPop, solver.BackendCPU)
	for _, c := range []struct {
		name          string
		onGPU, onCPU  bool
		gpuExperiment bool
	}{
		{"pool", true, true, false}, {"gpuround", true, false, true},
		{device.OptGPUs, true, false, false}, {"merge", false, true, false}, {"init", false, true, false}, {"gpx", false, false, false},
	} {
		o, ok := opts.Lookup(c.name)
		_, okc := cpu.Lookup(c.name)
		if ok != c.onGPU || okc != c.onCPU || (ok && o.Experimental != c.gpuExperiment) {
			t.Errorf("option %s: on the GPU %v (experimental %v), on the CPU %v", c.name, ok, o.Experimental, okc)
		}
	}
	p := withOpts(t, solver.Params{Backend: solver.BackendGPU, Seed: 4}, "pool=12")
	if q := popParams(p); q.Backend != solver.BackendCPU || q.Seed != 4 || q.Extra["pool"] != "12" || p.Backend != solver.BackendGPU {
		t.Fatalf("%+v from %+v", q, p)
	}
}
