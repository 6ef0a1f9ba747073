// Package gpu runs the TSP engines on an NVIDIA GPU through the CUDA driver
// API (gorgonia.org/cu). It is built with the build tag "cuda"; without it
// the package is a stub whose engines report why they are missing. The
// engines are the rows of one table (algos.go), registered in init.
//
// Engines (backend "gpu"; names shared with the CPU engines):
//
//   - pspm, sspm, pssm: Lam et al.'s parallel simulated annealing with
//     LWSA (kernels/pspm.cu); sspm is one search, pssm one thread per search;
//     pspm's seg option adds Or-opt moves (the layouts' _seg kernels).
//   - 2opt-climb: O'Neil & Burtscher's random-restart 2-opt hill climbing,
//     a resident block per climber (kernels/climb.cu), or a batch of tours
//     for tours too large for a block's shared memory (kernels/twoopt.cu).
//   - 2opt-ils: Rocki & Suda's whole-neighbourhood GPU 2-opt inside
//     iterated local search, many disjoint moves applied per pass.
//   - 3opt-ils: Delévacq et al.'s 3-opt iterated local search with
//     random-k-best-improvement pivoting, kicks on the device
//     (kernels/threeopt.cu); ThreeOptPopulation runs their populations.
//   - swap-climb: Luong et al.'s pair-exchange neighbourhood, one thread per
//     neighbour (kernels/swap.cu): climbing, or their tabu search.
//   - or-ils: 2-opt + Or-opt iterated local search, sequential 3-opt where
//     those find nothing, in thousands of tour windows at once (kernels/oropt.cu, after LKH's tour-segment
//     partitioning), with global descents on the CPU between rounds.
//   - 2opt-or: 2-opt + Or-opt local search over the whole tour, every
//     city's moves over its nearest neighbours evaluated each pass and the
//     non-interfering improving ones applied together (kernels/tourls.cu),
//     from a Hilbert-curve or greedy-edge start built on the GPU
//     (kernels/glsgreedy.cu), to a local optimum.
//   - auto: the CPU auto engine with its Held–Karp ascent on the GPU; from
//     200,000 cities both it and or-ils (until that engine's first tour)
//     start from 2opt-or's local optimum (from the greedy start), and
//     or-ils's windows then improve a stretch of the tour beside that
//     engine's partition search
//     (beside_cuda.go, through solver.PathImprover).
//   - pop: the CPU pop engine with its ascent on the GPU and the block
//     search (OpenTourPool) on copies of its pool's members beside its
//     workers, the gains offered back to the pool (pop_cuda.go).
//
// OpenTourPool (solver.TourPool) and SolveBatch run kernels/blockils.cu,
// an iterated 2-opt + Or-opt (+ sequential 3-opt) search per warp on its
// own tour in shared memory, with segment kicks and better-or-equal
// acceptance: a population search's tours of one instance, or many small
// instances at once, one each.
//
// FIPopulation and FISequential run Delévacq et al.'s first-improvement
// ILS populations (kernels/fils.cu) on the GPU and on one core;
// BoundDevice runs solver/bound's subgradient ascent with Borůvka 1-trees
// in integer arithmetic (kernels/bound.cu), step for step the CPU's.
//
// Build: scripts/build-gpu.sh compiles gpu/kernels/*.cu into one fatbin
// that device_cuda.go embeds; kernels are looked up by name
// (registerKernels).
//
// Runs: every engine call opens a run (run_cuda.go), an OS thread with the
// context current, its own streams and allocations, so panes run side by
// side; a sticky fault marks the context, which is reset once its runs
// close.
//
// Devices: the option gpus (devices.go: all, a count or a list; a device
// named twice gets a second context of its own) picks the contexts of a
// run. pspm, sspm, pssm and 2opt-climb run a share of their searches on
// each, each through its own run; PSPM's host gathers the shares' bests at
// every synchronisation and gives the best of all to the others. A share
// whose context fails ends and the run goes on with the rest (Result.Note).
// The other engines run on GPU 0 and say so when more were selected.
//
// Exactness: kernels rank moves in float; every tour goes through
// solver.Finish (validated, length recomputed exactly), and the 2-opt
// engines re-check moves with exact integer deltas or polish on the CPU.
// 3opt-ils and swap-climb also take instances without coordinates, through
// a distance matrix; an instance an engine cannot take gets an error
// wrapping ErrUnsupported.
package gpu

// DeviceInfo describes one CUDA device.
type DeviceInfo struct {
	Name          string
	Major, Minor  int   // compute capability
	Multiprocs    int   // streaming multiprocessors
	GlobalMemory  int64 // bytes
	DriverVersion int
}
