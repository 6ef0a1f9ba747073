package tour

import (
	"math/rand/v2"
	"testing"

	"github.com/tsplab/tsplab/solver"
)

var benchSink int64

func bench100k(b *testing.B) *solver.Instance {
	b.Helper()
	return randomEuc(100_000, 1e6, rand.New(rand.NewPCG(1, 1)))
}

func BenchmarkNearestNeighbors100k(b *testing.B) {
	in := bench100k(b)
	for b.Loop() {
		NearestNeighbors(in, 10)
	}
}

func BenchmarkQuadrantNeighbors100k(b *testing.B) {
	in := bench100k(b)
	for b.Loop() {
		QuadrantNeighbors(in, 10)
	}
}

func BenchmarkGreedyEdge100k(b *testing.B) {
	in := bench100k(b)
	nb := NearestNeighbors(in, 10)
	b.ResetTimer()
	for b.Loop() {
		GreedyEdge(in, nb)
	}
}

func BenchmarkNearestNeighbor100k(b *testing.B) {
	in := bench100k(b)
	nb := NearestNeighbors(in, 10)
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
