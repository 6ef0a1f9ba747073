package partition

import (
	"github.com/tsplab/tsplab/solver/strategy"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/tsplab/tsplab/internal/testinst"
	"github.com/tsplab/tsplab/solver"
)

// uniformInstance returns n cities uniform in a 1000×1000 square (EUC_2D).
func uniformInstance(n int, seed uint64) *solver.Instance {
	return testinst.IntEuc(n, 1000, rand.New(rand.NewPCG(seed, 7)))
}

// The names of the engine's options the tests set, as --opt takes them.
const (
	optKicks       = "kicks"
	optMove        = "move"
	optDepth       = "depth"
	optSegment     = "segment"
	optCandidates  = "candidates"
	optPartSegment = "partseg"
	optPartKicks   = "partkicks"
	optPartSlice   = "partslice"
	optPartShape   = "partshape"
	optPartDeep    = "partdeep"
)

// testOptions are the settings the auto engine gives its partition search
// on n cities (its defaults by size), with the 3-opt chain unless extra
// says otherwise (these tests are about the rounds, and the 5-opt move's
// chains make them slow under -race), and the settings extra gives by
// option name.
func testOptions(t testing.TB, n int, extra map[string]string) Options {
	t.Helper()
	o := Options{OrOpt: true, ThreeOpt: true, Or3: n < 1000, Depth: 1, Move: MoveChain, MaxSeg: 30, AcceptEqual: true,
		Candidates: ListNearest, KicksPerCity: 1, SliceMS: 300, Shape: ShapeAuto, DeepPerCity: 10}
	switch {
	case n >= strategy.PartitionMinN:
		o.Candidates = ListMixed
	case n >= 1000:
		o.Candidates = ListAlpha
	}
	choice := func(v string, names ...string) int {
		for i, s := range names {
			if s == v {
				return i
			}
		}
		t.Fatalf("no such choice %q", v)
		return 0
	}
	num := func(v string) float64 {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	for k, v := range extra {
		switch k {
		case optKicks:
			o.Kicks = int(num(v))
		case optMove:
			o.Move = Move(choice(v, "chain", "lk5", "adapt"))
		case optDepth:
			o.Depth = int(num(v))
		case optSegment:
			o.MaxSeg = int(num(v))
		case optCandidates:
			o.Candidates = ListKind(choice(v, "nearest", "quadrant", "union", "mixed", "alpha"))
		case optPartSegment:
			o.Seg = int(num(v))
		case optPartKicks:
			o.KicksPerCity = num(v)
		case optPartSlice:
			o.SliceMS = int(num(v))
		case optPartShape:
			o.Shape = Shape(choice(v, "auto", "path", "region", "alternate"))
		case optPartDeep:
			o.DeepPerCity = num(v)
		default:
			t.Fatalf("no option %q in these tests", k)
		}
	}
	return o
}

// globalNb is the candidate lists of the partition search's descent
// over the whole tour.
func (pr *partRun) globalNb() []int32 {
	nb, _ := pr.global.Neighbors()
	return nb
}

// earlyBetween sets the environment's early phase beside a path improver
// from lo to hi cities.
func earlyBetween(lo, hi int) func(*Env) {
	return func(e *Env) { e.EarlyMinN, e.EarlyMaxN = lo, hi }
}
