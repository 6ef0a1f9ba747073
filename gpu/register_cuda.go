//go:build cuda

package gpu

import (
	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"
	cpuils "github.com/tsplab/tsplab/solver/cpu/ils"
)

func init() {
	device.Implement(AlgoAuto, device.Impl{Aided: solveAuto, Inherit: cpuAutoDefaults})
	device.Implement(AlgoPop, device.Impl{Aided: solvePop})
}

// cpuAutoDefaults fills the defaults of the CPU auto engine that GPU auto
// runs (those that follow the cities a worker).
func cpuAutoDefaults(in *solver.Instance, opts solver.OptionSet) solver.OptionSet {
	return cpuils.Auto().Tune(in, opts)
}
