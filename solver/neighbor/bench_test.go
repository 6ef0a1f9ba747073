package neighbor

import (
	"math/rand/v2"
	"testing"

	"github.com/tsplab/tsplab/internal/testinst"
	"github.com/tsplab/tsplab/solver/problem"
)

func bench100k(b *testing.B) *problem.Instance {
	b.Helper()
	return testinst.Euc(100_000, 1e6, rand.New(rand.NewPCG(1, 1)))
}

func BenchmarkNearestNeighbors100k(b *testing.B) {
	in := bench100k(b)
	for b.Loop() {
		Nearest(in, 10)
	}
}

func BenchmarkQuadrantNeighbors100k(b *testing.B) {
	in := bench100k(b)
	for b.Loop() {
		Quadrant(in, 10)
	}
}

// BenchmarkQuadrantNeighborsCollinear100k: three quadrants are empty for
// every city, the case bounding boxes keep from becoming O(n²).
func BenchmarkQuadrantNeighborsCollinear100k(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 3))
	x, y := make([]float64, 100_000), make([]float64, 100_000)
	for i := range x {
		x[i] = rng.Float64() * 1e6
	}
	in := problem.NewCoordInstance("line", problem.Euc2D, x, y, nil)
	for b.Loop() {
		Quadrant(in, 8)
	}
}
