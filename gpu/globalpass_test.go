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
		dl, ev := globalOrOpt(in, a, nb, nil)
		if err := solver.ValidateTour(a.Tour, in.N); err != nil {
			t.Fatal(err)
		}
		if l := solver.TourLength(in, a.Tour); l != l0+dl || dl >= 0 || ev == 0 {
			t.Fatalf("%s: length %d, start %d + delta %d (evaluated %d)", m, l, l0, dl, ev)
		}
		if dl2, _ := globalOrOpt(in, a, nb, nil); dl2 != 0 {
			t.Fatalf("%s: a second pass still gained %d", m, dl2)
		}
	}
}

// TestGlobalOrOptStops: a pass told to stop ends early with a valid tour
// whose length is the start plus the reported delta.
func TestGlobalOrOptStops(t *testing.T) {
	in := hostInstance(20000, 7)
	nb := neighbor.Nearest(in, 8)
	start := construct.Random(in.N, rand.New(rand.NewPCG(3, 4)))
	full := tour.NewArray(start)
	fullDelta, fullEv := globalOrOpt(in, full, nb, nil)
	a := tour.NewArray(start)
	l0 := solver.TourLength(in, a.Tour)
	looks := 0
	dl, ev := globalOrOpt(in, a, nb, func() bool { looks++; return looks >= 3 })
	if err := solver.ValidateTour(a.Tour, in.N); err != nil {
		t.Fatal(err)
	}
	if l := solver.TourLength(in, a.Tour); l != l0+dl {
		t.Fatalf("stopped pass: length %d, start %d + delta %d", l, l0, dl)
	}
	if looks != 3 || ev >= fullEv || dl <= fullDelta {
		t.Errorf("stopped pass looked %d times, evaluated %d moves (delta %d) against a full pass's %d (delta %d)", looks, ev, dl, fullEv, fullDelta)
	}
}
