package partition

import (
	"testing"
	"time"
)

// checkNbDist fails unless s caches its candidates' distances and every
// cached one is the real distance.
func checkNbDist(t *testing.T, s *ls, what string) {
	t.Helper()
	nbd, n := s.CachedDists(), s.N()
	nb, k := s.Neighbors()
	if nbd == nil {
		t.Fatalf("%s: no candidate distances cached (%d cities, %d candidates)", what, n, k)
	}
	if len(nbd) != n*k || len(nb) != n*k {
		t.Fatalf("%s: %d cached distances, %d candidates, want %d", what, len(nbd), len(nb), n*k)
	}
	for c := range n {
		for i, x := range nb[c*k : (c+1)*k] {
			if got, want := int64(nbd[c*k+i]), s.Dist().At(int32(c), x); got != want {
				t.Fatalf("%s: city %d, candidate %d (%d): cached %d, distance %d", what, c, i, x, got, want)
			}
		}
	}
}

// TestPartitionNbDist: the segment searches and the descent between
// segments read cached candidate distances, and after every round (the
// segments' lists rebuilt, the global lists alternating between nearest
// and quadrant) each cached distance is the real one.
func TestPartitionNbDist(t *testing.T) {
	in := uniformInstance(3000, 25)
	pr := newTestPartRun(t, in, 3, func(o *Options) { o.Seg, o.KicksPerCity = 500, 0.3 })
	rng := newRNG(7, 0)
	for round := range 4 {
		pr.cut(rng.Intn(in.N), 0)
		pr.runRound()
		for wk, s := range pr.ls {
			if s != nil {
				checkNbDist(t, s, "segment search of worker "+string(rune('0'+wk)))
			}
		}
		pr.stitch(time.Hour, 0)
		checkNbDist(t, pr.global, "descent between segments")
		if want := pr.nb[pr.round%2]; &pr.globalNb()[0] != &want.List[0] {
			t.Fatalf("round %d: the descent searched other lists than this round's", round)
		}
		pr.round++
		checkPartTour(t, pr, "round")
	}
}
