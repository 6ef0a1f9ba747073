// Package anneal holds the CPU simulated annealers, registered in the
// solver registry under the backend "cpu" when the package is imported
// (solver/cpu imports it):
//
//	sa    light-weight simulated annealing, LWSA (Lam et al., Algorithm 2):
//	      one independent search per worker, the best kept
//	sspm  one search, Pm moves per iteration spread over the workers (SSPM)
//	pssm  Ps searches, global best exchanged every Se temperature steps (PSSM)
//	pspm  Blocks searches × Threads moves per iteration, global best every K
//	      steps; with the seg option, Or-opt moves of 2 or 3 cities too (saseg.go)
//
// They take Lam et al.'s Table 1 schedule and end with it, deterministic
// for a seed and a number of workers when no time limit cuts them short.
package anneal
