package tour

import (
	"math/rand/v2"
	"testing"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/gen"
	"github.com/tsplab/tsplab/solver/neighbor"
)

// TestTwoOptUntilStops: a descent told to stop ends early with a valid
// tour whose length is the start plus the reported delta; never told, it
// is TwoOpt.
func TestTwoOptUntilStops(t *testing.T) {
	in, err := gen.Generate("uniform", 20000, 5)
	if err != nil {
		t.Fatal(err)
	}
	nb := neighbor.Nearest(in, 8)
	start := rand.New(rand.NewPCG(1, 2)).Perm(in.N)
	full := NewArray(start)
	fullDelta, fullEv := TwoOpt(in, full, nb)
	never := NewArray(start)
	if d, ev := TwoOptUntil(in, never, nb, func() bool { return false }); d != fullDelta || ev != fullEv {
		t.Errorf("never stopped: delta %d, %d evaluated; TwoOpt: %d, %d", d, ev, fullDelta, fullEv)
	}
	a := NewArray(start)
	l0 := solver.TourLength(in, a.Tour)
	looks := 0
	dl, ev := TwoOptUntil(in, a, nb, func() bool { looks++; return looks >= 2 })
	if err := solver.ValidateTour(a.Tour, in.N); err != nil {
		t.Fatal(err)
	}
	if l := solver.TourLength(in, a.Tour); l != l0+dl {
		t.Fatalf("stopped descent: length %d, start %d + delta %d", l, l0, dl)
	}
	if looks != 2 || ev >= fullEv || dl <= fullDelta {
		t.Errorf("stopped descent looked %d times, evaluated %d (delta %d) against a full descent's %d (delta %d)", looks, ev, dl, fullEv, fullDelta)
	}
}
