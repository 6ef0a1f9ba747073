package localsearch

import (
	"slices"
	"testing"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/tour"
)

func newTestLS(t *testing.T, n int, seed uint64) (*Search, *solver.Instance) {
	t.Helper()
	in := uniformInstance(n, seed)
	nb := neighbor.Nearest(in, 8)
	r := newRNG(seed, 0)
	s := New(tour.NewDist(in), nb.List, nb.K, r.RandomTour(n))
	s.r = r
	return s, in
}

func checkLS(t *testing.T, s *Search, in *solver.Instance, what string) {
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
				a := int32(s.r.Intn(n))
				c := int32(s.r.Intn(n))
				b, dd := s.succ(a), s.succ(c)
				if a == c || b == c || dd == a {
					continue
				}
				delta := d.At(a, c) + d.At(b, dd) - d.At(a, b) - d.At(c, dd)
				s.applyMove(lsMove{kind: move2Opt, a: a, b: b, c: c, dd: dd, delta: delta})
				checkLS(t, s, in, "2-opt")
				continue
			}
			l := 1 + s.r.Intn(3)
			s1 := int32(s.r.Intn(n))
			s2 := s1
			for i := 1; i < l; i++ {
				s2 = s.succ(s2)
			}
			p, nx := s.pred(s1), s.succ(s2)
			c := int32(s.r.Intn(n))
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
			rev := s.r.Intn(2) == 1
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
			s.SetMoves(MoveSet{OrOpt: cfg.or, ThreeOpt: cfg.three, RKBI: cfg.rkbi, Depth: cfg.depth})
			start := s.length
			s.PushAll()
			s.Optimize(func() bool { return false })
			checkLS(t, s, in, "optimize")
			if s.length >= start {
				t.Fatalf("no improvement from a random tour: %d → %d", start, s.length)
			}
			// don't-look bits are a heuristic: a second full pass may
			// still find moves, but never makes the tour longer
			l := s.length
			s.PushAll()
			s.Optimize(func() bool { return false })
			if s.length > l {
				t.Fatalf("second pass made the tour longer: %d → %d", l, s.length)
			}
			s.record = true
			for k := 0; k < 200; k++ {
				before := slices.Clone(s.tour)
				bl := s.length
				s.Kick(10)
				s.Optimize(func() bool { return false })
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

// TestOr3Moves applies tryOr3's pure 3-opt moves from random tours and
// checks each against the exact length, and that some were found: from
// a tour that 2-opt, Or-opt and the sequential 3-opt moves leave alone
// they are the only moves left.
func TestOr3Moves(t *testing.T) {
	for _, n := range []int{9, 12, 40, 200} {
		s, in := newTestLS(t, n, uint64(n)+3)
		s.SetMoves(MoveSet{OrOpt: true, ThreeOpt: true})
		found := 0
		for round := 0; round < 50; round++ {
			s.Load(s.r.RandomTour(n))
			for trial := 0; trial < 4*n; trial++ {
				t1 := int32(s.r.Intn(n))
				fwd := s.r.Intn(2) == 0
				t2 := s.succ(t1)
				if !fwd {
					t2 = s.pred(t1)
				}
				t3 := s.nb[int(t2)*s.k+s.r.Intn(s.k)]
				g1 := s.d.At(t1, t2) - s.d.At(t2, t3)
				if t3 == t1 || t3 == s.succ(t2) || t3 == s.pred(t2) || g1 <= 0 {
					continue
				}
				before := s.length
				if s.tryOr3(t1, t2, t3, fwd, g1) {
					found++
					checkLS(t, s, in, "or-3opt")
					if s.length >= before {
						t.Fatalf("n=%d: or-3opt move did not shorten the tour: %d → %d", n, before, s.length)
					}
				}
			}
		}
		if found == 0 {
			t.Errorf("n=%d: no or-3opt move found from random tours", n)
		}
	}
	// the moves improve 3-opt local optima further
	s, in := newTestLS(t, 1000, 8)
	s.SetMoves(MoveSet{OrOpt: true, ThreeOpt: true})
	s.PushAll()
	s.Optimize(func() bool { return false })
	l := s.length
	s.SetMoves(MoveSet{OrOpt: true, ThreeOpt: true, Or3: true})
	s.PushAll()
	s.Optimize(func() bool { return false })
	checkLS(t, s, in, "or-3opt descent")
	if s.length >= l {
		t.Errorf("or-3opt found nothing below a 3-opt local optimum of 1000 cities (%d)", l)
	}
}

// TestNewMovesKeepFixedEdges runs descents and kicks with every move and
// Kick on an instance with fixed edges and checks that none is removed:
// the chain with the pure 3-opt moves, and the 5-opt move with the
// bridge move.
func TestNewMovesKeepFixedEdges(t *testing.T) {
	const n = 600
	for _, m := range []MoveSet{{OrOpt: true, ThreeOpt: true, Or3: true, Depth: 3}, {OrOpt: true, FiveOpt: NewFiveOpt(), Bridge: true}} {
		s, in := newTestLS(t, n, 22)
		var edges [][2]int
		for i := 0; i+1 < n; i += 5 {
			edges = append(edges, [2]int{i, i + 1})
		}
		in.FixedEdges = edges
		s.Load(to32(construct.KeepFixed(in, toInt(s.r.RandomTour(n)))))
		s.SetFixed(edges)
		s.SetMoves(m)
		s.record = true
		s.PushAll()
		s.Optimize(func() bool { return false })
		for k := 0; k < 200; k++ {
			s.journal, s.saved = s.journal[:0], s.saved[:0]
			s.Kick(10)
			s.Optimize(func() bool { return false })
			checkLS(t, s, in, "kick+optimize")
			if err := in.CheckFixedEdges(toInt(s.tour)); err != nil {
				t.Fatalf("bridge %v, kick %d: %v", m.Bridge, k, err)
			}
		}
	}
}

// TestClose3optVirtual checks that the depth-1 sequential move read off
// the tour without applying its first step makes exactly the moves of
// the tentative version: the same descents and kicks give the same
// tours.
func TestClose3optVirtual(t *testing.T) {
	for _, n := range []int{10, 57, 400} {
		a, in := newTestLS(t, n, uint64(n)+11)
		b, _ := newTestLS(t, n, uint64(n)+11)
		for i, s := range []*Search{a, b} {
			s.SetMoves(MoveSet{OrOpt: true, ThreeOpt: true})
			if i == 1 {
				setTentative(s)
			}
			s.record = true
			s.PushAll()
			s.Optimize(func() bool { return false })
		}
		checkLS(t, a, in, "virtual descent")
		if !slices.Equal(a.tour, b.tour) || a.moves != b.moves {
			t.Fatalf("n=%d: descents differ (lengths %d, %d)", n, a.length, b.length)
		}
		for k := 0; k < 300; k++ {
			for _, s := range []*Search{a, b} {
				s.journal, s.saved = s.journal[:0], s.saved[:0]
				s.Kick(10)
				s.Optimize(func() bool { return false })
			}
			checkLS(t, a, in, "virtual kick")
			if !slices.Equal(a.tour, b.tour) {
				t.Fatalf("n=%d kick %d: tours differ (lengths %d, %d)", n, k, a.length, b.length)
			}
		}
	}
}

// TestExtendVirtual checks that the deeper sequential moves found on the
// virtual tour (no step applied until a chain closes with a gain) are
// exactly the moves of the tentative version, which applies every step
// and undoes it: the same descents and kicks give the same tours and the
// same counts of moves evaluated, at depths 2 and 3, with fixed edges too.
func TestExtendVirtual(t *testing.T) {
	for _, depth := range []int{2, 3} {
		for _, n := range []int{10, 23, 57, 400} {
			a, in := newTestLS(t, n, uint64(n)+31)
			b, _ := newTestLS(t, n, uint64(n)+31)
			if n == 57 {
				var edges [][2]int
				for i := 0; i+1 < n; i += 9 {
					edges = append(edges, [2]int{i, i + 1})
				}
				in.FixedEdges = edges
				start := to32(construct.KeepFixed(in, toInt(a.tour)))
				a.Load(start)
				b.Load(start)
				a.SetFixed(edges)
				b.SetFixed(edges)
			}
			for i, s := range []*Search{a, b} {
				s.SetMoves(MoveSet{OrOpt: true, ThreeOpt: true, Or3: true, Depth: depth})
				if i == 1 {
					setTentative(s)
				}
				s.record = true
				s.PushAll()
				s.Optimize(func() bool { return false })
			}
			checkLS(t, a, in, "virtual descent")
			if !slices.Equal(a.tour, b.tour) || a.moves != b.moves {
				t.Fatalf("depth %d n=%d: descents differ (lengths %d, %d; moves %d, %d)", depth, n, a.length, b.length, a.moves, b.moves)
			}
			for k := 0; k < 300; k++ {
				for _, s := range []*Search{a, b} {
					s.journal, s.saved = s.journal[:0], s.saved[:0]
					s.Kick(10)
					s.Optimize(func() bool { return false })
				}
				checkLS(t, a, in, "virtual kick")
				if err := in.CheckFixedEdges(toInt(a.tour)); err != nil {
					t.Fatalf("depth %d n=%d kick %d: %v", depth, n, k, err)
				}
				if !slices.Equal(a.tour, b.tour) || a.moves != b.moves {
					t.Fatalf("depth %d n=%d kick %d: tours differ (lengths %d, %d)", depth, n, k, a.length, b.length)
				}
			}
		}
	}
}

// TestVtourSteps applies random 2-opt steps to a virtual tour and to a
// copy of the array tour and checks that every city's successor and
// predecessor agree.
func TestVtourSteps(t *testing.T) {
	for _, n := range []int{6, 11, 100} {
		s, _ := newTestLS(t, n, uint64(n)+3)
		for trial := 0; trial < 200; trial++ {
			ref, _ := newTestLS(t, n, uint64(n)+3)
			ref.Load(s.tour)
			var v vtour
			v.reset(s)
			for step := 0; step <= MaxDepth; step++ {
				a := int32(s.r.Intn(n))
				c := int32(s.r.Intn(n))
				b, dd := ref.succ(a), ref.succ(c)
				if s.r.Intn(2) == 1 {
					b, dd = ref.pred(a), ref.pred(c)
				}
				if a == c || b == c || dd == a {
					continue
				}
				v.move2(a, b, c, dd)
				ref.move2(a, b, c, dd)
				for x := int32(0); x < int32(n); x++ {
					// the virtual tour may be the mirror image
					vs, vp := v.succ(x), v.pred(x)
					rs, rp := ref.succ(x), ref.pred(x)
					if !(vs == rs && vp == rp) && !(vs == rp && vp == rs) {
						t.Fatalf("n=%d trial %d step %d: city %d has %d,%d virtually, %d,%d applied", n, trial, step, x, vp, vs, rp, rs)
					}
				}
			}
		}
	}
}

// TestReverseSplit checks that a reversal split among goroutines leaves
// the same tour and positions as one made alone, wrapping or not, of odd
// and even lengths.
func TestReverseSplit(t *testing.T) {
	n := 3*splitMin + 7
	one, _ := newTestLS(t, n, 1)
	split, _ := newTestLS(t, n, 1)
	split.split = 5
	start := slices.Clone(one.tour)
	for _, c := range [][2]int32{{0, int32(n - 1)}, {10, int32(splitMin + 10)}, {int32(n - 100), int32(splitMin)}, {int32(2 * splitMin), int32(splitMin + 3)}} {
		one.reverseExact(c[0], c[1])
		split.reverseExact(c[0], c[1])
		if !slices.Equal(one.tour, split.tour) || !slices.Equal(one.pos, split.pos) {
			t.Fatalf("reversal of %d..%d split 5 ways differs from one made alone", c[0], c[1])
		}
	}
	if slices.Equal(one.tour, start) {
		t.Fatal("the reversals changed nothing")
	}
}

// TestRankedRows: on rows not nearest first (here farthest first), a search told they are ranked scans past a
// candidate too far, so its 2-opt descent ends with no improving 2-opt move between a city and any of its candidates.
func TestRankedRows(t *testing.T) {
	in := uniformInstance(400, 9)
	nb := neighbor.Nearest(in, 8)
	for c := range in.N {
		slices.Reverse(nb.Of(c))
	}
	d := tour.NewDist(in)
	r := newRNG(9, 0)
	s := New(d, nb.List, nb.K, r.RandomTour(in.N))
	s.SetRanked(true)
	for l := int64(-1); l != s.length; {
		l = s.length
		s.PushAll()
		s.Optimize(func() bool { return false })
	}
	checkLS(t, s, in, "descent")
	for t1 := range int32(in.N) {
		for _, t2 := range [2]int32{s.succ(t1), s.pred(t1)} {
			for _, t3 := range nb.Of(int(t1)) {
				t4 := s.succ(t3)
				if t2 == s.pred(t1) {
					t4 = s.pred(t3)
				}
				if t3 == t2 || t4 == t1 {
					continue
				}
				if gain := d.At(t1, t2) + d.At(t3, t4) - d.At(t1, t3) - d.At(t2, t4); gain > 0 {
					t.Fatalf("2-opt move %d-%d, %d-%d gains %d after the descent", t1, t2, t3, t4, gain)
				}
			}
		}
	}
}
