package ils

import (
	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/lab"
	"github.com/tsplab/tsplab/solver"
)

// AlgoThreeOptILS is the GPU 3opt-ils, named as the CPU engine so the registry pairs them.
const AlgoThreeOptILS = "3opt-ils"

// The names of 3opt-ils's options (ils_options.go).
const (
	OptRKBI  = "rkbi_k"
	OptKicks = "kicks"
)

// threeOptEngine is the GPU 3opt-ils, which ThreeOptPopulation's runs finish as.
var threeOptEngine solver.Engine

// init registers the GPU engines of this package in this order.
func init() {
	solver.Register(device.NewEngine(AlgoOrILS, orILSDesc, false, orILSImpl))
	solver.Register(device.NewEngine(AlgoTourLS, tourLSDesc, false, tourLSImpl))
	threeOptEngine = lab.Register(device.NewEngine(AlgoThreeOptILS, "3-opt iterated local search on the GPU (Delévacq et al.'s ILS-RKBI_blocks): threads sample 3-opt reconnections, blocks reduce, random-k-best replacement, double-bridge kicks", true, threeOptImpl), device.WithGPUs{Declarer: ThreeOptSpec})
}
