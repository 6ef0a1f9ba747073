// Package solver holds the symmetric travelling salesman problem itself:
// instances and their TSPLIB95 distance functions, tours, the engine
// interface with its registry, and (in sub-packages) the TSPLIB reader,
// tour moves, construction heuristics and the CPU engines.
//
// Distances follow G. Reinelt, "TSPLIB 95" (Universität Heidelberg, 1995),
// section 2: every distance is an integer, computed exactly as the
// specification's C fragments do.
//
// solver knows nothing of Fyne or CUDA: the GPU engines in package gpu and
// the CPU engines implement the same Engine interface, so callers never
// branch on the backend.
package solver
