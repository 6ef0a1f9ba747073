package partition

import (
	"slices"
	"testing"

	"github.com/tsplab/tsplab/internal/runctl"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/tour"
)

// soloFixture is a solo search on n uniform cities from a random tour.
func soloFixture(t *testing.T, n int, seed uint64) (*solo, *tour.Dist) {
	t.Helper()
	in := uniformInstance(n, seed)
	d := tour.NewDist(in)
	rng := newRNG(seed, 1)
	t0 := rng.RandomTour(n)
	return newSolo(t0, d.Length(t0), neighbor.Quadrant(in, 8), d, runctl.NewRand(seed, 2)), d
}

// soloCheck fails unless s's tour is a permutation whose length is the
// one it keeps.
func soloCheck(t *testing.T, s *solo, d *tour.Dist, what string) []int32 {
	t.Helper()
	tr := s.l.Tour(nil)
	seen := make([]bool, len(tr))
	for _, c := range tr {
		if seen[c] {
			t.Fatalf("%s: city %d twice", what, c)
		}
		seen[c] = true
	}
	if got := d.Length(tr); got != s.length {
		t.Fatalf("%s: tour length %d, kept %d", what, got, s.length)
	}
	return tr
}

// TestSoloLKDescent: each LK step shortens the tour by what it reports,
// never lengthens it, a step that finds nothing leaves no flip, and the
// descent from a random tour ends far shorter.
func TestSoloLKDescent(t *testing.T) {
	s, d := soloFixture(t, 2000, 3)
	start := s.length
	for i := range int32(2000) {
		s.push(i)
	}
	for len(s.queue) > 0 {
		t1 := s.queue[0]
		s.queue = s.queue[1:]
		s.queued[t1] = false
		before, mark := s.length, len(s.log)
		if s.improve(t1) {
			if s.length >= before {
				t.Fatalf("an LK step from %d went from %d to %d", t1, before, s.length)
			}
			for _, m := range s.log[mark:] {
				s.push(m.a)
				s.push(m.b)
				s.push(m.c)
				s.push(m.d)
			}
		} else if len(s.log) != mark {
			t.Fatalf("a step from %d that found nothing left %d flips", t1, len(s.log)-mark)
		}
		s.log = s.log[:0]
	}
	soloCheck(t, s, d, "after the descent")
	if s.length > start/3 {
		t.Errorf("descent from %d ended at %d", start, s.length)
	}
}

// TestSoloUndo: logged flips taken back leave the very tour they started
// from.
func TestSoloUndo(t *testing.T) {
	s, _ := soloFixture(t, 500, 5)
	rng := runctl.NewRand(9, 9)
	before := s.l.Tour(nil)
	for i := 0; i < 200; i++ {
		a := int32(rng.Intn(500))
		c := int32(rng.Intn(500))
		b, dd := s.l.Next(a), s.l.Next(c)
		if a == c || b == c || dd == a {
			continue
		}
		s.move(a, b, c, dd)
	}
	s.undo(0)
	if got := s.l.Tour(nil); !sameCycle(got, before) {
		t.Fatal("undoing the flips did not restore the tour")
	}
}

// sameCycle reports whether a and b, both from city 0, are one cycle
// (either way round).
func sameCycle(a, b []int32) bool {
	if slices.Equal(a, b) {
		return true
	}
	r := append([]int32{b[0]}, b[1:]...)
	slices.Reverse(r[1:])
	return slices.Equal(a, r)
}

// TestSoloKicks: after every kick the tour is a tour of the kept length,
// never longer than before it, and a kick stopped before its repair is
// taken back whole.
func TestSoloKicks(t *testing.T) {
	s, d := soloFixture(t, 3000, 7)
	for i := range int32(3000) {
		s.push(i)
	}
	s.drain(func() bool { return false })
	soloCheck(t, s, d, "after the descent")
	made := 0
	for i := 0; i < 300; i++ {
		before := s.length
		if s.kick(func() bool { return false }) {
			made++
		}
		if s.length > before {
			t.Fatalf("kick %d: %d after %d", i, s.length, before)
		}
		soloCheck(t, s, d, "after a kick")
	}
	if made < 100 {
		t.Fatalf("only %d of 300 kicks made", made)
	}
	// a kick with no repair that lengthened the tour is undone to the
	// very tour before it
	undone := 0
	for i := 0; i < 50; i++ {
		tr, before := s.l.Tour(nil), s.length
		if !s.kick(func() bool { return true }) {
			continue
		}
		if s.length == before {
			if !sameCycle(s.l.Tour(nil), tr) {
				t.Fatalf("kick %d: undone to a different tour", i)
			}
			undone++
		}
		soloCheck(t, s, d, "after a stopped kick")
	}
	if undone == 0 {
		t.Fatal("no stopped kick was undone")
	}
}
