package anneal

import (
	"context"
	"slices"
	"testing"

	"github.com/tsplab/tsplab/internal/runctl"
	"github.com/tsplab/tsplab/solver/tour"
)

// segMoved is the tour t (a city order) with the l cities from t's
// position i (cyclically) taken out and put after city p, reversed when
// rev: the move written on an array, to check the list surgery against.
func segMoved(t []int32, i, l int, p int32, rev bool) []int32 {
	n := len(t)
	seg := make([]int32, 0, l)
	for k := 0; k < l; k++ {
		seg = append(seg, t[(i+k)%n])
	}
	if rev {
		slices.Reverse(seg)
	}
	var out []int32
	for k := 0; k < n; k++ {
		x := t[(i+l+k)%n]
		if slices.Contains(seg, x) {
			continue
		}
		out = append(out, x)
		if x == p {
			out = append(out, seg...)
		}
	}
	return out
}

// sameCycle reports whether the city orders a and b are one cycle in the
// same direction.
func sameCycle(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	j := slices.Index(b, a[0])
	if j < 0 {
		return false
	}
	for k := range a {
		if a[k] != b[(j+k)%len(b)] {
			return false
		}
	}
	return true
}

// Every segment move on small instances (n = 5 to 8: a segment beside its
// place, p = the city after it, q = the city before it, both orientations,
// lengths 1 to 3) gives the tour the array version gives, its delta is the
// length's change, and the edge and gain caches stay exact.
func TestSegMoveExhaustive(t *testing.T) {
	for n := 5; n <= 8; n++ {
		in := uniformInstance(n, uint64(n))
		d := tour.NewDist(in)
		r := runctl.NewRand(uint64(n), 0)
		start := r.RandomTour(n)
		for i := 0; i < n; i++ {
			for l := 1; l <= min(3, n-3); l++ {
				for p := int32(0); int(p) < n; p++ {
					for _, rev := range []bool{false, true} {
						s := newSearch(d, start, r)
						s.seg = 3
						m := saMove{first: start[i], p: p, l: l, rev: rev}
						if s.inSeg(p, m.first, l) || p == s.l.Prev[m.first] {
							continue
						}
						checkSegMove(t, s, d, start, i, m)
					}
				}
			}
		}
	}
}

// checkSegMove applies m (its segment at start's position i) to s, which
// holds start, and checks the tour, the tracked length and the caches.
func checkSegMove(t *testing.T, s *saSearch, d *tour.Dist, start []int32, i int, m saMove) {
	t.Helper()
	before := s.cur
	delta := s.deltaSeg(m)
	s.applySeg(m, delta)
	got, want := s.current(nil), segMoved(start, i, m.l, m.p, m.rev)
	if !sameCycle(got, want) {
		t.Fatalf("n=%d move %+v of %v: tour %v, want %v", s.n, m, start, got, want)
	}
	if l := d.Length(got); l != before+delta || l != s.cur {
		t.Fatalf("n=%d move %+v: length %d, from %d by delta %d, tracked %d", s.n, m, l, before, delta, s.cur)
	}
	for x := int32(0); int(x) < s.n; x++ {
		p, q := s.l.Prev[x], s.l.Next[x]
		if s.l.Next[p] != x || s.l.Prev[q] != x {
			t.Fatalf("n=%d move %+v: links of %d broken", s.n, m, x)
		}
		if s.edge[x] != d.At(x, q) || s.gain[x] != d.At(p, x)+d.At(x, q)-d.At(p, q) {
			t.Fatalf("n=%d move %+v: stale cache at %d", s.n, m, x)
		}
	}
}

// Drawn segment moves, near ones included, price as the array version of
// the move does over thousands of annealing steps, and the journal gives
// back the best tour seen (the segment's relocations undone in order).
func TestSegMoveAnneal(t *testing.T) {
	in := uniformInstance(200, 5)
	d := tour.NewDist(in)
	r := runctl.NewRand(3, 0)
	s := newSearch(d, r.RandomTour(in.N), r)
	near, err := newSANear(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	s.nb, s.k, s.seg = near.nb, near.k, 3
	lens := map[int]int{}
	var bestTour []int32
	bestLen := s.cur
	for i := 0; i < 30000; i++ {
		s.near = i%2 == 0
		m, delta := s.proposeSeg()
		lens[m.l]++
		cur := s.current(nil)
		moved := segMoved(cur, slices.Index(cur, m.first), m.l, m.p, m.rev)
		if want := d.Length(moved) - d.Length(cur); delta != want {
			t.Fatalf("move %d %+v: delta %d, want %d", i, m, delta, want)
		}
		if !metropolis(r, delta, 30) {
			continue
		}
		s.applySeg(m, delta)
		if got := s.current(nil); !sameCycle(got, moved) || d.Length(got) != s.cur {
			t.Fatalf("move %d %+v: tour or tracked length %d wrong", i, m, s.cur)
		}
		if s.cur < bestLen {
			bestLen, bestTour = s.cur, s.current(nil)
		}
	}
	if lens[1] == 0 || lens[2] == 0 || lens[3] == 0 {
		t.Fatalf("segment lengths drawn: %v", lens)
	}
	if s.bestLength() != bestLen || (bestTour != nil && !sameCycle(s.best(nil), bestTour)) {
		t.Fatalf("best %d (tour %d), want %d", s.bestLength(), d.Length(s.best(nil)), bestLen)
	}
}

// CPU pspm with seg 3 runs segment moves (another tour than seg 1's on the
// same seed), returns a valid tour of its reported length, and counts one
// move per evaluated move: the same schedule, the same moves as seg 1.
func TestPSPMSegOption(t *testing.T) {
	in := uniformInstance(60, 7)
	one := solve(t, "pspm", in, pspmBudget(9, 2), nil)
	three := solve(t, "pspm", in, withOpts(pspmBudget(9, 2), "seg=3"), nil)
	if slices.Equal(one.Tour, three.Tour) {
		t.Fatal("seg=3 gave seg=1's tour")
	}
	if one.Moves != three.Moves || one.Moves == 0 {
		t.Fatalf("moves: seg 1 %d, seg 3 %d", one.Moves, three.Moves)
	}
	if three.Params.Extra["seg"] != "3" {
		t.Fatalf("seg not reported: %v", three.Params.Extra)
	}
}
