package tour

import (
	"math/rand/v2"
	"testing"

	"github.com/tsplab/tsplab/internal/testinst"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/neighbor"
)

func TestTwoOpt(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	for _, n := range []int{1, 2, 3, 4, 5, 8, 30, 200, 1000} {
		for _, in := range testinst.Mix(n, rng) {
			nb := neighbor.Nearest(in, 8)
			for _, start := range [][]int{construct.Random(n, rng), construct.Greedy(in, nb)} {
				a := NewArray(start)
				before := solver.TourLength(in, a.Tour)
				delta, _ := TwoOpt(in, a, nb)
				after := solver.TourLength(in, a.Tour)
				testinst.MustValid(t, in, a.Tour, "TwoOpt")
				if err := a.Check(); err != nil {
					t.Fatal(err)
				}
				if delta != after-before || delta > 0 {
					t.Fatalf("%s n=%d: delta %d, lengths %d → %d", in.Name, n, delta, before, after)
				}
				dist := NewDist(in)
				// Local optimum: no candidate move passing the gain
				// criterion (the new edge (x, c) shorter than the tour
				// edge (x, y) it replaces) improves.
				for _, x := range a.Tour {
					for _, c := range nb.Of(x) {
						c := int(c)
						if in.Dist(x, int(c)) < in.Dist(x, a.Next(x)) {
							if g := Delta2Opt(dist, a, a.Pos[x], a.Pos[c]); g < 0 {
								t.Fatalf("%s n=%d: improving move after %d, %d left: %d", in.Name, n, x, c, g)
							}
						}
						if in.Dist(x, c) < in.Dist(x, a.Prev(x)) {
							if g := Delta2Opt(dist, a, a.Pos[x]-1, a.Pos[c]-1); g < 0 {
								t.Fatalf("%s n=%d: improving move before %d, %d left: %d", in.Name, n, x, c, g)
							}
						}
					}
				}
			}
		}
	}
}
