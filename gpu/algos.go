package gpu

// Algorithm names of the GPU engines; they are shared with the CPU engines
// so the registry pairs them (solver.Resolve picks the backend).
const (
	AlgoPSPM        = "pspm"
	AlgoSSPM        = "sspm"
	AlgoPSSM        = "pssm"
	AlgoTwoOptClimb = "2opt-climb"
	AlgoTwoOptILS   = "2opt-ils"
	AlgoThreeOptILS = "3opt-ils"
	AlgoSwapClimb   = "swap-climb"
	AlgoAuto        = "auto"
)

// OptRestarts is 2opt-climb's bound on the climbs of a run (0: until the
// time limit), as on the CPU.
const OptRestarts = "restarts"

// OptPick is 2opt-climb's rule for the moves a climber applies per pass of
// the fused kernel: "disjoint", "best" or "spread" (solver/options.go).
const OptPick = "pick"

// OptClimbStart is 2opt-climb's start tours: "nn" (randomized nearest
// neighbour) or "random" (uniformly random, as O'Neil & Burtscher); see
// solver/options.go.
const OptClimbStart = "start"

// algorithm is one row of the GPU algorithm table: the registry name, the
// menu description, and which instances the engine takes.
type algorithm struct {
	name, desc string
	// anyMetric: the engine also runs instances without coordinates or with
	// a metric the kernels do not compute, through an n×n distance matrix
	// in device memory; the others need EUC_2D, CEIL_2D or ATT coordinates.
	anyMetric bool
}

// algorithms is the one table of GPU engines, in registration (menu) order.
// Both builds register every row (engine.go); the CUDA build pairs each
// name with its solve function (solvers in engines_cuda.go).
var algorithms = []algorithm{
	{name: AlgoPSPM, desc: "PSPM simulated annealing with LWSA on the GPU (Lam et al.): blocks x threads relocation moves, device-side global best every k steps"},
	{name: AlgoSSPM, desc: "SSPM on the GPU: PSPM with one block (one search, threads parallel moves)"},
	{name: AlgoPSSM, desc: "PSSM on the GPU: PSPM with one thread per block (parallel searches, one move each)"},
	{name: AlgoTwoOptClimb, desc: "random-restart 2-opt hill climbing on the GPU (O'Neil & Burtscher): a resident block per climber, its tour in shared memory, the disjoint improving moves of each pass applied together, restarts on the device from randomized nearest-neighbour tours (option start=random: uniformly random tours, as the paper)"},
	{name: AlgoTwoOptILS, desc: "whole-neighbourhood 2-opt on the GPU inside iterated local search, many moves per pass, double-bridge kicks (Rocki & Suda)"},
	{name: AlgoAuto, desc: "the CPU auto engine on every core, with the Held–Karp ascent behind its alpha-nearness lists (10,000 to 15,000 cities) on the GPU; from 200,000 cities or-ils (windowed 2-opt + Or-opt iterated local search on the GPU) gives the first tours while that engine builds its start tour, the better tour kept"},
	{name: AlgoOrILS, desc: orILSDesc},
	{name: AlgoThreeOptILS, anyMetric: true, desc: "3-opt iterated local search on the GPU (Delévacq et al.'s ILS-RKBI_blocks): threads sample 3-opt reconnections, blocks reduce, random-k-best replacement, double-bridge kicks"},
	{name: AlgoSwapClimb, anyMetric: true, desc: "random-restart best-improvement pair-exchange climbing on the GPU (Luong et al.): one thread per neighbour, index mapping, launch sizes tuned in waves"},
}

// Options read from solver.Params.Extra by the GPU 3opt-ils and swap-climb
// engines.
const (
	// OptDist selects the kernels' distances: "coords" (computed from the
	// coordinates in float, as the 2-opt kernels do: off by one in about 2
	// of 10^4 pairs), "matrix" (the exact integer matrix in device memory,
	// as Luong et al. keep it) or "" (coordinates for EUC_2D, CEIL_2D and
	// ATT, measured faster than the matrix, docs/PERF.md;
	// the matrix for other metrics and EXPLICIT instances, up to MatrixMaxN
	// cities unless the instance carries its matrix).
	OptDist = "dist"
	// OptRKBI is k of 3opt-ils's random-k-best-improvement replacement
	// (1 = best improvement; default 3, at most 8).
	OptRKBI = "rkbi_k"
	// OptSamples is the 3-opt samples per thread per evaluation (default 4).
	OptSamples = "samples"
	// OptLoop is where 3opt-ils's iterated local search runs: "device"
	// (the default: the replacement kernel ends the local search, accepts
	// and kicks, so a run is queued rounds) or "host" (the tour comes back
	// for every kick).
	OptLoop = "loop"
	// OptKicks bounds 3opt-ils's kicks (ILS iterations; 0: until the time
	// limit): Delévacq et al.'s per-solution iteration budget it_lim.
	OptKicks = "kicks"
	// OptTabu makes swap-climb one tabu search of that many iterations
	// (Luong et al.'s protocol: 10,000); 0 climbs with random restarts.
	OptTabu = "tabu"
	// OptTenure is the iterations for which a swapped pair of positions
	// stays tabu (default solver.TabuTenure).
	OptTenure = "tenure"
	// OptPer is the moves each thread of the tabu search's evaluation takes
	// (1: one thread per neighbour, Luong et al.'s mapping; 0: tuned with
	// the block size by the thread control, or 1 with a fixed --threads).
	OptPer = "per"
)

// MatrixMaxN is the largest n for which the swap and 3-opt engines build
// an n×n distance matrix (256 MiB of int32) for a metric the kernels do
// not compute.
const MatrixMaxN = 8192
