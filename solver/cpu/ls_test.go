package cpu

import (
	"slices"
	"testing"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/tour"
)

func newTestLS(t *testing.T, n int, seed uint64) (*ls, *solver.Instance) {
	t.Helper()
	in := uniformInstance(n, seed)
	nb := neighbor.Nearest(in, 8)
	r := newRNG(seed, 0)
	s := newLS(tour.NewDist(in), nb.List, nb.K, r.randomTour(n))
	s.r = r
	return s, in
}

func checkLS(t *testing.T, s *ls, in *solver.Instance, what string) {
	t.Helper()
	if err := solver.ValidateTour(toInt(s.tour), s.n); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	for i, c := range s.tour {
		if s.pos[c] != int32(i) {
			t.Fatalf("%s: pos[%d] = %d, want %d", what, c, s.pos[c], i)
		}
	}
	if got := solver.TourLength(in, toInt(s.tour)); got != s.length {
		t.Fatalf("%s: tracked length %d, exact %d", what, s.length, got)
	}
}

// TestMoveDeltas checks the deltas of random 2-opt and Or-opt moves
// (improving or not) against exact lengths.
func TestMoveDeltas(t *testing.T) {
	for _, n := range []int{8, 9, 13, 50} {
		s, in := newTestLS(t, n, uint64(n))
		d := s.d
		for trial := 0; trial < 3000; trial++ {
			if trial%2 == 0 {
				// 2-opt: remove (a, succ a), (c, succ c)
				a := int32(s.r.intn(n))
				c := int32(s.r.intn(n))
				b, dd := s.succ(a), s.succ(c)
				if a == c || b == c || dd == a {
					continue
				}
				delta := d.At(a, c) + d.At(b, dd) - d.At(a, b) - d.At(c, dd)
				s.applyMove(lsMove{kind: move2Opt, a: a, b: b, c: c, dd: dd, delta: delta})
				checkLS(t, s, in, "2-opt")
				continue
			}
			l := 1 + s.r.intn(3)
			s1 := int32(s.r.intn(n))
			s2 := s1
			for i := 1; i < l; i++ {
				s2 = s.succ(s2)
			}
			p, nx := s.pred(s1), s.succ(s2)
			c := int32(s.r.intn(n))
			dd := s.succ(c)
			bad := false
			for x, i := s1, 0; i < l; x, i = s.succ(x), i+1 {
				if x == c || x == dd {
					bad = true
				}
			}
			if bad || c == p {
				continue
			}
			rev := s.r.intn(2) == 1
			var delta int64
			if rev {
				delta = d.At(c, s2) + d.At(s1, dd)
			} else {
				delta = d.At(c, s1) + d.At(s2, dd)
			}
			delta += d.At(p, nx) - d.At(p, s1) - d.At(s2, nx) - d.At(c, dd)
			s.applyMove(lsMove{kind: moveOrOpt, a: p, b: s1, c: s2, dd: nx, e: c, f: dd, rev: rev, delta: delta})
			checkLS(t, s, in, "or-opt")
			// the segment sits between c and dd
			want := s1
			if rev {
				want = s2
			}
			if s.succ(c) != want && s.pred(c) != want {
				t.Fatalf("or-opt: %d not next to %d", want, c)
			}
		}
	}
}

// TestLocalSearchAndUndo runs every move set to a local optimum, then
// kicks with the journal on and checks that undo restores the tour.
func TestLocalSearchAndUndo(t *testing.T) {
	for _, cfg := range []struct {
		name      string
		or, three bool
		rkbi      int
		depth     int
	}{{"2opt", false, false, 0, 1}, {"2opt+or", true, false, 0, 1}, {"3opt", true, true, 0, 1}, {"3opt-rkbi", true, true, 3, 1},
		{"4opt", true, true, 0, 2}, {"5opt", true, true, 0, 3}, {"5opt-rkbi", true, true, 3, 3}} {
		t.Run(cfg.name, func(t *testing.T) {
			s, in := newTestLS(t, 300, 5)
			s.orOpt, s.threeOpt, s.rkbi, s.depth = cfg.or, cfg.three, cfg.rkbi, cfg.depth
			start := s.length
			s.pushAll()
			s.optimize(func() bool { return false })
			checkLS(t, s, in, "optimize")
			if s.length >= start {
				t.Fatalf("no improvement from a random tour: %d → %d", start, s.length)
			}
			// don't-look bits are a heuristic: a second full pass may
			// still find moves, but never makes the tour longer
			l := s.length
			s.pushAll()
			s.optimize(func() bool { return false })
			if s.length > l {
				t.Fatalf("second pass made the tour longer: %d → %d", l, s.length)
			}
			s.record = true
			for k := 0; k < 200; k++ {
				before := slices.Clone(s.tour)
				bl := s.length
				s.kick(10)
				s.optimize(func() bool { return false })
				checkLS(t, s, in, "kick+optimize")
				s.undo()
				s.length = bl
				if !slices.Equal(before, s.tour) {
					t.Fatalf("kick %d: undo did not restore the tour", k)
				}
				checkLS(t, s, in, "undo")
			}
		})
	}
}
