package gpu

import "github.com/tsplab/tsplab/solver"

// AlgoPop is GPU pop: the CPU pop engine with the GPU's block search
// (OpenTourPool) on copies of its pool's members beside the workers.
const AlgoPop = "pop"

// GPU pop takes CPU pop's options: those that set the GPU's rounds
// (gpuround, gpustart) are CPU pop's too, read only with a pool.
func init() {
	declareGPU(AlgoPop, solver.Inherit(AlgoPop, solver.BackendCPU, solver.OptionSet{}))
}
