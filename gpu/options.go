package gpu

import (
	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/gpu/ils"
	"github.com/tsplab/tsplab/solver"
)

func init() {
	solver.Declare(AlgoAuto, solver.BackendGPU, device.WithGPUs{Declarer: solver.Inherit(AlgoAuto, solver.BackendCPU, autoOptions())})
}

// autoOptions are GPU auto's own options (the gpus option besides, as every
// GPU engine's): it ends with (or is, below its
// size threshold) the CPU auto engine and inherits that engine's; or-ils,
// which it starts with on large instances, keeps its own defaults but for
// its window (or-ils's option, declared once in orSpec) and wsegment.
func autoOptions() solver.OptionSet {
	window, _ := ils.OrSpec.Options(nil).Lookup(ils.OptWindow)
	own := solver.OptionSet{
		window,
		{Name: ils.OptWindowSegment, Kind: solver.KindInt, Min: 1, Max: 512, Default: "30",
			Doc: "GPU auto from 50,000 cities: most cities of a segment of the double-bridge kicks of or-ils's windows, before the CPU engine's first tour (from 200,000 cities) and beside its partition search (unset: 30)"},
		{Name: ils.OptBeside, Kind: solver.KindFloat, Min: 0, Max: 64, Auto: "1 below 200,000 cities unless clustered, else 4",
			Doc: "GPU auto from 50,000 cities: the workers' worth of the tour the GPU's windows improve at first beside the CPU engine's partition search, the share then following their gains (0: none)"},
	}
	for i := range own {
		own[i].Experimental = true
	}
	return own
}
