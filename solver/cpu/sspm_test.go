package cpu

import (
	"slices"
	"testing"

	"github.com/tsplab/tsplab/solver"
)

// TestSSPMParallelPath: with enough moves per iteration (Pm ≥ 2 ×
// minMovesPerWorker) SSPM spreads each iteration over two workers; the
// run is still deterministic, valid, and improves on its random start.
func TestSSPMParallelPath(t *testing.T) {
	in := uniformInstance(120, 11)
	p := solver.Params{Seed: 5, Workers: 2, Threads: 2 * minMovesPerWorker, T0: 100, TEnd: 1, Alpha: 0.7, Sweeps: 2}
	a := solve(t, "sspm", in, p, nil)
	b := solve(t, "sspm", in, p, nil)
	if a.Length != b.Length || !slices.Equal(a.Tour, b.Tour) {
		t.Fatalf("same seed, different results: %d vs %d", a.Length, b.Length)
	}
	if a.Params.Workers != 2 {
		t.Fatalf("parallel path not taken: %d workers", a.Params.Workers)
	}
	random := solver.TourLength(in, solver.IdentityTour(in.N))
	if a.Length >= random {
		t.Fatalf("no improvement over a random tour: %d >= %d", a.Length, random)
	}
	// Small Pm runs on one core: the moves of an iteration are not split.
	p.Threads = 8
	if c := solve(t, "sspm", in, p, nil); c.Params.Workers != 1 {
		t.Fatalf("Pm=8 split over %d workers", c.Params.Workers)
	}
}
