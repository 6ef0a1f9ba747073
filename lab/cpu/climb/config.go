package climb

import (
	"math"

	"github.com/tsplab/tsplab/solver"
)

// climbConfig is the settings of the climbing engines.
type climbConfig struct {
	Workers  int
	Restarts int // climbs in all (0: until the time limit)
	Tabu     int // swap-climb: iterations of one tabu search (0: climb)
	Tenure   int // its tenure (0: solver.TabuTenure's default)
	// NearStarts: 2opt-climb starts from randomized nearest-neighbour tours (climbnn.go).
	NearStarts bool
}

var (
	climbWorkers  = solver.SharedInt("workers", func(c *climbConfig) *int { return &c.Workers }).Auto("all cores")
	climbRestarts = solver.Int(OptRestarts, func(c *climbConfig) *int { return &c.Restarts }, 0, 0, math.MaxInt32,
		"climbs in all (0: until the time limit); with no time limit the run is deterministic")
)

// climbSpecs are the climbing engines' options by name.
var climbSpecs = map[string]*solver.Spec[climbConfig]{
	"2opt-climb": solver.NewSpec(climbWorkers, climbRestarts,
		solver.Enum(OptClimbStart, func(c *climbConfig) *bool { return &c.NearStarts }, "nn", []string{"nn", "random"}, []bool{true, false},
			"climbs' start tours: randomized nearest-neighbour tours (a random first city, then the nearest unvisited city, at about 3 % of the steps the second nearest), each pass's best move sought among the moves to a city's 8 nearest and the whole neighbourhood scanned when none improves (nn); or uniformly random tours, every pass over the whole neighbourhood, as O'Neil & Burtscher (random)").Experimental()),
	"swap-climb": solver.NewSpec(climbWorkers, climbRestarts,
		solver.Int(OptTabu, func(c *climbConfig) *int { return &c.Tabu }, 0, 0, 1<<30,
			"iterations of one tabu search, on one worker, instead of random-restart climbing (Luong et al.'s protocol: 10000); 0: climb"),
		solver.Int(OptTenure, func(c *climbConfig) *int { return &c.Tenure }, 0, 1, 1<<20,
			"tabu search: iterations for which a swapped pair of positions may not be swapped again (unless that gives a new best)").Auto("n/10, at least 10"),
	),
}
