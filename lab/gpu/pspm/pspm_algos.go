package pspm

import (
	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/lab"
)

// The GPU annealers' names, shared with the CPU engines.
const (
	AlgoPSPM = "pspm"
	AlgoSSPM = "sspm"
	AlgoPSSM = "pssm"
)

func init() {
	lab.Register(device.NewEngine(AlgoPSPM, "PSPM simulated annealing with LWSA on the GPU (Lam et al.): blocks x threads relocation moves, device-side global best every k steps", false, pspmImpl), device.WithGPUs{Declarer: PspmSpecs[AlgoPSPM]})
	lab.Register(device.NewEngine(AlgoSSPM, "SSPM on the GPU: PSPM with one block (one search, threads parallel moves)", false, sspmImpl), device.WithGPUs{Declarer: PspmSpecs[AlgoSSPM]})
	lab.Register(device.NewEngine(AlgoPSSM, "PSSM on the GPU: PSPM with one thread per block (parallel searches, one move each)", false, pssmImpl), device.WithGPUs{Declarer: PspmSpecs[AlgoPSSM]})
}
