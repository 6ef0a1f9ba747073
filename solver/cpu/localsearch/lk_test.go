package localsearch

import (
	"testing"

	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/tour"
)

// TestLKDescent descends from random tours with the LK step alone (no
// 2-opt or Or-opt before it) and checks that the tour stays a
// permutation whose length is the one the search keeps, that it gets
// shorter; over the seeds, the LK descents of 500 cities end shorter
// than 2-opt descents from the same tours.
func TestLKDescent(t *testing.T) {
	for _, n := range []int{8, 60, 500} {
		var sumLK, sum2 int64
		for seed := uint64(1); seed <= 4; seed++ {
			in := uniformInstance(n, seed)
			nb := neighbor.Nearest(in, min(8, n-1))
			r := newRNG(seed, 5)
			d := tour.NewDist(in)
			s := New(d, nb.List, nb.K, r.RandomTour(n))
			s.SetRand(r)
			s.SetMoves(MoveSet{LK: true})
			s.deep, s.improve = tryLK, func(s *Search, c int32) bool { return tryLK(s, c) }
			start := s.Length()
			s.PushAll()
			s.Optimize(func() bool { return false })
			checkTour(t, s, d)
			if s.Length() >= start {
				t.Fatalf("n=%d seed %d: %d from %d, no gain", n, seed, s.Length(), start)
			}
			two := New(d, nb.List, nb.K, newRNG(seed, 5).RandomTour(n))
			two.PushAll()
			two.Optimize(func() bool { return false })
			sumLK += s.Length()
			sum2 += two.Length()
		}
		if n == 500 && sumLK >= sum2 {
			t.Fatalf("n=%d: LK descents %d in all, 2-opt descents %d", n, sumLK, sum2)
		}
	}
}

// TestLKKicks runs kicks repaired by 2-opt, Or-opt and the LK step with
// the journal on, and checks the tour and its length after each, and that
// a rejected kick leaves the tour as it was.
func TestLKKicks(t *testing.T) {
	in := uniformInstance(400, 9)
	nb := neighbor.Nearest(in, 8)
	r := newRNG(9, 5)
	d := tour.NewDist(in)
	s := New(d, nb.List, nb.K, r.RandomTour(400))
	s.SetRand(r)
	s.SetMoves(MoveSet{OrOpt: true, LK: true})
	s.PushAll()
	s.Optimize(func() bool { return false })
	s.SetJournal(true)
	for range 300 {
		before := append([]int32(nil), s.Tour()...)
		old, ok := s.TryKick(20, false, func() bool { return false })
		if !ok {
			t.Fatal("a kick stopped without a stop")
		}
		checkTour(t, s, d)
		if s.Length() > old {
			t.Fatalf("the tour got longer: %d from %d", s.Length(), old)
		}
		if s.Length() == old {
			for i, c := range before {
				if s.Tour()[i] != c {
					t.Fatalf("a rejected kick changed position %d", i)
				}
			}
		}
	}
}

// checkTour fails unless s's tour is a permutation with positions to
// match and the length s keeps.
func checkTour(t *testing.T, s *Search, d *tour.Dist) {
	t.Helper()
	seen := make([]bool, s.N())
	for i, c := range s.Tour() {
		if seen[c] || s.Pos()[c] != int32(i) {
			t.Fatalf("city %d twice or at a wrong position", c)
		}
		seen[c] = true
	}
	if l := d.Length(s.Tour()); l != s.Length() {
		t.Fatalf("length %d kept, %d measured", s.Length(), l)
	}
}
