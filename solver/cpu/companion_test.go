package cpu

import (
	"context"
	"slices"
	"testing"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/tour"
)

// TestCompanionCrossIn checks the fold of an offer into a tour: a valid
// offer gives a child never longer than either tour, of exactly the
// length returned; offers that are not tours of the same cities, or lack
// a fixed edge, are dropped; the offer's claimed length is not trusted.
func TestCompanionCrossIn(t *testing.T) {
	a, d, in := optimisedTour(t, 2000, 1)
	la := d.Length(a)
	// a second local optimum from another random start: many regions
	// differ, some of them shorter
	nb := neighbor.Nearest(in, 8)
	r := newRNG(2, 0)
	s := newLS(d, nb.List, nb.K, r.randomTour(in.N))
	s.orOpt, s.threeOpt, s.r = true, true, r
	s.pushAll()
	s.optimize(func() bool { return false })
	b := slices.Clone(s.tour)
	lb := d.Length(b)

	for _, tc := range []struct {
		name          string
		cur, offer    []int32
		curLen, claim int64
	}{
		{"offer longer", a, b, la, lb},
		{"offer shorter", b, a, lb, la},
		{"claimed length 1", a, b, la, 1},
	} {
		x := &solver.Companion{}
		lk := &companionLink{x: x}
		x.Offer(tc.offer, tc.claim)
		child, cl := lk.crossIn(d, tc.cur, tc.curLen, nil)
		if err := solver.ValidateTour(toInt(child), in.N); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := d.Length(child); got != cl {
			t.Fatalf("%s: child length %d returned, exact %d", tc.name, cl, got)
		}
		if cl > min(la, lb) && cl != tc.curLen {
			t.Fatalf("%s: child %d, tours %d and %d", tc.name, cl, la, lb)
		}
		if cl > tc.curLen {
			t.Fatalf("%s: child %d longer than the current tour %d", tc.name, cl, tc.curLen)
		}
		_, taken, folds, gained := x.Stats()
		if taken != 1 || (cl < tc.curLen) != (folds == 1) || gained != tc.curLen-cl {
			t.Fatalf("%s: taken %d, folds %d, gained %d for %d → %d", tc.name, taken, folds, gained, tc.curLen, cl)
		}
		// the offer is taken once
		if _, l2 := lk.crossIn(d, child, cl, nil); l2 != cl {
			t.Fatalf("%s: a second fold without a new offer changed the tour", tc.name)
		}
	}
	if la == lb {
		t.Fatal("the two local optima have the same length: the test shows nothing")
	}

	short, long := a, b
	if lb < la {
		short, long = b, a
	}
	lLong := d.Length(long)
	dup := slices.Clone(short)
	dup[5] = dup[6]
	// a fixed edge of the longer tour that the shorter lacks
	var fixed [][2]int
	ps := posOf(short)
	for i, c := range long {
		if e := long[(i+1)%len(long)]; !adjacent(ps, c, e) {
			fixed = [][2]int{{int(c), int(e)}}
			break
		}
	}
	for _, tc := range []struct {
		name  string
		offer []int32
		fixed [][2]int
	}{
		{"a city twice", dup, nil},
		{"one city short", short[:len(short)-1], nil},
		{"out of range", append(slices.Clone(short[:len(short)-1]), int32(in.N)), nil},
	} {
		lk := &companionLink{x: &solver.Companion{}}
		lk.x.Offer(tc.offer, 0)
		if got, l := lk.crossIn(d, long, lLong, tc.fixed); l != lLong || &got[0] != &long[0] {
			t.Fatalf("%s: the offer was used (%d → %d)", tc.name, lLong, l)
		}
	}
	lk := &companionLink{x: &solver.Companion{}}
	lk.x.Offer(short, 0)
	if _, l := lk.crossIn(d, long, lLong, fixed); l != lLong {
		t.Fatalf("an offer without a fixed edge was used (%d → %d)", lLong, l)
	}
}

// posOf returns the position index of tour t.
func posOf(t []int32) []int32 {
	pos := make([]int32, len(t))
	for i, c := range t {
		pos[c] = int32(i)
	}
	return pos
}

// TestCompanionEngine runs the auto engine with a companion that offers a
// much better tour before the run starts: the partition search takes it
// at its first round, the whole-tour workers at their first crossover
// exchange, and the run ends no longer than the offer, with a valid tour.
// An engine without a companion in its context publishes nothing.
func TestCompanionEngine(t *testing.T) {
	in := uniformInstance(3000, 5)
	eng, err := solver.Lookup("auto", solver.BackendCPU)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := eng.Solve(context.Background(), in, solver.Params{Seed: 9, Workers: 2, Extra: map[string]string{"kicks": "4000"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		extra map[string]string
	}{
		{"partition", map[string]string{"partition": "on", "kicks": "300"}},
		{"whole-tour", map[string]string{"partition": "off", "share": "gpx", "sync": "150", "kicks": "300"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := solver.Params{Seed: 1, Workers: 2, Extra: tc.extra}
			alone, err := eng.Solve(context.Background(), in, p, nil)
			if err != nil {
				t.Fatal(err)
			}
			if alone.Length <= ref.Length {
				t.Skipf("the short run alone (%d) is no longer than the offer (%d): nothing to show", alone.Length, ref.Length)
			}
			x := &solver.Companion{}
			x.Offer(to32(ref.Tour), ref.Length)
			res, err := eng.Solve(solver.WithCompanion(context.Background(), x), in, p, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := solver.ValidateTour(res.Tour, in.N); err != nil {
				t.Fatal(err)
			}
			if got := solver.TourLength(in, res.Tour); got != res.Length {
				t.Fatalf("reported %d, exact %d", res.Length, got)
			}
			if res.Length > ref.Length {
				t.Fatalf("with the offer %d, ended at %d", ref.Length, res.Length)
			}
			offers, taken, folds, _ := x.Stats()
			seq, pl, _ := x.Published()
			if offers != 1 || taken != 1 || folds != 1 || seq < 2 || pl > ref.Length {
				t.Fatalf("offers %d, taken %d, folds %d; published %d tours, the last of length %d (offer %d)", offers, taken, folds, seq, pl, ref.Length)
			}
			var buf []int32
			buf, pl, _, _ = x.Latest(buf)
			if err := solver.ValidateTour(toInt(buf), in.N); err != nil || tour.LazyDist(in).Length(buf) != pl {
				t.Fatalf("the published tour: %v, length %d", err, pl)
			}
			t.Logf("alone %d, offer %d, with the offer %d", alone.Length, ref.Length, res.Length)
		})
	}
}
