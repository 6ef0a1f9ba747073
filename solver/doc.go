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
//
// Settings are one table for both backends: every engine's options (the
// Params fields it reads and its Params.Extra keys) with type, default,
// range and meaning (OptionsFor, EffectiveOptions for an instance and a
// device), one parser (Params.Set) and one check (Validate, returning a
// *ParamError that names the flag and the range). Front ends run an engine
// through Run, which checks the settings and records in Result.StopReason
// why the run ended.
package solver
