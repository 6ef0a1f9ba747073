package partition

import (
	"testing"
	"time"

	"github.com/tsplab/tsplab/internal/runctl"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/cpu/localsearch"
	"github.com/tsplab/tsplab/solver/enginetest"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/tour"
)

// benchPartSegment times the kicks of one segment search of the
// partition search (a 5,000-city segment of 10,000 uniform cities, the
// auto engine's moves), with the candidates' distances cached or computed
// from the segment's coordinates.
func benchPartSegment(b *testing.B, cached bool) {
	in := uniformInstance(10000, 1)
	pr := newTestPartRun(b, in, 2, func(o *Options) { o.Seg = 5000 })
	pr.cut(0, 0)
	pr.prepare(0)
	sg := pr.segs[0]
	s := pr.load(0, sg)
	o := pr.env.Opts
	s.SetMoves(localsearch.MoveSet{OrOpt: o.OrOpt, ThreeOpt: o.ThreeOpt, Depth: o.Depth, Or3: o.Or3, RKBI: o.RKBI})
	s.SetRand(newRNG(1, 0))
	s.SetFixed(sg.edges)
	if !cached {
		nb, k := s.Neighbors()
		s.SetNeighbors(nb, k, nil)
	}
	never := func() bool { return false }
	s.PushAll()
	s.Optimize(never)
	s.SetJournal(true)
	b.ResetTimer()
	for range b.N {
		s.TryKick(o.MaxSeg, false, never)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "kicks/s")
}

// BenchmarkPartSegmentKicks: a segment search's kicks, candidate
// distances cached (as the partition search runs) or computed.
func BenchmarkPartSegmentKicks(b *testing.B) {
	b.Run("cached", func(b *testing.B) { benchPartSegment(b, true) })
	b.Run("computed", func(b *testing.B) { benchPartSegment(b, false) })
}

// BenchmarkPartRound: whole rounds of the partition search on 20,000
// uniform cities with 2 workers (4 segments of 5,000, a kick per city):
// the segments' lists, their searches and the descent between segments.
// It reports the kicks per second over whole rounds and the descent's
// share of a round.
func BenchmarkPartRound(b *testing.B) {
	in := uniformInstance(20000, 1)
	pr := newTestPartRun(b, in, 2, func(o *Options) { o.Seg, o.SliceMS, o.KicksPerCity = 5000, 0, 1 })
	rng := newRNG(3, 0)
	var kicks int64
	var stitch time.Duration
	b.ResetTimer()
	for range b.N {
		pr.cut(rng.Intn(in.N), 0)
		kicks += pr.runRound()
		t0 := time.Now()
		pr.stitch(time.Hour, 0)
		stitch += time.Since(t0)
		pr.round++
	}
	b.ReportMetric(float64(kicks)/b.Elapsed().Seconds(), "kicks/s")
	b.ReportMetric(float64(stitch.Milliseconds())/float64(b.N), "descent-ms/round")
}

// BenchmarkSoloKicks times one worker's chained LK kicks (solo.go) on the
// DIMACS uniform instance of 100,000 cities from its greedy start and
// first descent, reporting kicks a second.
func BenchmarkSoloKicks(b *testing.B) {
	in := enginetest.DIMACS(b, "portgen", 100000, 100000)
	d := tour.NewDist(in)
	t0 := runctl.To32(construct.Greedy(in, neighbor.Nearest(in, 8)))
	s := newSolo(t0, d.Length(t0), neighbor.Quadrant(in, 8), d, newRNG(1, 1), nil)
	for _, c := range t0 {
		s.push(c)
	}
	never := func() bool { return false }
	s.drain(never)
	b.ResetTimer()
	for range b.N {
		s.log = s.log[:0]
		s.kick(never)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "kicks/s")
}

// BenchmarkQuickBoruvka: chained LK's start tour of 1,000,000 uniform
// cities, in random order of id as DIMACS files hold them.
func BenchmarkQuickBoruvka(b *testing.B) {
	in := enginetest.DIMACS(b, "portgen", 1000000, 1000000)
	pts, _ := points(tour.NewDist(in))
	b.ResetTimer()
	for range b.N {
		quickBoruvka(pts)
	}
}

// BenchmarkLKPieceSetup times what a round spends on one piece before
// chained LK searches it: the piece's restricted lists (prepare) and the
// search's symmetric candidate graph (newSolo), on pieces of 20,000 of
// 1,000,000 uniform cities in random order of id.
func BenchmarkLKPieceSetup(b *testing.B) {
	in := uniformInstance(1000000, 1)
	pr := newTestPartRun(b, in, 16, nil)
	pr.lkSeen = make([]uint64, in.N)
	pr.cut(0, 0)
	rng := newRNG(1, 1)
	b.ResetTimer()
	for i := range b.N {
		seg := i % len(pr.segs)
		pr.prepare(seg)
		sg := pr.segs[seg]
		t0 := make([]int32, sg.m)
		for j := range t0 {
			t0[j] = int32(j)
		}
		newSolo(t0, 0, &neighbor.Lists{K: sg.k, List: sg.nb[:sg.m*sg.k]}, sg.d, rng, sg.edges)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(pr.segs[0].m), "ns/city")
}
