package anneal

import (
	"slices"
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// TestSSPMParallelPath: with enough moves per iteration (Pm ≥ 2 ×
// minMovesPerWorker) SSPM spreads each iteration over two workers; the
// run is still deterministic, valid, and improves on its random start.
func TestSSPMParallelPath(t *testing.T) {
	in := uniformInstance(120, 11)
	p := solver.Params{Seed: 5, Workers: 2}
	set := func(a *solver.Anneal) {
		a.Threads, a.T0, a.TEnd, a.Alpha, a.Sweeps = 2*minMovesPerWorker, 100, 1, 0.7, 2
	}
	a := solveWith(t, "sspm", in, p, set)
	b := solveWith(t, "sspm", in, p, set)
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
	if c := solveWith(t, "sspm", in, p, func(a *solver.Anneal) { set(a); a.Threads = 8 }); c.Params.Workers != 1 {
		t.Fatalf("Pm=8 split over %d workers", c.Params.Workers)
	}
}

// With a time limit the parallel path runs a schedule fitted to it, which
// ends in its descent: the report says so and the tour is valid.
func TestSSPMParallelFitted(t *testing.T) {
	in := uniformInstance(200, 12)
	p := solver.Params{Seed: 5, Workers: 2, TimeLimit: 300 * time.Millisecond}
	r := solveWith(t, "sspm", in, p, func(a *solver.Anneal) { a.Threads = 2 * minMovesPerWorker })
	if r.Params.Workers != 2 {
		t.Fatalf("parallel path not taken: %d workers", r.Params.Workers)
	}
	s := r.Schedule
	if s == nil || !s.Fitted || s.Steps < 2 || !(s.Alpha0 > 0 && s.Alpha0 < 1) {
		t.Fatalf("schedule %+v", s)
	}
	if r.StopReason == solver.StopDone && s.Descent <= 0 {
		t.Fatalf("schedule done without its descent: %+v", s)
	}
}
