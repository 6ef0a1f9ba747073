package gpu

import (
	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"
)

// AlgoPop is GPU pop: the CPU pop engine with the GPU's block search
// (OpenTourPool) on copies of its pool's members beside the workers.
const AlgoPop = "pop"

// GPU pop takes CPU pop's options (those that set the GPU's rounds,
// gpuround and gpustart, are CPU pop's, read only with a pool), all
// listed as experimental (gpus too), as the engine is.
func init() {
	solver.Declare(AlgoPop, solver.BackendGPU, experimental{device.WithGPUs{Declarer: solver.Inherit(AlgoPop, solver.BackendCPU, solver.OptionSet{})}})
}

// experimental is a Declarer whose options are all marked experimental.
type experimental struct{ solver.Declarer }

// Options returns d's options marked experimental.
func (d experimental) Options(in *solver.Instance) solver.OptionSet {
	opts := d.Declarer.Options(in)
	for i := range opts {
		opts[i].Experimental = true
	}
	return opts
}

// popParams returns p for the CPU pop engine: its backend.
func popParams(p solver.Params) solver.Params {
	q := p
	q.Backend = solver.BackendCPU
	return q
}
