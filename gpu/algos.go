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

// The names of 2opt-climb's options (declared in options.go).
const (
	OptRestarts   = "restarts"
	OptClimbStart = "start"
)

// algorithm is one row of the GPU algorithm table.
type algorithm struct {
	name, desc string
	// anyMetric: the engine also takes other metrics through a distance matrix
	anyMetric bool
}

// algorithms is the table of GPU engines in menu order, registered by both
// builds; the CUDA build's solvers implement them.
var algorithms = []algorithm{
	{name: AlgoPSPM, desc: "PSPM simulated annealing with LWSA on the GPU (Lam et al.): blocks x threads relocation moves, device-side global best every k steps"},
	{name: AlgoSSPM, desc: "SSPM on the GPU: PSPM with one block (one search, threads parallel moves)"},
	{name: AlgoPSSM, desc: "PSSM on the GPU: PSPM with one thread per block (parallel searches, one move each)"},
	{name: AlgoTwoOptClimb, desc: "random-restart 2-opt hill climbing on the GPU (O'Neil & Burtscher): a resident block per climber, its tour in shared memory, the disjoint improving moves of each pass applied together, restarts on the device from randomized nearest-neighbour tours (option start=random: uniformly random tours, as the paper)"},
	{name: AlgoTwoOptILS, desc: "whole-neighbourhood 2-opt on the GPU inside iterated local search, many moves per pass, double-bridge kicks (Rocki & Suda)"},
	{name: AlgoAuto, desc: "the CPU auto engine on every core, with the Held–Karp ascent behind its alpha-nearness lists (1,000 to 50,000 cities) on the GPU; from 50,000 cities or-ils's windows (windowed 2-opt + Or-opt + 3-opt iterated local search on the GPU) improve a stretch of the tour, a share adapting to their gains, beside that engine's partition search; from 200,000 cities it starts from the greedy-edge tour built on the GPU, in runs under 25 µs a city descended to a 2-opt + Or-opt local optimum there (2opt-or), and or-ils gives the first tours until that engine's search begins, the better tour kept"},
	{name: AlgoPop, desc: "experimental: the CPU pop engine (a pool of tours kept diverse by edge distance, recombined by partition crossover, each child descended with auto's moves on one core) with the Held–Karp ascent on the GPU, and the GPU's block search (an iterated 2-opt + Or-opt + 3-opt search a warp, a tour each in shared memory, 10 to about 30,000 cities) on copies of the pool's members beside the workers, its gains offered to the pool every few hundred milliseconds"},
	{name: AlgoOrILS, desc: orILSDesc},
	{name: AlgoTourLS, desc: tourLSDesc},
	{name: AlgoThreeOptILS, anyMetric: true, desc: "3-opt iterated local search on the GPU (Delévacq et al.'s ILS-RKBI_blocks): threads sample 3-opt reconnections, blocks reduce, random-k-best replacement, double-bridge kicks"},
	{name: AlgoSwapClimb, anyMetric: true, desc: "random-restart best-improvement pair-exchange climbing on the GPU (Luong et al.): one thread per neighbour, index mapping, launch sizes tuned in waves"},
}

// The names of 3opt-ils's and swap-climb's options (options.go). dist's auto
// takes the coordinates for EUC_2D, CEIL_2D and ATT (float, faster than the
// matrix: docs/DECISIONS.md#gpu-dist), else the matrix up to MatrixMaxN cities.
const (
	OptDist   = "dist"
	OptRKBI   = "rkbi_k"
	OptKicks  = "kicks"
	OptTabu   = "tabu"
	OptTenure = "tenure"
	OptPer    = "per"
)

// MatrixMaxN is the largest n for which the engines build an n×n matrix.
const MatrixMaxN = 8192
