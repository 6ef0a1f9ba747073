package gpu

// Algorithm names of the engines of the second GPU issue: 3-opt iterated
// local search (Delévacq et al.) and swap hill climbing (Luong et al.).
// They are shared with the CPU engines of the same names.
const (
	AlgoThreeOptILS = "3opt-ils"
	AlgoSwapClimb   = "swap-climb"
)

// extraAlgorithms lists them with their menu descriptions, in the order
// the stub and the CUDA build register them.
var extraAlgorithms = []struct{ name, desc string }{
	{AlgoThreeOptILS, "3-opt iterated local search on the GPU (Delévacq et al.'s ILS-RKBI_blocks): threads sample 3-opt reconnections, blocks reduce, random-k-best replacement, double-bridge kicks"},
	{AlgoSwapClimb, "random-restart best-improvement pair-exchange climbing on the GPU (Luong et al.): one thread per neighbour, index mapping, launch sizes tuned in waves"},
}

// Options read from solver.Params.Extra by the GPU 3opt-ils and swap-climb
// engines.
const (
	// OptDist selects the kernels' distances: "coords" (computed from the
	// coordinates in float, as the 2-opt kernels do: off by one in about 2
	// of 10^4 pairs), "matrix" (the exact integer matrix in device memory,
	// as Luong et al. keep it) or "" (coordinates for EUC_2D, CEIL_2D and
	// ATT, measured twice as fast as the matrix at 3,000 cities on an H100;
	// the matrix for other metrics and EXPLICIT instances, up to MatrixMaxN
	// cities unless the instance carries its matrix).
	OptDist = "dist"
	// OptRKBI is k of 3opt-ils's random-k-best-improvement replacement
	// (1 = best improvement; default 3, at most 8).
	OptRKBI = "rkbi_k"
	// OptSamples is the 3-opt samples per thread per evaluation (default 4).
	OptSamples = "samples"
)

// MatrixMaxN is the largest n for which the swap and 3-opt engines build
// an n×n distance matrix (256 MiB of int32) for a metric the kernels do
// not compute.
const MatrixMaxN = 8192
