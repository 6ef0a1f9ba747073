package tour_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/tour"
)

// First-improvement 2-opt over neighbour lists from a random start until
// no candidate move improves, keeping the length by deltas; the exact
// length agrees at the end. 2-opt stops in a local optimum (128, with two
// diagonals), here better than the greedy tour.
func Example() {
	// Twelve cities on a 4×3 grid, 10 apart: the optimum is 120.
	var x, y []float64
	for i := range 12 {
		x = append(x, float64(i%4)*10)
		y = append(y, float64(i/4)*10)
	}
	in := solver.NewCoordInstance("grid12", solver.Euc2D, x, y, nil)
	nb := neighbor.Nearest(in, 5)

	rng := rand.New(rand.NewPCG(1, 2))
	a := tour.NewArray(construct.Random(in.N, rng))
	length := solver.TourLength(in, a.Tour)
	fmt.Println("random start shorter than 200:", length < 200)

	for improved := true; improved; {
		improved = false
		for i := range in.N {
			c := a.Tour[i]
			for _, d := range nb.Of(c) {
				j := a.Pos[d]
				if delta := tour.Delta2Opt(tour.NewDist(in), a, i, j); delta < 0 {
					a.Apply2Opt(i, j)
					length += delta
					improved = true
					break
				}
			}
		}
	}
	fmt.Println("2-opt length:", length, "exact:", solver.TourLength(in, a.Tour))
	fmt.Println("greedy:", solver.TourLength(in, construct.Greedy(in, nb)))
	// Output:
	// random start shorter than 200: false
	// 2-opt length: 128 exact: 128
	// greedy: 140
}

// Relocating one city in a doubly linked tour, as LWSA does.
func ExampleLinked_Relocate() {
	in := solver.NewCoordInstance("line", solver.Euc2D,
		[]float64{0, 10, 20, 30, 40}, []float64{0, 0, 0, 0, 0}, nil)
	l := tour.NewLinked([]int{0, 2, 1, 3, 4})
	delta := tour.DeltaLinkedRelocate(tour.NewDist(in), l, 2, 1) // put 2 between 1 and 3
	l.Relocate(2, 1)
	fmt.Println(l.Tour(0), delta)
	// Output: [0 1 2 3 4] -20
}
