// Package ils holds the GPU's iterated local searches over candidate
// lists:
//
//   - or-ils: 2-opt + Or-opt iterated local search, sequential 3-opt where
//     those find nothing, in thousands of tour windows at once (oropt.cu,
//     after LKH's tour-segment partitioning: Helsgaun, "An effective
//     implementation of the Lin–Kernighan traveling salesman heuristic",
//     European Journal of Operational Research 126, 2000), with global descents on the CPU between rounds; its
//     windows also improve a path beside the CPU engine's partition search
//     (PathWindows, beside_cuda.go).
//   - 2opt-or: 2-opt + Or-opt local search over the whole tour, every
//     city's moves over its nearest neighbours evaluated each pass and the
//     non-interfering improving ones applied together (tourls.cu), from a
//     Hilbert-curve or greedy-edge start built on the GPU (glsgreedy.cu).
//   - 3opt-ils: the 3-opt iterated local search with random-k-best
//     improvement of Delévacq, Delisle and Krajecki, "Parallel GPU
//     implementation of iterated local search for the travelling salesman
//     problem" (LION 6, 2012), kicks on the device (threeopt.cu);
//     ThreeOptPopulation runs their populations, FIPopulation and
//     FISequential their first-improvement populations (fils.cu) on the
//     GPU and on one core.
package ils
