package localsearch_test

import (
	"fmt"
	"math"

	"github.com/tsplab/tsplab/internal/runctl"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/cpu/localsearch"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/tour"
)

// An iterated local search on 60 cities of a circle: a descent with
// 2-opt, Or-opt and the 3-opt chain from a scrambled tour, then kicks,
// each kept when the tour does not get longer. The optimum is the tour
// around the circle.
func Example() {
	n := 60
	x, y := make([]float64, n), make([]float64, n)
	for i := range n {
		a := 2 * math.Pi * float64(i) / float64(n)
		x[i], y[i] = 1000*math.Cos(a), 1000*math.Sin(a)
	}
	in := solver.NewCoordInstance("circle60", solver.Euc2D, x, y, nil)
	around := make([]int, n)
	for i := range around {
		around[i] = i
	}
	start := make([]int32, n)
	for i := range start {
		start[i] = int32(i * 7 % n) // 7 and 60 are coprime: a tour
	}

	nb := neighbor.Nearest(in, 8)
	s := localsearch.New(tour.NewDist(in), nb.List, nb.K, start)
	s.SetMoves(localsearch.MoveSet{OrOpt: true, ThreeOpt: true, Depth: 1})
	s.SetRand(runctl.NewRand(1, 0))
	s.CacheNeighborDists()
	never := func() bool { return false }
	s.PushAll()
	s.Optimize(never)
	s.SetJournal(true) // TryKick undoes a rejected kick from the journal
	for range 200 {
		s.TryKick(10, false, never)
	}
	fmt.Println(s.Length() == solver.TourLength(in, around))
	// Output: true
}
