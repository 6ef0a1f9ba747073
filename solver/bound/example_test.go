package bound_test

import (
	"context"
	"fmt"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/bound"
)

// A 6×6 grid of cities 100 apart: every tour is at least 3600 long, and
// the bound proves it.
func ExampleCompute() {
	var x, y []float64
	for i := range 6 {
		for j := range 6 {
			x, y = append(x, float64(100*i)), append(y, float64(100*j))
		}
	}
	in := solver.NewCoordInstance("grid36", solver.Euc2D, x, y, nil)
	res, err := bound.Compute(context.Background(), in, bound.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Bound, res.GapPercent(3600))
	// Output: 3600 0
}
