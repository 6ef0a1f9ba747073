package gpu

import "github.com/tsplab/tsplab/solver"

// shadowOn tells whether GPU auto's windows search a copy of the whole
// tour beside the partition search's rounds (OptShadow) instead of a
// stretch beside its workers.
func shadowOn(p solver.Params) bool {
	v, err := solver.OptionsFor(AlgoAuto, solver.BackendGPU).Int(p, OptShadow)
	return err == nil && v > 0
}
