package gpu

import "github.com/tsplab/tsplab/solver"

// Algorithm names of the GPU engines; they are shared with the CPU engines
// so the registry pairs them (solver.Resolve picks the backend).
const (
	AlgoPSPM        = "pspm"
	AlgoSSPM        = "sspm"
	AlgoPSSM        = "pssm"
	AlgoTwoOptClimb = "2opt-climb"
	AlgoTwoOptILS   = "2opt-ils"
	AlgoAuto        = "auto"
)

// algorithms lists every GPU engine with its menu description, in the
// order the stub and the CUDA build register them.
var algorithms = []struct{ name, desc string }{
	{AlgoPSPM, "PSPM simulated annealing with LWSA on the GPU (Lam et al.): blocks x threads relocation moves, device-side global best every k steps"},
	{AlgoSSPM, "SSPM on the GPU: PSPM with one block (one search, threads parallel moves)"},
	{AlgoPSSM, "PSSM on the GPU: PSPM with one thread per block (parallel searches, one move each)"},
	{AlgoTwoOptClimb, "random-restart best-improvement 2-opt, a climber per tour on the GPU (O'Neil & Burtscher)"},
	{AlgoTwoOptILS, "whole-neighbourhood 2-opt on the GPU inside iterated local search, many moves per pass, double-bridge kicks (Rocki & Suda)"},
	{AlgoAuto, "from 10,000 cities a GPU 2-opt descent from a greedy tour, then the CPU auto engine for the rest of the time; below that the CPU auto engine alone (measured better)"},
}

// base carries the registry identity shared by stub and real engines.
type base struct{ name, desc string }

// Name returns the algorithm's registry name.
func (b base) Name() string { return b.name }

// Backend returns solver.BackendGPU.
func (b base) Backend() string { return solver.BackendGPU }

// Describe returns the one-line description.
func (b base) Describe() string { return b.desc }
