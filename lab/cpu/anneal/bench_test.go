package anneal

import (
	"math"
	"testing"

	"github.com/tsplab/tsplab/internal/runctl"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/tour"
)

// newRNG returns stream number stream of seed.
func newRNG(seed, stream uint64) *runctl.Rand { return runctl.NewRand(seed, stream) }

// reportMoves reports the moves evaluated per second.
func reportMoves(b *testing.B, moves int64) {
	b.ReportMetric(float64(moves)/b.Elapsed().Seconds(), "moves/s")
}

// TestStepIters: N·Sweeps saturates instead of overflowing into an empty
// schedule.
func TestStepIters(t *testing.T) {
	for _, c := range [][3]int{{2000, math.MaxInt64, maxIters}, {1 << 20, 1 << 20, maxIters}, {1000, 10, 10000}, {5, 0, 0}} {
		if got := stepIters(c[0], c[1]); got != c[2] {
			t.Errorf("stepIters(%d, %d) = %d, want %d", c[0], c[1], got, c[2])
		}
	}
}

// BenchmarkLWSA: one LWSA iteration (propose a relocation, Metropolis,
// apply) at a mid-schedule temperature.
func BenchmarkLWSA(b *testing.B) {
	in := uniformInstance(1000, 1)
	r := newRNG(1, 0)
	s := newSearch(tour.NewDist(in), r.RandomTour(in.N), r)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.iterate(20, 1)
	}
	reportMoves(b, int64(b.N))
}

// BenchmarkPSPMBlock: one iteration of a PSPM search with 32 moves.
func BenchmarkPSPMBlock(b *testing.B) {
	in := uniformInstance(1000, 1)
	r := newRNG(1, 0)
	s := newSearch(tour.NewDist(in), r.RandomTour(in.N), r)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.iterate(20, solver.DefaultThreads)
	}
	reportMoves(b, int64(b.N)*solver.DefaultThreads)
}
