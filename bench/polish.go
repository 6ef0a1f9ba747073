package bench

import (
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/tour"
)

// polishLength returns the exact length of t after a local search on the
// CPU: 2-opt (tour.TwoOpt) and Or-opt (tour.OrOpt), both over the 10
// nearest neighbours, until neither improves. The suites report it beside
// a method's own result where the paper's protocol has no such step, so
// both stay visible. t is not changed.
func polishLength(in *solver.Instance, t []int) int64 {
	nb := neighbor.Nearest(in, 10)
	a := tour.NewArray(append([]int(nil), t...))
	for round := 0; round < 100; round++ {
		d2, _ := tour.TwoOpt(in, a, nb)
		dor, _ := tour.OrOpt(in, a, nb)
		if d2+dor == 0 {
			break
		}
	}
	return solver.TourLength(in, a.Tour)
}
