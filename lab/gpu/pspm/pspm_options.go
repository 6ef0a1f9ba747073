package pspm

import (
	"github.com/tsplab/tsplab/solver"
)

// pspmConfig is the GPU annealers' draw options.
type pspmConfig struct {
	Draw pspmDrawMode
	NNK  int
	// NNFrom is the temperature the neighbour draw starts below (nil: the default).
	NNFrom *float64
	// Seg is the longest segment a move carries (1: relocations).
	Seg int
	// Island is the searches of an island, restarted from its best at each exchange (0: global)
	Island int
}

// pspmDrawMode is the draw option's value.
type pspmDrawMode int8

// The draw option's values, in the order of pspmDrawNames.
const (
	drawAuto pspmDrawMode = iota
	drawUniform
	drawNN
	drawMixed
)

// pspmDrawNames are the draw option's words.
var pspmDrawNames = [...]string{"auto", "uniform", "nn", "mixed"}

// The GPU annealers' options, each declared once.
var (
	pspmBlocks = solver.Shared[pspmConfig]("blocks").
			Auto("a full wave: blocks per SM from the occupancy API × SMs; one per SM where a wave would keep the tours in global memory")
	pspmThreads = solver.Shared[pspmConfig]("threads")
	pspmK       = solver.Shared[pspmConfig]("k")
	pspmT0      = solver.Shared[pspmConfig]("t0")
	pspmTEnd    = solver.Shared[pspmConfig]("tend")
	pspmAlpha   = solver.Shared[pspmConfig]("alpha")
	pspmSweeps  = solver.Shared[pspmConfig]("sweeps")
	pspmDrawOpt = solver.Enum("draw", func(c *pspmConfig) *pspmDrawMode { return &c.Draw }, "auto", pspmDrawNames[:],
		[]pspmDrawMode{drawAuto, drawUniform, drawNN, drawMixed},
		"relocation moves' draw: c and its new neighbour p uniform over the cities (uniform, Lam et al.); c uniform and its new place beside one of its nnk nearest cities, after it or before it (nn); nn on half of a search's threads, uniform on the other half (mixed); nn and mixed from the start, or from nnfrom when given; auto: uniform while the temperature is above nnfrom, mixed below, and mixed throughout a schedule fitted to a time limit (under 65,535 cities; else uniform)").Experimental()
	pspmNNK = solver.Int("nnk", func(c *pspmConfig) *int { return &c.NNK }, pspmNNKDefault, 2, 32,
		"draw auto, nn and mixed: nearest cities per city that a move may put c beside (pspm: 16 from 100 to 499 cities)").Experimental()
	// The field is allocated when the option is set, so nil means "not given".
	pspmNNFrom = solver.Float("nnfrom", func(c *pspmConfig) *float64 { c.NNFrom = new(float64); return c.NNFrom }, 0, 0, solver.Inf,
		"the temperature below which draw auto, nn and mixed take moves from the nearest cities (0: never, the draw stays uniform)").
		Auto("3 × the mean distance from a city to its nnk-th nearest").Experimental()
	pspmIsland = solver.Int("island", func(c *pspmConfig) *int { return &c.Island }, 0, 0, 1<<30,
		"searches per island: at each exchange every search restarts from the best of its island (consecutive searches), so the islands stay apart; 0: every search from the global best (Lam et al.; pspm: 32 from 100 to 499 cities)").Experimental()
	pspmSeg = solver.Int("seg", func(c *pspmConfig) *int { return &c.Seg }, solver.DefaultSegment, 1, 3,
		"the longest segment one move carries: 1 relocates a city (Lam et al.), 2 or 3 also move 2 or 3 consecutive cities (Or-opt), in either orientation, the length uniform: a shorter tour at about half the moves per second (the tour layout, from a few thousand cities, relocates only)")
)

// PspmSpecs are the GPU annealers' options by engine (Lam et al., Table 1).
var PspmSpecs = map[string]*solver.Spec[pspmConfig]{
	AlgoPSPM: solver.NewSpec(pspmBlocks, pspmThreads, pspmK, pspmT0, pspmTEnd, pspmAlpha, pspmSweeps, pspmDrawOpt, pspmNNK, pspmNNFrom, pspmSeg, pspmIsland).BySize(pspmBySize),
	AlgoSSPM: solver.NewSpec(pspmThreads, pspmT0, pspmTEnd, pspmAlpha, pspmSweeps, pspmDrawOpt, pspmNNK, pspmNNFrom).Fixed("draw", "nnk", "nnfrom"),
	AlgoPSSM: solver.NewSpec(pspmBlocks, pspmK, pspmT0, pspmTEnd, pspmAlpha, pspmSweeps, pspmDrawOpt, pspmNNK, pspmNNFrom).Fixed("draw", "nnk", "nnfrom"),
}
