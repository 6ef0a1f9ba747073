// Package gpu runs the TSP engines on an NVIDIA GPU through the CUDA driver
// API (gorgonia.org/cu). It is built with the build tag "cuda"; without it
// every engine is still registered and reports why it is missing.
// Importing this package registers every GPU engine: the engine families
// register themselves, and this package adds GPU auto and GPU pop, which
// compose the CPU engines with the GPU's aids, and hands the run pipeline
// the GPU bound device (device.Ascent).
//
// Engines (backend "gpu"; names shared with the CPU engines; the papers'
// through package lab's registration), by package:
//
//   - lab/gpu/pspm: pspm, sspm, pssm, Lam et al.'s parallel simulated
//     annealing with LWSA.
//   - lab/gpu/climb: 2opt-climb (O'Neil & Burtscher), 2opt-ils (Rocki &
//     Suda), swap-climb (Luong et al.).
//   - gpu/ils: or-ils (windowed iterated local search after LKH's
//     tour-segment partitioning), 2opt-or (whole-tour 2-opt + Or-opt from a
//     greedy or space-filling-curve start), 3opt-ils (Delévacq et al.), and
//     the windows beside the CPU engine's partition search.
//   - this package: auto, the CPU auto engine with its Held–Karp ascent on
//     the GPU; from 200,000 cities both it and or-ils (until that engine's
//     first tour) start from 2opt-or's local optimum (from the greedy
//     start), and or-ils's windows then improve a stretch of the tour
//     beside that engine's partition search (through solver.PathImprover);
//     pop, the CPU pop engine with its ascent on the GPU and the block
//     search (gpu/blockils's OpenTourPool) on copies of its pool's members
//     beside its workers, the gains offered back to the pool (pop_cuda.go).
//
// The aids the CPU search uses: gpu/ascent (the Held–Karp ascent's
// device), gpu/blockils (the block search: a population's tours of one
// instance, or many small instances at once), gpu/ils's path windows.
// gpu/device holds what every engine shares: contexts, runs, memory,
// kernel loading from the one embedded fatbin, the engine type and its
// registration, the gpus option.
//
// Devices: the option gpus (gpu/device: all, a count or a list; a device
// named twice gets a second context of its own) picks the contexts of a
// run. pspm, sspm, pssm and 2opt-climb run a share of their searches on
// each, each through its own run; PSPM's host gathers the shares' bests at
// every synchronisation and gives the best of all to the others. A share
// whose context fails ends and the run goes on with the rest (a warning in Result.Account).
// 2opt-ils, 3opt-ils, 2opt-or and swap-climb run an independent search on
// each, the shortest kept; auto puts its windows beside the CPU search on
// each and the rest of its work on GPU 0; pop and or-ils run on GPU 0 and
// say so when more were selected.
//
// Exactness: kernels rank moves in float; every tour goes through
// solver.Finish (validated, length recomputed exactly), and the 2-opt
// engines re-check moves with exact integer deltas or polish on the CPU.
// 3opt-ils and swap-climb also take instances without coordinates, through
// a distance matrix; an instance an engine cannot take gets an error
// wrapping device.ErrUnsupported.
package gpu
