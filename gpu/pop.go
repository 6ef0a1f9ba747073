package gpu

import (
	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/cpu/population"
)

// AlgoPop is GPU pop: CPU pop with the GPU's block search on copies of its pool's members.
const AlgoPop = "pop"

// GPU pop takes CPU pop's options and gpus.
func init() {
	solver.Declare(AlgoPop, solver.BackendGPU, device.WithGPUs{Declarer: population.Options})
}

// popParams returns p for the CPU pop engine: its backend.
func popParams(p solver.Params) solver.Params {
	q := p
	q.Backend = solver.BackendCPU
	return q
}
