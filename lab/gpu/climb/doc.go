// Package climb holds the GPU's 2-opt and pair-exchange engines:
//
//   - 2opt-climb: random-restart 2-opt hill climbing after O'Neil and
//     Burtscher, "Rethinking the parallelization of random-restart hill
//     climbing: a case study in optimizing a 2-opt TSP solver for GPU
//     execution" (GPGPU-8, 2015): a resident block per climber, its tour
//     in shared memory (climb.cu), or a batch of tours for tours too large
//     for a block's shared memory (twoopt.cu).
//   - 2opt-ils: the whole-neighbourhood 2-opt of Rocki and Suda,
//     "Accelerating 2-opt and 3-opt local search using GPU in the
//     travelling salesman problem" (CCGrid 2012), inside iterated local
//     search, many disjoint moves applied per pass (twoopt.cu).
//   - swap-climb: the pair-exchange neighbourhood of Luong, Melab and
//     Talbi, "GPU computing for parallel local search metaheuristic
//     algorithms" (IEEE Trans. Computers 62(1), 2013), one thread per
//     neighbour (swap.cu): climbing, or their tabu search.
//
// The bench suites' kernel measurements of 2-opt (EvalRate, ClimbRate,
// TwoOptDescent, OnePass) live here too.
package climb
