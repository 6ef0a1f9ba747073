package session

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// roundingEngine reports, while it runs, a best tour with a length below
// its exact one (as a device that sums rounded distances in another
// precision may), then returns the same tour through solver.Finish.
type roundingEngine struct{}

func (roundingEngine) Name() string     { return "rounding" }
func (roundingEngine) Backend() string  { return solver.BackendCPU }
func (roundingEngine) Describe() string { return "test engine: reports lengths a little short" }
func (roundingEngine) Available() error { return nil }
func (e roundingEngine) Solve(ctx context.Context, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot) (solver.Result, error) {
	start := time.Now()
	t := solver.IdentityTour(in.N)
	slices.Reverse(t[1:])
	l := solver.TourLength(in, t)
	snaps <- solver.Snapshot{Tour: slices.Clone(t), Best: slices.Clone(t), Length: l - 3, BestLength: l - 3, Elapsed: time.Millisecond}
	// Let the runner fold the snapshot in before the run ends.
	select {
	case <-ctx.Done():
	case <-time.After(5 * UpdateInterval):
	}
	return solver.Finish(in, e, p, solver.Outcome{Tour: t, Moves: 1, Steps: 1, Start: start, Device: "test"})
}

func init() { solver.Register(roundingEngine{}) }

// The run's result is the engine's exact one: a length a snapshot
// reported is shown while the run goes on, never kept as the result's.
func TestRunnerResultLengthIsExact(t *testing.T) {
	in := ring(40)
	r := NewRunner()
	if err := r.Start(in, solver.Params{Algorithm: "rounding", Backend: solver.BackendCPU}); err != nil {
		t.Fatal(err)
	}
	r.Wait()
	res, ok := r.Result()
	if !ok {
		t.Fatalf("no result (err %v)", r.Err())
	}
	if err := solver.ValidateTour(res.Tour, in.N); err != nil {
		t.Fatal(err)
	}
	if want := solver.TourLength(in, res.Tour); res.Length != want {
		t.Fatalf("result length %d, the tour's exact length is %d", res.Length, want)
	}
	if _, l := r.Best(); l != res.Length {
		t.Fatalf("Best() says %d, the result %d", l, res.Length)
	}
}
