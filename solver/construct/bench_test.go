package construct

import (
	"math/rand/v2"
	"testing"

	"github.com/tsplab/tsplab/internal/testinst"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/problem"
)

func bench100k(b *testing.B) *problem.Instance {
	b.Helper()
	return testinst.Euc(100_000, 1e6, rand.New(rand.NewPCG(1, 1)))
}

func BenchmarkGreedy100k(b *testing.B) {
	in := bench100k(b)
	nb := neighbor.Nearest(in, 10)
	b.ResetTimer()
	for b.Loop() {
		Greedy(in, nb)
	}
}

func BenchmarkNearestNeighbor100k(b *testing.B) {
	in := bench100k(b)
	nb := neighbor.Nearest(in, 10)
	b.ResetTimer()
	for b.Loop() {
		NearestNeighbor(in, 0, nb)
	}
}

func BenchmarkSpaceFillingCurve100k(b *testing.B) {
	in := bench100k(b)
	for b.Loop() {
		SpaceFillingCurve(in)
	}
}
