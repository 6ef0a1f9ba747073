//go:build cuda

package gpu

import (
	"context"
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// TestPSPMDeviceCostMatchesTour checks the kernel's incremental
// bookkeeping: the cost the device tracks for its best tour (the sum of
// accepted move deltas, each from the e/rem caches) must equal that tour's
// length. A cache left stale by a relink drifts the tracked cost by whole
// edge lengths within a few thousand moves. The device measures edges with
// the fast square root, which is off by one on about 2 in 10^4 edges
// (TestIntDistMatchesCPU), hence the small tolerance. It covers a search
// per warp (threads 32 and 7), a search per block (64), the three
// coordinate metrics and a larger instance (n = 3000).
func TestPSPMDeviceCostMatchesTour(t *testing.T) {
	needDevice(t)
	e, err := solver.Lookup(AlgoPSPM, solver.BackendGPU)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		n, threads int
		metric     solver.Metric
	}{
		{150, 32, solver.Euc2D},
		{150, 7, solver.Euc2D},
		{150, 64, solver.Euc2D},
		{493, 48, solver.Euc2D}, // a search per block with a partial last warp
		{300, 40, solver.Att},
		{200, 32, solver.Ceil2D},
		{200, 32, solver.Att},
		{3000, 32, solver.Euc2D},
	}
	for _, c := range cases {
		in := randomInstance(c.n, c.metric, 1000, uint64(20+c.n+c.threads))
		p := quickParams(5)
		p.TimeLimit = 0
		p.Threads = c.threads
		snaps := solver.Latest()
		r, err := e.Solve(context.Background(), in, p, snaps)
		if err != nil {
			t.Fatalf("n=%d threads=%d %v: %v", c.n, c.threads, c.metric, err)
		}
		var s solver.Snapshot
		select {
		case s = <-snaps:
		default:
			t.Fatalf("n=%d threads=%d: no snapshot", c.n, c.threads)
		}
		exact := solver.TourLength(in, s.Best)
		tol := int64(2 + c.n/500)
		if d := s.BestLength - exact; d < -tol || d > tol {
			t.Fatalf("n=%d threads=%d %v: device cost %d, exact length of its tour %d", c.n, c.threads, c.metric, s.BestLength, exact)
		}
		start := solver.TourLength(in, solver.IdentityTour(in.N))
		if r.Length >= start {
			t.Fatalf("n=%d threads=%d %v: %d is no better than the identity tour's %d", c.n, c.threads, c.metric, r.Length, start)
		}
		t.Logf("n=%d threads=%d %v: device %d, exact %d, result %d (identity %d), %.3g moves/s",
			c.n, c.threads, c.metric, s.BestLength, exact, r.Length, start, r.MovesPerSecond())
	}
}

// TestPSPMHonoursTimeLimit: a schedule of minutes stopped by a 300 ms time
// limit returns its best tour (marked Stopped) soon after the limit, not
// after the launches the host had queued ahead of the GPU. The bound is
// generous (behaviour, not speed): one launch is at most 2^18 iterations.
func TestPSPMHonoursTimeLimit(t *testing.T) {
	needDevice(t)
	e, err := solver.Lookup(AlgoPSPM, solver.BackendGPU)
	if err != nil {
		t.Fatal(err)
	}
	in := randomInstance(5000, solver.Euc2D, 100000, 77)
	p := solver.Params{Seed: 3, TimeLimit: 300 * time.Millisecond} // Lam's schedule: 1146 steps of 50,000 iterations
	start := time.Now()
	r, err := e.Solve(context.Background(), in, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 3*time.Second || !r.Stopped {
		t.Fatalf("stopped after %v (Stopped=%v); limit 300ms", took, r.Stopped)
	}
	if err := solver.ValidateTour(r.Tour, in.N); err != nil {
		t.Fatal(err)
	}
}
