package population

import (
	"math"

	"github.com/tsplab/tsplab/solver"
)

// options are one run's settings, the engine's config struct.
type options struct {
	workers int
	pool    int
	kicks   int
	rounds  int
	slice   int // milliseconds (0: by the time limit)
	init    float64
	gpx2    bool
	ls      string
}

// spec declares the engine's options.
var spec = solver.NewSpec(
	solver.SharedInt("workers", func(o *options) *int { return &o.workers }).Auto("all cores"),
	solver.Int("pool", func(o *options) *int { return &o.pool }, 8, 2, 256,
		"tours the pool keeps; a new tour replaces the member closest to it by edge distance, only if shorter, and never enters twice"),
	solver.Int("kicks", func(o *options) *int { return &o.kicks }, 0, 0, math.MaxInt32,
		"kicks of each local search (0: each runs for its time slice); with no time limit the run is deterministic and ends after its rounds"),
	solver.Int("rounds", func(o *options) *int { return &o.rounds }, 0, 0, math.MaxInt32,
		"rounds of one local search per worker (0: until the time limit, or 12 with a kicks budget and no time limit)"),
	solver.Int("slice", func(o *options) *int { return &o.slice }, 0, 0, 600000,
		"milliseconds of each local search from a crossover's child (0: a fifteenth of the time limit, 300 ms to 5 s)").Experimental(),
	solver.Float("init", func(o *options) *float64 { return &o.init }, 0.3, 0, 1,
		"share of the time limit the pool's first tours take together").Experimental(),
	solver.Enum("gpx", func(o *options) *bool { return &o.gpx2 }, "gpx2", []string{"gpx2", "gpx"}, []bool{true, false},
		"the crossover: GPX2 (ghost split, fusion, both directions) or plain partition crossover of two-portal components").Experimental(),
	solver.Choice("ls", func(o *options) *string { return &o.ls }, "auto", []string{"auto", "2opt-ils", "3opt-ils"},
		"the registered CPU engine that descends and kicks each tour on one core").Experimental(),
)

func init() {
	solver.Register(engine{})
	solver.Declare(Name, solver.BackendCPU, spec)
}
