package gpu

import (
	"math"

	"github.com/tsplab/tsplab/solver"
)

// The GPU engines' config structs and their options' one declaration each;
// the experimental options stay for a paper's reproduction.

// distChoices are the kernels' distances (OptDist).
var distChoices = []string{"auto", "coords", "matrix"}

const distDoc = "kernel distances: computed from coordinates in float, the exact integer matrix in device memory, or auto (coordinates where the kernels compute the metric)"

// climbConfig is 2opt-climb's settings.
type climbConfig struct {
	Blocks   int // climbers (0: as many as fill the device)
	Restarts int // climbs in all (0: until the time limit)
	// NearStarts: randomized nearest-neighbour start tours (start nn),
	// else uniformly random ones
	NearStarts bool
}

var climbSpec = solver.NewSpec(
	solver.SharedInt("blocks", func(c *climbConfig) *int { return &c.Blocks }).Auto("climbers that fill the device"),
	solver.Int(OptRestarts, func(c *climbConfig) *int { return &c.Restarts }, 0, 0, math.MaxInt32,
		"climbs in all (0: until the time limit); with no time limit the run is deterministic"),
	solver.Enum(OptClimbStart, func(c *climbConfig) *bool { return &c.NearStarts }, "nn", []string{"nn", "random"}, []bool{true, false},
		"climbs' start tours: randomized nearest-neighbour tours (a random first city, then the nearest unvisited city, at about 3 % of the steps the second nearest) or uniformly random tours as O'Neil & Burtscher; over about 14,000 cities the batch climber builds the same kind of tours on the host, up to 200,000 cities (beyond, random)").Experimental(),
)

// threeOptConfig is 3opt-ils's settings.
type threeOptConfig struct {
	Blocks, Threads int
	K               int // random-k-best-improvement's k
	Dist            string
	Kicks           int // in all (0: until the time limit)
}

var threeOptSpec = solver.NewSpec(
	solver.SharedInt("blocks", func(c *threeOptConfig) *int { return &c.Blocks }).Auto("4 × SMs"),
	solver.SharedInt("threads", func(c *threeOptConfig) *int { return &c.Threads }).Default("256"),
	solver.Int(OptRKBI, func(c *threeOptConfig) *int { return &c.K }, 3, 1, 8, "k of random-k-best-improvement (1: best improvement)"),
	solver.Choice(OptDist, func(c *threeOptConfig) *string { return &c.Dist }, "auto", distChoices, distDoc).Experimental(),
	solver.Int(OptKicks, func(c *threeOptConfig) *int { return &c.Kicks }, 0, 0, math.MaxInt32, "kicks (ILS iterations) in all (0: until the time limit)"),
)

// swapConfig is swap-climb's settings.
type swapConfig struct {
	Blocks, Threads int
	Dist            string
	Tabu            int // iterations of one tabu search (0: climb)
	Tenure          int // 0: n/10, at least 10
	Per             int
}

var swapSpec = solver.NewSpec(
	solver.SharedInt("blocks", func(c *swapConfig) *int { return &c.Blocks }).Auto("climbers that fill the device"),
	solver.SharedInt("threads", func(c *swapConfig) *int { return &c.Threads }).Auto("tuned in waves of launches"),
	solver.Choice(OptDist, func(c *swapConfig) *string { return &c.Dist }, "auto", distChoices, distDoc).Experimental(),
	solver.Int(OptTabu, func(c *swapConfig) *int { return &c.Tabu }, 0, 0, 1<<30,
		"iterations of one tabu search instead of random-restart climbing (Luong et al.'s protocol: 10000); 0: climb").Experimental(),
	solver.Int(OptTenure, func(c *swapConfig) *int { return &c.Tenure }, 0, 1, 1<<20,
		"tabu search: iterations for which a swapped pair of positions may not be swapped again (unless that gives a new best)").Auto("n/10, at least 10").Experimental(),
	solver.Int(OptPer, func(c *swapConfig) *int { return &c.Per }, 0, 0, 64,
		"tabu search: moves each GPU thread evaluates, consecutive in row order (1: one thread per neighbour; 0: tuned with the block size, or 1 when threads is set)").Experimental(),
)

// orConfig is or-ils's settings.
type orConfig struct {
	Window  int // also the kicks per window per round
	Global  float64
	Greedy  bool // start from the greedy tour (start greedy), else the space-filling curve
	Segment int
}

var orSpec = solver.NewSpec(
	solver.Int(OptWindow, func(c *orConfig) *int { return &c.Window }, 1024, 32, 2048,
		"most cities of one tour window (a warp's iterated local search, endpoints fixed)"),
	solver.Float(OptGlobal, func(c *orConfig) *float64 { return &c.Global }, 1, 0, 3600,
		"seconds between global 2-opt and Or-opt descents on the CPU (the moves between windows); 0: none").Experimental(),
	solver.Enum(OptStart, func(c *orConfig) *bool { return &c.Greedy }, "greedy", []string{"greedy", "sfc"}, []bool{true, false},
		"start tour: greedy edge or the space-filling curve"),
	solver.Int("segment", func(c *orConfig) *int { return &c.Segment }, 30, 1, 512, "longest segment of a kick's double bridge").Experimental(),
).BySize(solver.SizeTable{
	{From: orStartSFCMinN, Set: map[string]string{OptGlobal: "2", OptStart: "sfc"}},
})

// orStartSFCMinN is the size from which or-ils starts from the
// space-filling curve and makes its global passes every 2 s.
const orStartSFCMinN = 200000

func init() {
	declareGPU(AlgoTwoOptClimb, climbSpec)
	declareGPU(AlgoTwoOptILS, solver.OptionSet{})
	declareGPU(AlgoThreeOptILS, threeOptSpec)
	declareGPU(AlgoSwapClimb, swapSpec)
	declareGPU(AlgoOrILS, orSpec)
	declareGPU(AlgoTourLS, tourLSSpec)
	solver.Declare(AlgoAuto, solver.BackendGPU, solver.Inherit(AlgoAuto, solver.BackendCPU, autoOptions()))
}

// autoOptions are GPU auto's own options: it ends with (or is, below its
// size threshold) the CPU auto engine and inherits that engine's; or-ils,
// which it starts with on large instances, keeps its own defaults but for
// its window (or-ils's option, declared once in orSpec) and wsegment.
func autoOptions() solver.OptionSet {
	window, _ := orSpec.Options(nil).Lookup(OptWindow)
	own := solver.OptionSet{
		window,
		{Name: OptWindowSegment, Kind: solver.KindInt, Min: 1, Max: 512, Default: "30",
			Doc: "GPU auto from 50,000 cities: most cities of a segment of the double-bridge kicks of or-ils's windows, before the CPU engine's first tour (from 200,000 cities) and beside its partition search (unset: 30)"},
		{Name: OptBeside, Kind: solver.KindFloat, Min: 0, Max: 64, Auto: "1 below 200,000 cities unless clustered, else 4",
			Doc: "GPU auto from 50,000 cities: the workers' worth of the tour the GPU's windows improve at first beside the CPU engine's partition search, the share then following their gains (0: none)"},
	}
	for i := range own {
		own[i].Experimental = true
	}
	return own
}
