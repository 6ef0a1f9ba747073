package gpu

import (
	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"
	cpuils "github.com/tsplab/tsplab/solver/cpu/ils"
)

func init() {
	solver.Declare(AlgoAuto, solver.BackendGPU, device.WithGPUs{Declarer: autoDeclarer{}})
}

// autoDeclarer declares GPU auto's options: CPU auto's stable ones, partition and windows, its own and gpus.
type autoDeclarer struct{}

// Options returns GPU auto's options with their defaults on in.
func (autoDeclarer) Options(in *solver.Instance) solver.OptionSet {
	var out solver.OptionSet
	for _, o := range cpuils.AutoOptions.Options(in) {
		if !o.Experimental || o.Name == cpuils.OptPartition || o.Name == cpuils.OptWindows {
			out = append(out, o)
		}
	}
	return append(out, autoSpec.Options(in)...)
}
