package bench

import (
	"context"
	"time"

	"github.com/tsplab/tsplab/internal/benchgpu"
	"github.com/tsplab/tsplab/solver"
)

// GPU is what the GPU suites measure outside the engine interface; cmd/tsp passes package gpu's in Options.GPU, and nil leaves the GPU columns out.
type GPU interface {
	// EvalRate is the 2-opt evaluation kernel's moves per second for n random cities over passes timed launches (<= 0: as the batch size suggests).
	EvalRate(n, passes int, seed uint64) (KernelRate, error)
	// EvalBatch is the number of tours EvalRate evaluates per launch for n cities.
	EvalBatch(n int) (int, error)
	// ClimbRate times the fused 2opt-climb kernel alone on in over window after a warm-up; it fails when the tour does not fit a block's shared memory.
	ClimbRate(in *solver.Instance, warm, window time.Duration, seed uint64) (KernelRate, error)
	// TwoOptDescent runs the GPU's whole-neighbourhood 2-opt (2opt-ils's) from start to its first local minimum.
	TwoOptDescent(in *solver.Instance, start []int) (Descent, error)
	// OnePass times one 2-opt neighbourhood evaluation of t (median of reps): the kernel, the tour's upload, the result's download.
	OnePass(in *solver.Instance, t []int, reps int) (PassTimes, error)
	// ThreeOptPopulation runs pop.Solutions GPU 3opt-ils searches of pop.Kicks kicks each (pop.Blocks × pop.Threads per search) in shared launches.
	ThreeOptPopulation(ctx context.Context, in *solver.Instance, pop Population) (PopulationResult, error)
	// FIPopulation runs a population of first-improvement ILS searches on the GPU in mapping pop.Mode.
	FIPopulation(in *solver.Instance, pop Population) (PopulationResult, error)
	// FISequential runs searches first..first+count-1 of FIPopulation's population one after the other on one core.
	FISequential(in *solver.Instance, first, count int, pop Population) (PopulationResult, error)
}

// The GPU's results, as package gpu returns them.
type (
	Population       = benchgpu.Population
	PopulationResult = benchgpu.PopulationResult
	Descent          = benchgpu.Descent
	PassTimes        = benchgpu.PassTimes
	KernelRate       = benchgpu.KernelRate
)
