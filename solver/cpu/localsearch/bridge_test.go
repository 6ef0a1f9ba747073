package localsearch

import (
	"testing"

	"github.com/tsplab/tsplab/solver/construct"
)

// TestBridgeMoves descends 5-opt local optima further with the bridge
// move, every applied move checked against the exact length, and checks
// that it found some.
func TestBridgeMoves(t *testing.T) {
	gained := 0
	for seed := uint64(1); seed <= 6; seed++ {
		s, in := newTestLS(t, 1000, seed)
		s.SetMoves(MoveSet{OrOpt: true, FiveOpt: NewFiveOpt()})
		s.PushAll()
		s.Optimize(func() bool { return false })
		l := s.length
		s.SetMoves(MoveSet{OrOpt: true, FiveOpt: NewFiveOpt(), Bridge: true})
		s.PushAll()
		s.Optimize(func() bool { return false })
		checkLS(t, s, in, "bridge descent")
		if s.length > l {
			t.Fatalf("seed %d: the bridge descent lengthened the tour: %d → %d", seed, l, s.length)
		}
		if s.length < l {
			gained++
		}
	}
	if gained == 0 {
		t.Errorf("the bridge move found nothing below six 5-opt local optima of 1000 cities")
	}
}

// TestBridgeKeepsFixedEdges kicks and descends with the 5-opt and
// bridge moves on an instance with fixed edges and checks that none is
// removed and that the length stays exact.
func TestBridgeKeepsFixedEdges(t *testing.T) {
	const n = 600
	s, in := newTestLS(t, n, 22)
	var edges [][2]int
	for i := 0; i+1 < n; i += 5 {
		edges = append(edges, [2]int{i, i + 1})
	}
	in.FixedEdges = edges
	s.Load(to32(construct.KeepFixed(in, toInt(s.r.RandomTour(n)))))
	s.SetFixed(edges)
	s.SetMoves(MoveSet{OrOpt: true, FiveOpt: NewFiveOpt(), Bridge: true})
	s.record = true
	s.PushAll()
	s.Optimize(func() bool { return false })
	for k := 0; k < 200; k++ {
		s.journal, s.saved = s.journal[:0], s.saved[:0]
		s.Kick(10)
		s.Optimize(func() bool { return false })
		checkLS(t, s, in, "kick+optimize")
		if err := in.CheckFixedEdges(toInt(s.tour)); err != nil {
			t.Fatalf("kick %d: %v", k, err)
		}
	}
}
