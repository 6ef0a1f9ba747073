package localsearch

import (
	"slices"
	"testing"
)

// TestWalkKick: each walk kick changes the tracked length by exactly the
// change of the recomputed length, replaces four tour edges (none of them
// fixed), leaves a valid tour and its positions, queues the cities at the
// cuts, and its journal undoes it; TryKick with it never lengthens the
// tour under better-only acceptance.
func TestWalkKick(t *testing.T) {
	s, in := newTestLS(t, 400, 3)
	s.SetMoves(MoveSet{OrOpt: true, ThreeOpt: true})
	s.PushAll()
	s.Optimize(func() bool { return false })
	checkLS(t, s, in, "optimize")
	fixed := [][2]int32{{s.tour[0], s.tour[1]}, {s.tour[200], s.tour[201]}}
	s.SetFixed([][2]int{{int(fixed[0][0]), int(fixed[0][1])}, {int(fixed[1][0]), int(fixed[1][1])}})
	s.SetJournal(true)
	for k := range 300 {
		before := slices.Clone(s.tour)
		bl := s.length
		s.ClearJournal()
		s.WalkKick(10)
		checkLS(t, s, in, "walk kick")
		if changed := changedEdges(before, s.tour); changed != 4 && changed != 3 {
			t.Fatalf("kick %d: %d edges changed, want 4 (3 for Kick's fallback)", k, changed)
		}
		for _, e := range fixed {
			if s.Succ(e[0]) != e[1] && s.Pred(e[0]) != e[1] {
				t.Fatalf("kick %d: fixed edge %v removed", k, e)
			}
		}
		if s.Queued() < 8 {
			t.Fatalf("kick %d: %d cities queued, want the cuts' 8 at least", k, s.Queued())
		}
		s.undo()
		s.length = bl
		s.ClearQueue()
		if !slices.Equal(before, s.tour) {
			t.Fatalf("kick %d: undo did not restore the tour", k)
		}
		checkLS(t, s, in, "undo")
	}
	s.SetKick(KickWalk)
	for range 200 {
		old, _ := s.TryKick(10, false, func() bool { return false })
		checkLS(t, s, in, "try kick")
		if s.length > old {
			t.Fatalf("TryKick lengthened the tour: %d → %d", old, s.length)
		}
	}
}

// changedEdges counts the edges of tour a missing from tour b.
func changedEdges(a, b []int32) int {
	n := len(a)
	in := make(map[[2]int32]bool, n)
	key := func(x, y int32) [2]int32 { return [2]int32{min(x, y), max(x, y)} }
	for i := range n {
		in[key(b[i], b[(i+1)%n])] = true
	}
	c := 0
	for i := range n {
		if !in[key(a[i], a[(i+1)%n])] {
			c++
		}
	}
	return c
}
