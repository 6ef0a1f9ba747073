package anneal

import (
	"github.com/tsplab/tsplab/solver"
)

// annealConfig is what the annealing engines read through their specs (the schedule: solver.AnnealOf).
type annealConfig struct {
	Workers int
	Seg     int // pspm: the longest segment one move carries
}

// The annealing engines' options, each declared once.
var (
	annealWorkers = solver.SharedInt("workers", func(c *annealConfig) *int { return &c.Workers }).Auto("all cores")
	annealBlocks  = solver.Shared[annealConfig]("blocks").Auto("workers")
	annealThreads = solver.Shared[annealConfig]("threads")
	annealK       = solver.Shared[annealConfig]("k")
	annealT0      = solver.Shared[annealConfig]("t0")
	annealTEnd    = solver.Shared[annealConfig]("tend")
	annealAlpha   = solver.Shared[annealConfig]("alpha")
	annealSweeps  = solver.Shared[annealConfig]("sweeps")
	annealSeg     = solver.Int("seg", func(c *annealConfig) *int { return &c.Seg }, solver.DefaultSegment, 1, 3,
		"the longest segment one move carries: 1 relocates a city (Lam et al.), 2 or 3 also move 2 or 3 consecutive cities (Or-opt), in either orientation, the length uniform (the GPU pspm's move set)")
)

// annealSpecs are the annealing engines' options by name: the schedule
// (Lam et al., Table 1) for all, and the search counts each one uses.
var annealSpecs = map[string]*solver.Spec[annealConfig]{
	"sa":   solver.NewSpec(annealWorkers, annealBlocks, annealT0, annealTEnd, annealAlpha, annealSweeps),
	"pssm": solver.NewSpec(annealWorkers, annealBlocks, annealK, annealT0, annealTEnd, annealAlpha, annealSweeps),
	"pspm": solver.NewSpec(annealWorkers, annealBlocks, annealThreads, annealK, annealT0, annealTEnd, annealAlpha, annealSweeps, annealSeg),
	"sspm": solver.NewSpec(annealWorkers, annealThreads.Auto("workers"), annealT0, annealTEnd, annealAlpha, annealSweeps),
}
