package tour

import (
	"math/rand/v2"
	"testing"

	"github.com/tsplab/tsplab/internal/testinst"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/neighbor"
)

// TestOrOptExactAndLocallyOptimal: the descent's delta is the exact change
// of length, the tour stays a permutation, a second descent finds nothing,
// and no segment of 1–3 cities moves next to a candidate of either end
// (either edge of it, either orientation) with a gain, by brute force.
func TestOrOptExactAndLocallyOptimal(t *testing.T) {
	for _, m := range []solver.Metric{solver.Euc2D, solver.Att, solver.Ceil2D} {
		in := testinst.IntEuc(3000, 1000, rand.New(rand.NewPCG(5, 1)))
		in.Metric = m
		nb := neighbor.Nearest(in, 8)
		a := NewArray(rand.New(rand.NewPCG(1, 2)).Perm(in.N))
		l0 := solver.TourLength(in, a.Tour)
		dl, ev := OrOpt(in, a, nb)
		if err := solver.ValidateTour(a.Tour, in.N); err != nil {
			t.Fatal(err)
		}
		if l := solver.TourLength(in, a.Tour); l != l0+dl || dl >= 0 || ev == 0 {
			t.Fatalf("%s: length %d, start %d + delta %d (evaluated %d)", m, l, l0, dl, ev)
		}
		if dl2, _ := OrOpt(in, a, nb); dl2 != 0 {
			t.Fatalf("%s: a second descent still gained %d", m, dl2)
		}
		if c, l, u, rev, d := orOptBrute(in, a, nb); d < 0 {
			t.Fatalf("%s: moving the %d cities from %d next to %d (reversed %v) still gains %d", m, l, c, u, rev, -d)
		}
	}
}

// orOptBrute returns an improving move of OrOpt's neighbourhood on a
// (delta < 0), priced by DeltaOrOpt, or delta 0 when there is none: a
// segment of 1–3 cities s..e next to a candidate x of an end z, with
// d(z, x) below what removing the segment saves, on either tour edge of x,
// in the orientation that joins z to x.
func orOptBrute(in *solver.Instance, a *Array, nb *neighbor.Lists) (c, l, u int, rev bool, delta int64) {
	d := NewDist(in)
	for c := 0; c < a.Len(); c++ {
		for l := 1; l <= 3; l++ {
			i := a.Pos[c]
			s, e, p, q := c, a.At(i+l-1), a.At(i-1), a.At(i+l)
			g := d.At(int32(p), int32(s)) + d.At(int32(e), int32(q)) - d.At(int32(p), int32(q))
			for _, z := range [2]int{s, e} {
				for _, x32 := range nb.Of(z) {
					x := int(x32)
					if d.At(int32(z), x32) >= g {
						continue
					}
					for side, u := range [2]int{x, a.Prev(x)} {
						rev := l > 1 && (z == s) == (side == 1)
						if dl := DeltaOrOpt(d, a, i, l, u, rev); dl < 0 {
							return c, l, u, rev, dl
						}
					}
				}
			}
		}
	}
	return 0, 0, 0, false, 0
}

// TestOrOptUntilStops: a descent told to stop ends early with a valid tour
// whose length is the start plus the reported delta.
func TestOrOptUntilStops(t *testing.T) {
	in := testinst.IntEuc(20000, 1000, rand.New(rand.NewPCG(7, 1)))
	nb := neighbor.Nearest(in, 8)
	start := rand.New(rand.NewPCG(3, 4)).Perm(in.N)
	fullDelta, fullEv := OrOpt(in, NewArray(start), nb)
	a := NewArray(start)
	l0 := solver.TourLength(in, a.Tour)
	looks := 0
	dl, ev := OrOptUntil(in, a, nb, func() bool { looks++; return looks >= 3 })
	if err := solver.ValidateTour(a.Tour, in.N); err != nil {
		t.Fatal(err)
	}
	if l := solver.TourLength(in, a.Tour); l != l0+dl {
		t.Fatalf("stopped descent: length %d, start %d + delta %d", l, l0, dl)
	}
	if looks != 3 || ev >= fullEv || dl <= fullDelta {
		t.Errorf("stopped descent looked %d times, evaluated %d moves (delta %d) against a full descent's %d (delta %d)", looks, ev, dl, fullEv, fullDelta)
	}
}
