package partition

import (
	"math/rand/v2"

	"github.com/tsplab/tsplab/internal/testinst"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/strategy"
)

// uniformInstance returns n cities uniform in a 1000×1000 square (EUC_2D).
func uniformInstance(n int, seed uint64) *solver.Instance {
	return testinst.IntEuc(n, 1000, rand.New(rand.NewPCG(seed, 7)))
}

// testOptions are the settings the auto engine gives its partition search
// on n cities (its defaults by size), with the 3-opt chain (these tests
// are about the rounds, and the 5-opt move's chains make them slow under
// -race), changed by set (nil: as they are).
func testOptions(n int, set func(*Options)) Options {
	o := Options{OrOpt: true, ThreeOpt: true, Or3: n < 1000, Depth: 1, Move: MoveChain, MaxSeg: 30, AcceptEqual: true,
		Candidates: ListNearest, KicksPerCity: 1, SliceMS: 300, Shape: ShapeAuto, DeepPerCity: 10}
	switch {
	case n >= strategy.PartitionMinN:
		o.Candidates = ListMixed
	case n >= 1000:
		o.Candidates = ListAlpha
	}
	if set != nil {
		set(&o)
	}
	return o
}

// globalNb is the candidate lists of the partition search's descent
// over the whole tour.
func (pr *partRun) globalNb() []int32 {
	nb, _ := pr.global.Neighbors()
	return nb
}

// earlyFrom sets the environment's early phase beside a path improver
// from lo cities.
func earlyFrom(lo int) func(*Env) {
	return func(e *Env) { e.EarlyMinN = lo }
}
