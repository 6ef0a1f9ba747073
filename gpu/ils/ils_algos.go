package ils

import (
	"github.com/tsplab/tsplab/gpu/device"
)

// AlgoThreeOptILS is the GPU 3opt-ils, shared with the CPU engine of the
// name so the registry pairs them.
const AlgoThreeOptILS = "3opt-ils"

// The names of 3opt-ils's options (ils_options.go).
const (
	OptRKBI  = "rkbi_k"
	OptKicks = "kicks"
)

// The GPU engines of this package, registered in this order; threeOptEngine
// is kept for the population runs (ThreeOptPopulation) that finish as it
// does.
var (
	_              = device.Register(AlgoOrILS, orILSDesc, false)
	_              = device.Register(AlgoTourLS, tourLSDesc, false)
	threeOptEngine = device.Register(AlgoThreeOptILS, "3-opt iterated local search on the GPU (Delévacq et al.'s ILS-RKBI_blocks): threads sample 3-opt reconnections, blocks reduce, random-k-best replacement, double-bridge kicks", true)
)
