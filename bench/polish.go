package bench

import (
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/tour"
)

// polishLength returns the exact length of t after a local search on the
// CPU: 2-opt (tour.TwoOpt) and Or-opt (segments of 1 to 3 cities next to
// one of the 10 nearest neighbours of either end, both orientations)
// until neither improves. The suites report it beside a method's own
// result where the paper's protocol has no such step, so both stay
// visible. t is not changed.
func polishLength(in *solver.Instance, t []int) int64 {
	nb := neighbor.Nearest(in, 10)
	a := tour.NewArray(append([]int(nil), t...))
	d := tour.NewDist(in)
	n := a.Len()
	for round := 0; round < 100; round++ {
		improved := false
		if delta, _ := tour.TwoOpt(in, a, nb); delta < 0 {
			improved = true
		}
		for c := 0; c < n && n > 7; c++ {
			for l := 1; l <= 3; l++ {
				i := a.Pos[c]
				s, e := c, a.At(i+l-1)
				moved := false
				for _, z := range [2]int{s, e} {
					for _, x32 := range nb.Of(z) {
						x := int(x32)
						for _, u := range [2]int{x, a.Prev(x)} {
							for _, rev := range [2]bool{false, true} {
								if tour.DeltaOrOpt(d, a, i, l, u, rev) < 0 {
									a.OrOpt(i, l, u, rev)
									improved, moved = true, true
									break
								}
							}
							if moved {
								break
							}
						}
						if moved {
							break
						}
					}
					if moved {
						break
					}
				}
			}
		}
		if !improved {
			break
		}
	}
	return solver.TourLength(in, a.Tour)
}
