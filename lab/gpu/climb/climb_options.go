package climb

import (
	"math"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"
)

// ClimbConfig is 2opt-climb's settings.
type ClimbConfig struct {
	Blocks   int // climbers (0: as many as fill the device)
	Restarts int // climbs in all (0: until the time limit)
	// NearStarts: randomized nearest-neighbour start tours, else random ones
	NearStarts bool
}

// ClimbSpec declares 2opt-climb's options.
var ClimbSpec = solver.NewSpec(
	solver.SharedInt("blocks", func(c *ClimbConfig) *int { return &c.Blocks }).Auto("climbers that fill the device"),
	solver.Int(OptRestarts, func(c *ClimbConfig) *int { return &c.Restarts }, 0, 0, math.MaxInt32,
		"climbs in all (0: until the time limit); with no time limit the run is deterministic"),
	solver.Enum(OptClimbStart, func(c *ClimbConfig) *bool { return &c.NearStarts }, "nn", []string{"nn", "random"}, []bool{true, false},
		"climbs' start tours: randomized nearest-neighbour tours (a random first city, then the nearest unvisited city, at about 3 % of the steps the second nearest) or uniformly random tours as O'Neil & Burtscher; over about 14,000 cities the batch climber builds the same kind of tours on the host, up to 200,000 cities (beyond, random)").Experimental(),
)

// SwapConfig is swap-climb's settings.
type SwapConfig struct {
	Blocks, Threads int
	Dist            string
	Tabu            int // iterations of one tabu search (0: climb)
	Tenure          int // 0: n/10, at least 10
	Per             int
}

// SwapSpec declares swap-climb's options.
var SwapSpec = solver.NewSpec(
	solver.SharedInt("blocks", func(c *SwapConfig) *int { return &c.Blocks }).Auto("climbers that fill the device"),
	solver.SharedInt("threads", func(c *SwapConfig) *int { return &c.Threads }).Auto("tuned in waves of launches"),
	solver.Choice(device.OptDist, func(c *SwapConfig) *string { return &c.Dist }, "auto", device.DistChoices, device.DistDoc).Experimental(),
	solver.Int(OptTabu, func(c *SwapConfig) *int { return &c.Tabu }, 0, 0, 1<<30,
		"iterations of one tabu search instead of random-restart climbing (Luong et al.'s protocol: 10000); 0: climb").Experimental(),
	solver.Int(OptTenure, func(c *SwapConfig) *int { return &c.Tenure }, 0, 1, 1<<20,
		"tabu search: iterations for which a swapped pair of positions may not be swapped again (unless that gives a new best)").Auto("n/10, at least 10").Experimental(),
	solver.Int(OptPer, func(c *SwapConfig) *int { return &c.Per }, 0, 0, 64,
		"tabu search: moves each GPU thread evaluates, consecutive in row order (1: one thread per neighbour; 0: tuned with the block size, or 1 when threads is set)").Experimental(),
)
