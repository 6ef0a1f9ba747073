//go:build cuda

package gpu

import (
	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"
)

func init() {
	device.Implement(AlgoAuto, device.Impl{Aided: solveAuto, Inherit: cpuAutoDefaults})
	device.Implement(AlgoPop, device.Impl{Aided: solvePop})
}

// cpuAutoDefaults fills the defaults of the CPU auto engine that GPU auto
// runs (those that follow the cities a worker).
func cpuAutoDefaults(in *solver.Instance, opts solver.OptionSet) solver.OptionSet {
	if c, err := solver.Lookup(AlgoAuto, solver.BackendCPU); err == nil {
		if t, ok := c.(solver.Tuner); ok {
			opts = t.Tune(in, opts)
		}
	}
	return opts
}
