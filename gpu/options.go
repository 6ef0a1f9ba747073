package gpu

import (
	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"
	cpuils "github.com/tsplab/tsplab/solver/cpu/ils"
)

func init() {
	solver.Declare(AlgoAuto, solver.BackendGPU, device.WithGPUs{Declarer: autoDeclarer{}})
}

// autoDeclarer declares GPU auto's options: those of CPU auto, which it
// runs, that a user needs (the stable ones, partition, which its strategy
// reads, and windows, the windows of the tour after the partition
// search), then its own (autoSpec); the gpus option besides, as every
// GPU engine's.
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
