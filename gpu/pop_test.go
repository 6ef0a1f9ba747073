package gpu

import (
	"testing"

	"github.com/tsplab/tsplab/gpu/device"

	"github.com/tsplab/tsplab/solver"

	// the CPU pop engine, whose options GPU pop inherits
	_ "github.com/tsplab/tsplab/solver/cpu"
)

// GPU pop lists CPU pop's options as CPU pop declares them, and gpus,
// and the CPU engine gets the run's parameters on its own backend.
func TestPopOptions(t *testing.T) {
	opts := solver.OptionsFor(AlgoPop, solver.BackendGPU)
	cpu := solver.OptionsFor(AlgoPop, solver.BackendCPU)
	for _, name := range []string{"pool", "gpuround", "gpustart", device.OptGPUs} {
		o, ok := opts.Lookup(name)
		c, _ := cpu.Lookup(name)
		if !ok || (name != device.OptGPUs && o.Experimental != c.Experimental) {
			t.Errorf("option %s: listed %v, experimental %v", name, ok, o.Experimental)
		}
	}
	p := solver.Params{Backend: solver.BackendGPU, Seed: 4, Extra: map[string]string{"pool": "12"}}
	if q := popParams(p); q.Backend != solver.BackendCPU || q.Seed != 4 || q.Extra["pool"] != "12" || p.Backend != solver.BackendGPU {
		t.Fatalf("%+v from %+v", q, p)
	}
}
