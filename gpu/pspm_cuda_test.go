//go:build cuda

package gpu

import (
	"context"
	"testing"

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
