// Package climb holds the CPU hill climbers, registered in the solver
// registry under the backend "cpu" when the package is imported (solver/cpu
// imports it):
//
//	2opt-climb  random-restart best-improvement 2-opt hill climbing (O'Neil and Burtscher)
//	swap-climb  random-restart best-improvement pair-exchange climbing (Luong et al.);
//	            with the tabu option, their tabu search of that many iterations
//
// Each worker climbs from its own start tours; a restarts budget (no time
// limit) makes a run deterministic for a seed and a number of workers.
package climb
