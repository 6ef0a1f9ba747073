// Package gpu runs the TSP engines on an NVIDIA GPU through the CUDA driver
// API (gorgonia.org/cu). It is built with the build tag "cuda"; without it
// the package is a stub whose engines report why they are missing.
//
// The engines are the rows of one table (algos.go); engine.go registers
// every row with the solver registry in init, so importing this package for
// its side effect is all a caller does.
//
// Engines (backend "gpu"; names shared with the CPU engines):
//
//   - pspm, sspm, pssm: Lam et al.'s parallel simulated annealing with
//     LWSA (kernels/pspm.cu). sspm is PSPM with one search, pssm with one
//     thread per search. Moves are drawn uniformly (the paper's draw) or,
//     by default below a temperature set from the instance's neighbour
//     distances, half of them beside one of c's nearest cities (option
//     draw).
//   - 2opt-climb: O'Neil & Burtscher's random-restart 2-opt hill climbing:
//     a resident block per climber runs climb after climb with its tour in
//     shared memory (kernels/climb.cu); tours too large for one block's
//     shared memory run a climber per tour of a batch (kernels/twoopt.cu,
//     twoopt_apply), restarted from randomized nearest-neighbour tours built
//     on the host up to 200,000 cities.
//   - 2opt-ils: Rocki & Suda's whole-neighbourhood GPU 2-opt inside
//     iterated local search, many disjoint moves applied per pass.
//   - 3opt-ils: Delévacq et al.'s 3-opt iterated local search with
//     random-k-best-improvement pivoting (kernels/threeopt.cu); the kick
//     and the acceptance run on the device too (loop=host: on the host),
//     and ThreeOptPopulation runs their populations in shared launches.
//   - swap-climb: Luong et al.'s generic GPU local search with the
//     pair-exchange neighbourhood, one thread per neighbour
//     (kernels/swap.cu): random-restart climbing, or with the tabu option
//     their tabu search, the whole iteration on the device.
//   - or-ils: iterated 2-opt + Or-opt local search in thousands of tour
//     windows at once, a warp per window with its end cities fixed
//     (kernels/oropt.cu, after LKH's tour-segment partitioning), global
//     2-opt and Or-opt descents on the CPU between rounds.
//   - auto: the CPU auto engine, its Held–Karp ascent on the GPU; from
//     200,000 cities or-ils until that engine's first tour.
//
// Besides the engines, FIPopulation runs Delévacq et al.'s
// first-improvement ILS as a population of independent searches in one
// launch, a thread or a block per solution (kernels/fils.cu), and
// FISequential the same searches on one core, for the delevacq suite's
// Table 1. BoundDevice runs the Held–Karp lower bound's
// subgradient ascent of solver/bound on the GPU: Borůvka minimum 1-trees
// of the sparse candidate graph in integer arithmetic (kernels/bound.cu),
// step for step the CPU's; the proof on the complete graph stays on the
// host.
//
// Build: scripts/build-gpu.sh compiles gpu/kernels/*.cu into one fatbin
// (SASS sm_70/80/90 + PTX) that device_cuda.go embeds; the kernels are
// looked up by name through a registry (registerKernels) when the
// process's CUDA context (the device's primary context) is loaded.
//
// Runs: every engine call opens a run (run_cuda.go): an OS thread of its
// own with the context current, where all of the run's CUDA calls execute
// in order (run.do), a kernel stream and a copy stream, and the run's
// allocations, freed when it closes. Runs share nothing else, so a CPU
// pane, a GPU pane or two GPU panes run at the same time without waiting
// on each other. A refused launch or allocation ends its run with one
// error line; a sticky fault (an illegal address, say) also marks the
// context, which is reset once the runs using it have closed.
//
// Exactness: kernels rank moves in float; every tour an engine returns
// goes through solver.Finish (validated, length recomputed with exact
// integer TSPLIB distances), the 2-opt engines re-check every move the GPU
// proposes with exact integer deltas before applying it on the CPU, or
// polish the climbers' result with exact 2-opt. The 2-opt and PSPM engines
// take coordinate instances with EUC_2D, CEIL_2D or ATT distances; 3opt-ils
// and swap-climb also others, through a distance matrix. An instance an
// engine cannot take gets an error wrapping ErrUnsupported.
package gpu

// DeviceInfo describes one CUDA device.
type DeviceInfo struct {
	Name          string
	Major, Minor  int   // compute capability
	Multiprocs    int   // streaming multiprocessors
	GlobalMemory  int64 // bytes
	DriverVersion int
}
