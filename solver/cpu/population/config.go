package population

import (
	"math"

	"github.com/tsplab/tsplab/solver"
)

// Config is one run's settings of pop, each field the option of its name.
type Config struct {
	Workers int // 0: all cores
	Pool    int
	Kicks   int
	Rounds  int
	Init    float64
	Merge   bool
	GA      int
	// with an accelerator's pool (solver.Aid.Pool: GPU pop)
	GPURound int // milliseconds
}

// spec declares the engine's options.
var spec = solver.NewSpec(
	solver.SharedInt("workers", func(o *Config) *int { return &o.Workers }).Auto("all cores"),
	solver.Int("pool", func(o *Config) *int { return &o.Pool }, 8, 2, 256,
		"tours the pool keeps; a new tour replaces the member closest to it by edge distance, only if shorter, and never enters twice"),
	solver.Int("kicks", func(o *Config) *int { return &o.Kicks }, 0, 0, math.MaxInt32,
		"kicks of each local search (0: each runs for its time slice); with no time limit the run is deterministic and ends after its rounds"),
	solver.Int("rounds", func(o *Config) *int { return &o.Rounds }, 0, 0, math.MaxInt32,
		"rounds of one local search per worker (0: until the time limit, or 12 with a kicks budget and no time limit)"),
	solver.Float("init", func(o *Config) *float64 { return &o.Init }, 0.3, 0, 1,
		"share of the time limit the pool's first tours take together").Experimental(),
	solver.Bool("merge", func(o *Config) *bool { return &o.Merge }, true,
		"cross each search's tour with every pool member in turn before it is offered, keeping each child shorter than it").Experimental(),
	solver.Int("ga", func(o *Config) *int { return &o.GA }, 300, 0, 10000,
		"most tours of the EAX population built first (descents of randomized nearest-neighbour tours, as many as the init share of the time allows, and with a GPU pool up to as many more, one a GPU slot, from its searches for the same share; all of them in a run by a kicks budget) and evolved by edge assembly crossover, one AB-cycle a child, until it converges; in a timed run a new population with the best so far follows while half the time is left; the pool then takes them (0: none)"),
	solver.Int("gpuround", func(o *Config) *int { return &o.GPURound }, 300, 20, 60000,
		"with a GPU pool (GPU pop): milliseconds of each round of the GPU's searches on copies of the pool's members, whose gains the pool then takes").Experimental(),
)

// cpuSpec is CPU pop's options: those of a GPU pool aside.
var cpuSpec = spec.Fixed("gpuround")

// gpuSpec is GPU pop's options: the pool's experiments aside, the GPU pool's in.
var gpuSpec = spec.Fixed("init", "merge")

func init() {
	solver.Register(engine{})
	solver.Declare(Name, solver.BackendCPU, cpuSpec)
}

// Options are pop's option declarations with a GPU pool, for GPU pop.
var Options solver.Declarer = gpuSpec
