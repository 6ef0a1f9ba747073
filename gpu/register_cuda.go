//go:build cuda

package gpu

import (
	"time"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"
	cpuils "github.com/tsplab/tsplab/solver/cpu/ils"
	"github.com/tsplab/tsplab/solver/cpu/population"
)

// The bodies of GPU auto and GPU pop (register.go registers them).
var (
	autoImpl = device.Impl{Aided: solveAuto, Limit: device.AlwaysDefault, Inherit: cpuAutoDefaults, Plan: autoPlan, AnyInstance: true}
	popImpl  = device.Impl{Aided: solvePop, Limit: popLimit}
)

// cpuAutoDefaults fills the defaults of the CPU auto engine GPU auto runs.
func cpuAutoDefaults(in *solver.Instance, opts solver.OptionSet) solver.OptionSet {
	return cpuils.Auto().Tune(in, opts)
}

// autoPlan is GPU auto's strategy on in with all cores and the default limit.
func autoPlan(in *solver.Instance) string {
	cfg, err := prepareAuto(in, solver.Params{})
	if err != nil {
		return ""
	}
	return decideAuto(in, solver.Params{}, solver.DefaultTimeLimit, cfg).String()
}

// popLimit is GPU pop's default time limit, the CPU pop engine's.
func popLimit(in *solver.Instance, p solver.Params) time.Duration {
	return population.DefaultLimit(in, popParams(p))
}
