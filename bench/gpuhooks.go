package bench

import (
	"context"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// GPU is what the GPU suites measure outside the engine interface: the
// 2-opt kernels timed alone and the paper reproductions' populations.
// Package gpu implements it in a build with CUDA and the command line
// passes it in Options.GPU (neither bench nor gpu imports the other); nil
// leaves the suites' GPU columns out with a note that says why.
type GPU interface {
	// EvalRate is the 2-opt evaluation kernel's rate (moves evaluated per
	// second) for n random cities over passes timed launches (passes <=
	// 0: as many as the GPU's batch size suggests).
	EvalRate(n, passes int, seed uint64) (KernelRate, error)
	// EvalBatch is the number of tours EvalRate evaluates per launch for
	// n cities.
	EvalBatch(n int) (int, error)
	// ClimbRate times the fused 2opt-climb kernel alone on in (climbs and
	// moves per second over window after a warm-up launch, and passes per
	// climb); it fails when the tour does not fit a block's shared memory.
	ClimbRate(in *solver.Instance, warm, window time.Duration, seed uint64) (KernelRate, error)
	// TwoOptDescent runs the GPU's whole-neighbourhood 2-opt (many
	// improving moves per pass, as in 2opt-ils) from start to its first
	// local minimum.
	TwoOptDescent(in *solver.Instance, start []int) (Descent, error)
	// OnePass times one 2-opt neighbourhood evaluation of t (median of
	// reps): the kernel, the tour's upload, the result's download.
	OnePass(in *solver.Instance, t []int, reps int) (PassTimes, error)
	// ThreeOptPopulation runs pop.Solutions GPU 3opt-ils searches of
	// pop.Kicks kicks each (pop.Blocks × pop.Threads per solution) in
	// shared launches.
	ThreeOptPopulation(ctx context.Context, in *solver.Instance, pop Population) (PopulationResult, error)
	// FIPopulation runs a population of first-improvement ILS searches on
	// the GPU in mapping pop.Mode ("thread", "block-global",
	// "block-shared").
	FIPopulation(in *solver.Instance, pop Population) (PopulationResult, error)
	// FISequential runs searches first..first+count-1 of FIPopulation's
	// population one after the other on one core.
	FISequential(in *solver.Instance, first, count int, pop Population) (PopulationResult, error)
}

// Population is a population of independent searches of Kicks kicks each
// (gpu.Population, field for field).
type Population struct {
	Solutions       int
	Kicks           int
	Seed            uint64
	Mode            string
	Dist            string
	Blocks, Threads int
}

// PopulationResult is a population's best tour, its exact length, the
// kicks made, the time and the device (gpu.PopulationResult).
type PopulationResult struct {
	Tour    []int
	Length  int64
	Kicks   int64
	Elapsed time.Duration
	Device  string
}

// Descent is a local search run to its minimum (gpu.Descent).
type Descent struct {
	Tour          []int
	Passes, Moves int64
	Elapsed       time.Duration
	Device        string
}

// PassTimes is one 2-opt pass's kernel, upload and download times
// (gpu.PassTimes).
type PassTimes struct {
	Kernel, Upload, Download time.Duration
	Device                   string
}

// KernelRate is a kernel timed alone (gpu.KernelRate).
type KernelRate struct {
	MovesPerSec    float64
	ClimbsPerSec   float64
	PassesPerClimb float64
	Device         string
}
