package ils

import (
	"math"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"
)

// ThreeOptConfig is 3opt-ils's settings.
type ThreeOptConfig struct {
	Blocks, Threads int
	K               int // random-k-best-improvement's k
	Dist            string
	Kicks           int // in all (0: until the time limit)
}

// ThreeOptSpec declares 3opt-ils's options.
var ThreeOptSpec = solver.NewSpec(
	solver.SharedInt("blocks", func(c *ThreeOptConfig) *int { return &c.Blocks }).Auto("4 × SMs"),
	solver.SharedInt("threads", func(c *ThreeOptConfig) *int { return &c.Threads }).Default("256"),
	solver.Int(OptRKBI, func(c *ThreeOptConfig) *int { return &c.K }, 3, 1, 8, "k of random-k-best-improvement (1: best improvement)"),
	solver.Choice(device.OptDist, func(c *ThreeOptConfig) *string { return &c.Dist }, "auto", device.DistChoices, device.DistDoc).Experimental(),
	solver.Int(OptKicks, func(c *ThreeOptConfig) *int { return &c.Kicks }, 0, 0, math.MaxInt32, "kicks (ILS iterations) in all (0: until the time limit)"),
)

// OrConfig is or-ils's settings.
type OrConfig struct {
	Window  int // also the kicks per window per round
	Global  float64
	Greedy  bool // start from the greedy tour (start greedy), else the space-filling curve
	Segment int
}

// OrSpec declares or-ils's options.
var OrSpec = solver.NewSpec(
	solver.Int(OptWindow, func(c *OrConfig) *int { return &c.Window }, 1024, 32, 2048,
		"most cities of one tour window (a warp's iterated local search, endpoints fixed)"),
	solver.Float(OptGlobal, func(c *OrConfig) *float64 { return &c.Global }, 1, 0, 3600,
		"seconds between global 2-opt and Or-opt descents on the CPU (the moves between windows); 0: none").Experimental(),
	solver.Enum(OptStart, func(c *OrConfig) *bool { return &c.Greedy }, "greedy", []string{"greedy", "sfc"}, []bool{true, false},
		"start tour: greedy edge or the space-filling curve"),
	solver.Int("segment", func(c *OrConfig) *int { return &c.Segment }, 30, 1, 512, "longest segment of a kick's double bridge").Experimental(),
).BySize(solver.SizeTable{
	{From: OrStartSFCMinN, Set: map[string]string{OptGlobal: "2", OptStart: "sfc"}},
})

// OrStartSFCMinN is the size from which or-ils starts from the curve, global passes every 2 s.
const OrStartSFCMinN = 200000

func init() {
	device.DeclareGPU(AlgoOrILS, OrSpec)
	device.DeclareGPU(AlgoTourLS, tourLSSpec)
}
