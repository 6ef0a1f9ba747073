package localsearch

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/tsplab/tsplab/internal/testinst"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/tour"
)

// fiveOptBench is a search with the population's move set (Or-opt, 3-opt, 5-opt, bridge) on distances d and candidate
// lists nb with their distances nbd, from tour t.
func fiveOptBench(d *tour.Dist, nb *neighbor.Lists, nbd []int32, t []int32, seed uint64) *Search {
	s := New(d, nb.List, nb.K, t)
	s.SetMoves(MoveSet{OrOpt: true, ThreeOpt: true, Depth: 2, Bridge: true, FiveOpt: NewFiveOpt()})
	s.SetNeighbors(nb.List, nb.K, nbd)
	s.SetRand(newRNG(seed, 3))
	return s
}

// fiveOptInstance is 5,000 uniform cities with computed distances and their 6 nearest candidates.
func fiveOptInstance() (*solver.Instance, *tour.Dist, *neighbor.Lists, []int32) {
	in := testinst.IntEuc(5000, 1e6, rand.New(rand.NewPCG(1, 7)))
	d := tour.NewDistMatrixMax(in, 0)
	nb := neighbor.Nearest(in, 6)
	return in, d, nb, NeighborDists(d, nb.List, in.N, nb.K, nil)
}

// BenchmarkFiveOptDescent is the descent of a randomized nearest-neighbour tour, as the population builds its
// members: its time, the moves it evaluates and the length it ends at.
func BenchmarkFiveOptDescent(b *testing.B) {
	in, d, nb, nbd := fiveOptInstance()
	n := in.N
	var sum, moves float64
	for i := range b.N {
		r := rand.New(rand.NewPCG(uint64(i), 9))
		t, err := construct.RandomizedNearestNeighborContext(context.Background(), in, r.IntN(n), nb, r, 0.1)
		if err != nil {
			b.Fatal(err)
		}
		s := fiveOptBench(d, nb, nbd, to32(t), uint64(i))
		s.PushAll()
		s.Optimize(func() bool { return false })
		sum += float64(s.Length())
		moves += float64(s.Evaluated())
	}
	b.ReportMetric(sum/float64(b.N), "length")
	b.ReportMetric(moves/float64(b.N), "moves/op")
}

// BenchmarkFiveOptKick is one step of the iterated search from a local optimum: a segment-local kick, its repair
// and its undo when longer.
func BenchmarkFiveOptKick(b *testing.B) {
	in, d, nb, nbd := fiveOptInstance()
	s := fiveOptBench(d, nb, nbd, newRNG(1, 5).RandomTour(in.N), 1)
	s.PushAll()
	s.Optimize(func() bool { return false })
	s.SetJournal(true)
	m0 := s.Evaluated()
	b.ResetTimer()
	for range b.N {
		s.TryKick(200, true, func() bool { return false })
	}
	b.ReportMetric(float64(s.Evaluated()-m0)/float64(b.N), "moves/op")
	b.ReportMetric(float64(s.Length()), "length")
}
