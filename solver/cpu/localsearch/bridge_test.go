package localsearch

import "testing"

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
