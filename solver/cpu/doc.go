// Package cpu holds the CPU engines of TSP Lab, registered in the solver
// registry under the backend "cpu" when the package is imported:
//
//	sa          light-weight simulated annealing, LWSA (Lam et al., Algorithm 2):
//	            one independent search per worker, the best kept
//	sspm        one search, Pm moves per iteration spread over the workers (Lam et al.'s SSPM)
//	pssm        Ps searches, global best exchanged every Se temperature steps (PSSM)
//	pspm        Blocks searches × Threads moves per iteration, global best every K steps
//	            (the CPU reference for the GPU engine of the same name); with
//	            the seg option, Or-opt moves of 2 or 3 cities too (lab/cpu/anneal/saseg.go)
//	2opt-climb  random-restart best-improvement 2-opt hill climbing (O'Neil and Burtscher)
//	swap-climb  random-restart best-improvement pair-exchange climbing (Luong et al.);
//	            with the tabu option, their tabu search of that many iterations
//	2opt-ils    iterated 2-opt + Or-opt local search with neighbour lists and
//	            don't-look bits (Rocki and Suda's algorithm done sequentially)
//	3opt-ils    iterated 3-opt local search, first improvement or random-k-best
//	            pivoting (Delévacq et al.)
//	auto        the strongest of them for a time budget, chosen by measurement
//	            (docs/DECISIONS.md#size-table); from 50,000 cities it runs the
//	            partition search (solver/cpu/partition), all workers on pieces of one tour
//
// The climbers live in lab/cpu/climb, the annealers in lab/cpu/anneal,
// the iterated local searches in solver/cpu/ils, their partition search in
// solver/cpu/partition, the local-search core in solver/cpu/localsearch, the
// pop engine in solver/cpu/population; this package imports them all (the
// papers' engines, all but auto and pop, register through package lab).
// The annealers take Lam et al.'s Table 1 schedule and end with it; the
// climbers and the iterated local searches declare DefaultTimeLimit as
// their default limit (solver.DefaultLimiter, applied by solver.RunAided)
// unless a budget says otherwise. Each engine declares its options
// on a config struct (lab/cpu/anneal/config.go, lab/cpu/climb/config.go, ils/config.go) read through
// solver.Configure. Every phase reports itself in Snapshot.Phase and
// honours the deadline and the context. 2opt-ils, 3opt-ils and auto keep
// fixed edges; the other engines refuse instances that have some.
//
// References:
//
//   - Y. M. Lam et al., "Parallel neighbourhood search on many-core
//     platforms" (venue and year not printed; its latest reference is from
//     2011): LWSA, SSPM, PSSM and PSPM on an NVIDIA Tesla C2050; Table 1
//     gives the default schedule. The other files cite it as "Lam et al.".
//   - O'Neil, Burtscher: "Rethinking the parallelization of random-restart
//     hill climbing: a case study in optimizing a 2-opt TSP solver for GPU
//     execution", GPGPU-8, 2015.
//   - Rocki, Suda: "Accelerating 2-opt and 3-opt local search using GPU in
//     the travelling salesman problem", CCGrid 2012.
//   - Delévacq, Delisle, Krajecki: "Parallel GPU implementation of iterated
//     local search for the travelling salesman problem", LION 6, 2012.
//   - Luong, Melab, Talbi: "GPU computing for parallel local search
//     metaheuristic algorithms", IEEE Trans. Computers 62(1), 2013.
//
// Every engine is deterministic for a given Params.Seed and Params.Workers
// when it runs by its schedule or a step budget (not by time): each worker
// or search owns a PCG stream derived from the seed.
package cpu
