package gpu

import (
	"math/rand/v2"
	"testing"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/tour"
)

// TestGlobalOrOptExactAndLocallyOptimal: the pass's delta is the exact
// change of length, the tour stays a permutation, and a second pass finds
// nothing.
func TestGlobalOrOptExactAndLocallyOptimal(t *testing.T) {
	for _, m := range []solver.Metric{solver.Euc2D, solver.Att, solver.Ceil2D} {
		in := hostInstance(3000, 5)
		in.Metric = m
		nb := neighbor.Nearest(in, 8)
		start := construct.Random(in.N, rand.New(rand.NewPCG(1, 2)))
		a := tour.NewArray(start)
		l0 := solver.TourLength(in, a.Tour)
		dl, ev := globalOrOpt(in, a, nb)
		if err := solver.ValidateTour(a.Tour, in.N); err != nil {
			t.Fatal(err)
		}
		if l := solver.TourLength(in, a.Tour); l != l0+dl || dl >= 0 || ev == 0 {
			t.Fatalf("%s: length %d, start %d + delta %d (evaluated %d)", m, l, l0, dl, ev)
		}
		if dl2, _ := globalOrOpt(in, a, nb); dl2 != 0 {
			t.Fatalf("%s: a second pass still gained %d", m, dl2)
		}
	}
}
