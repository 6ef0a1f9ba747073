// Package cpu holds the CPU engines of TSP Lab, registered in the solver
// registry under the backend "cpu". Importing the package (for its side
// effects) registers them:
//
//	sa          light-weight simulated annealing, LWSA (Lam et al., Algorithm 2):
//	            one independent search per worker, the best kept
//	sspm        one search, Pm moves per iteration spread over the workers (Lam et al.'s SSPM)
//	pssm        Ps searches, global best exchanged every Se temperature steps (PSSM)
//	pspm        Blocks searches × Threads moves per iteration, global best every K steps
//	            (the CPU reference for the GPU engine of the same name)
//	2opt-climb  random-restart best-improvement 2-opt hill climbing (O'Neil and Burtscher)
//	swap-climb  random-restart best-improvement pair-exchange climbing (Luong et al.);
//	            with the tabu option, their tabu search of that many iterations
//	2opt-ils    iterated 2-opt + Or-opt local search with neighbour lists and
//	            don't-look bits (Rocki and Suda's algorithm done sequentially)
//	3opt-ils    iterated 3-opt local search, first improvement or random-k-best
//	            pivoting (Delévacq et al.)
//	auto        the strongest of them for a time budget, chosen by measurement
//
// Defaults. The simulated annealing engines take Lam et al.'s Table 1
// schedule (T0 10000, TEnd 0.1, alpha 0.99, N·10 iterations per step,
// exchange every K = 100 steps) and end with it; pspm runs Blocks =
// Workers searches of Threads = 32 moves per iteration (a warp, as the GPU
// engine). The climbers and the iterated local searches have no natural
// end and run DefaultTimeLimit (10 s) unless Params.TimeLimit or a budget
// in Params.Extra says otherwise. Result.Params holds the values used.
//
// Options. Each engine declares its options once on a config struct of
// its own (config.go: annealConfig for the annealers, climbConfig for the
// climbers; ilsconfig.go: ilsOptions for the iterated local searches),
// registered with solver.Declare and read in Solve through
// solver.Configure, which checks every value; `tsp engines --verbose`
// lists the stable ones and --all the experimental ones too.
//
// Phases. The iterated local searches start from a space-filling-curve
// tour at once (O(n log n), no distance evaluations), then build the
// candidate lists and the start tour (greedy or nearest neighbour) under a
// context that ends at the deadline, then descend and kick. Each phase is
// reported in Snapshot.Phase, with a snapshot of the best tour at least
// twice a second during set-up, so a run stopped in any phase returns the
// best tour it has, and a front end sees a tour within the first second
// even for a million cities.
//
// Limits. Every loop looks at the clock and the context on iterations
// (cities examined, kicks, scan rows), not only on counted moves, so runs
// whose moves are all cut short (identical points) still end in time; a
// tour of length 0 ends a run as done. Workers, blocks and threads are
// bounded by a memory budget for the searches' tours and by a count
// (errors name the option and the bound), and N·Sweeps saturates.
//
// Fixed edges (FIXED_EDGES_SECTION). 2opt-ils, 3opt-ils and auto keep them
// in every tour (start tours through construct.KeepFixed; no move and no
// kick removes one); the other engines refuse such instances, and
// solver.Run refuses engines that do not keep them before they run.
//
// Moves. The deltas come from package tour (tour.Dist and the
// Delta...Edges functions); the sequential move of 3opt-ils and auto is a
// chain of 2-opt steps, Lin–Kernighan style, of depth 1 (3-opt, the
// default) to 3 (5-opt) after its first step (option depth); it reads
// the further steps off the tour as the earlier ones would leave it (at
// depth 1 directly, deeper on a virtual tour of a few runs of the array,
// vtour.go), applying nothing until the move gains. Option or3opt adds the pure
// 3-opt moves that two 2-opt steps cannot make (a segment moved without
// reversal; two neighbouring segments reversed in place). Option move=lk5
// (auto's below 50,000 cities) takes instead, after 2-opt and Or-opt, the
// sequential 5-opt move of Lin–Kernighan–Helsgaun (kopt.go): t1..t10 over
// the candidate lists with positive partial gains, each close checked for
// one Hamiltonian cycle from the positions of its cities, applied as the
// fewest reversals of its segments; where no close gains, the step with
// the best partial gain is applied and the chain goes on from it, as long
// as the last edge each step removes is one the chain has not touched
// (Helsgaun's excludable edges).
//
// Defaults by size. auto's defaults that depend on the instance's size
// are one table, autoBySize (ilsconfig.go): below 15,000 cities, where
// each worker searches the whole tour, the pure 3-opt moves, escapes
// after 3·n stale kicks and nearest candidates for every worker; from
// 4,000 the crossover exchange, depth 2 and kicks of up to 200 cities;
// alpha-nearness lists (5 a city) from 10,000, the start tour improved on
// quadrant lists while the ascent behind them runs; from 15,000 the
// partition search's; the 5-opt move below 50,000.
// `tsp engines FILE` and solver.EffectiveOptions show them per instance;
// the measurements behind each row are in docs/PERF.md.
//
// Large instances. From 15,000 cities with coordinates auto runs the
// partition search with three workers or more (with two, below 50,000
// cities, the whole-tour searches) (partition.go, partregion.go, options partition,
// partseg, partkicks, partslice, partshape, partdeep): instead of one
// whole-tour search per worker, of which only the best survives, every
// round cuts the one tour into pieces and all workers improve their
// pieces at once (below about 1,000 cities a worker, fewer pieces, each
// searched by several workers, the best kept); the cut shifts every round and a
// descent over the cities next to other pieces follows. A piece is a
// segment of consecutive positions with fixed ends, or a cell of the
// plane whose tour paths are closed into one cycle by virtual fixed edges
// (a region: its search can join passes of the tour through the same
// area, which no segment holds together); auto takes the shape whose last
// round gained more per kick. Its searches make kicks of up to 200
// cities a segment and, after the first 10 kicks per city, 4-opt
// sequential moves (docs/PERF.md, "Partition search on pla85900").
//
// auto was chosen by measurement (tsp bench --suite cpu): on the 2-core
// development machine it is the strongest engine on every instance of the
// suite, ahead of 3opt-ils and 2opt-ils, and far ahead of the annealers
// and climbers, which are there to reproduce the papers.
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
// when it runs by its schedule or a step budget (not by time): each worker or
// search owns a PCG stream derived from the seed, and nothing depends on
// goroutine timing except where the run stops.
package cpu
