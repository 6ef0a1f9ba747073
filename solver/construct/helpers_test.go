package construct

import (
	"math/rand/v2"
	"testing"

	"github.com/tsplab/tsplab/solver"
)

// randomEuc returns a uniform random EUC_2D instance on a side×side square.
func randomEuc(n int, side float64, rng *rand.Rand) *solver.Instance {
	x, y := make([]float64, n), make([]float64, n)
	for i := range n {
		x[i], y[i] = rng.Float64()*side, rng.Float64()*side
	}
	return solver.NewCoordInstance("rand", solver.Euc2D, x, y, nil)
}

// randomGridEuc returns an EUC_2D instance with integer coordinates on a
// small grid, so that ties and coincident cities are common.
func randomGridEuc(n, side int, m solver.Metric, rng *rand.Rand) *solver.Instance {
	x, y := make([]float64, n), make([]float64, n)
	for i := range n {
		x[i], y[i] = float64(rng.IntN(side)), float64(rng.IntN(side))
	}
	return solver.NewCoordInstance("grid", m, x, y, nil)
}

// randomExplicit returns a symmetric EXPLICIT instance with random weights.
func randomExplicit(n int, rng *rand.Rand) *solver.Instance {
	m := make([]int32, n*n)
	for i := range n {
		for j := i + 1; j < n; j++ {
			d := int32(rng.IntN(1000))
			m[i*n+j], m[j*n+i] = d, d
		}
	}
	return solver.NewMatrixInstance("explicit", n, m)
}

// testInstances returns a mix of instances of size n.
func testInstances(n int, rng *rand.Rand) []*solver.Instance {
	return []*solver.Instance{
		randomEuc(n, 1000, rng),
		randomExplicit(n, rng),
		randomGridEuc(n, 8, solver.Euc2D, rng),
	}
}

func mustValid(t *testing.T, in *solver.Instance, tour []int, what string) {
	t.Helper()
	if err := solver.ValidateTour(tour, in.N); err != nil {
		t.Fatalf("%s on %s n=%d: %v", what, in.Name, in.N, err)
	}
}
