//go:build cuda

package gpu

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// TestPSPMDeviceCostMatchesTour checks the kernel's incremental
// bookkeeping: the cost the device tracks for its best tour (the sum of
// accepted move deltas, each from the e/rem caches) must equal that tour's
// length. A cache left stale by a relink drifts the tracked cost by whole
// edge lengths within a few thousand moves. The device measures edges with
// the fast square root, which is off by one on about 2 in 10^4 edges
// (TestIntDistMatchesCPU), hence the small tolerance. It covers a search
// per warp (threads 32 and 7), several searches per warp (lanes 8 and
// 16, with 1, 2 and 4 moves per lane, some of them unused), a search per
// block (64), the three coordinate metrics, a larger instance (n = 3000)
// and the "first" move selection (moves tested one by one, keys of
// another layout).
func TestPSPMDeviceCostMatchesTour(t *testing.T) {
	needDevice(t)
	e, err := solver.Lookup(AlgoPSPM, solver.BackendGPU)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		n, threads int
		metric     solver.Metric
		lanes      string
		sel        string // the "select" option ("": best)
	}{
		{150, 32, solver.Euc2D, "32", ""},
		{150, 7, solver.Euc2D, "32", ""},
		{150, 64, solver.Euc2D, "", ""},
		{493, 48, solver.Euc2D, "", ""}, // a search per block with a partial last warp
		{300, 40, solver.Att, "", ""},
		{200, 32, solver.Ceil2D, "", ""},
		{200, 32, solver.Att, "", ""},
		{3000, 32, solver.Euc2D, "", ""},
		{150, 32, solver.Euc2D, "8", ""},  // 4 searches per warp, 4 moves per lane
		{150, 12, solver.Euc2D, "8", ""},  // 2 moves per lane, 4 of 16 unused
		{150, 21, solver.Euc2D, "8", ""},  // 4 moves per lane, 11 of 32 unused
		{150, 5, solver.Att, "8", ""},     // 1 move per lane
		{200, 32, solver.Euc2D, "16", ""}, // 2 searches per warp, 2 moves per lane
		{200, 12, solver.Ceil2D, "16", ""},
		{3000, 32, solver.Euc2D, "8", ""},
		{150, 32, solver.Euc2D, "32", "first"},
		{150, 7, solver.Euc2D, "", "first"}, // moves past the 7th never win
		{200, 32, solver.Att, "", "first"},
		{200, 32, solver.Ceil2D, "", "first"},
		{3000, 32, solver.Euc2D, "", "first"},
	}
	for _, c := range cases {
		in := randomInstance(c.n, c.metric, 1000, uint64(20+c.n+c.threads))
		p := quickParams(5)
		p.TimeLimit = 0
		p.Threads = c.threads
		p.Extra = map[string]string{}
		if c.lanes != "" {
			p.Extra["lanes"] = c.lanes
		}
		if c.sel != "" {
			p.Extra["select"] = c.sel
		}
		snaps := solver.Latest()
		r, err := e.Solve(context.Background(), in, p, snaps)
		if err != nil {
			t.Fatalf("n=%d threads=%d %v: %v", c.n, c.threads, c.metric, err)
		}
		var s solver.Snapshot
		select {
		case s = <-snaps:
		default:
			t.Fatalf("n=%d threads=%d lanes %s: no snapshot", c.n, c.threads, c.lanes)
		}
		exact := solver.TourLength(in, s.Best)
		tol := int64(2 + c.n/500)
		if d := s.BestLength - exact; d < -tol || d > tol {
			t.Fatalf("n=%d threads=%d lanes %s select %s %v: device cost %d, exact length of its tour %d", c.n, c.threads, c.lanes, c.sel, c.metric, s.BestLength, exact)
		}
		start := solver.TourLength(in, solver.IdentityTour(in.N))
		if r.Length >= start {
			t.Fatalf("n=%d threads=%d %v: %d is no better than the identity tour's %d", c.n, c.threads, c.metric, r.Length, start)
		}
		t.Logf("n=%d threads=%d lanes %s select %s %v: device %d, exact %d, result %d (identity %d), %.3g moves/s, %d searches",
			c.n, c.threads, c.lanes, c.sel, c.metric, s.BestLength, exact, r.Length, start, r.MovesPerSecond(), r.Params.Blocks)
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

// TestPSPMLanesRejectsPartialWarps: with several searches per warp the
// number of searches must fill whole warps; a count that does not is
// refused with a message, not run with a warp half idle.
func TestPSPMLanesRejectsPartialWarps(t *testing.T) {
	needDevice(t)
	e, _ := solver.Lookup(AlgoPSPM, solver.BackendGPU)
	in := randomInstance(100, solver.Euc2D, 1000, 5)
	p := quickParams(2)
	p.TimeLimit = 0
	p.Blocks, p.Extra = 98, map[string]string{"lanes": "8"}
	if _, err := e.Solve(context.Background(), in, p, nil); err == nil || !strings.Contains(err.Error(), "multiple") {
		t.Fatalf("98 searches on lanes 8: err = %v, want a message about whole warps", err)
	}
	p.Extra = nil // auto: a layout that takes 98
	r, err := e.Solve(context.Background(), in, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, "98 searches, auto lanes", in, r)
}

// TestPSPMLanesReport is a measurement, not a check: with
// TSPLAB_PSPM_AB=name,name,... (TSPLIB_DIR holding the files) it runs the
// whole default schedule on each instance for every team width
// (TSPLAB_PSPM_LANES, default "32,16,8"), TSPLAB_PSPM_BLOCKS (searches;
// default the engine's), move selection (TSPLAB_PSPM_SELECT, default
// "best") and seed (TSPLAB_PSPM_SEEDS, default "1") and logs moves/s, the
// error and the error after an exact 2-opt polish of the result.
func TestPSPMLanesReport(t *testing.T) {
	names := os.Getenv("TSPLAB_PSPM_AB")
	if names == "" {
		t.Skip("set TSPLAB_PSPM_AB to instance names (and TSPLIB_DIR)")
	}
	needDevice(t)
	e, _ := solver.Lookup(AlgoPSPM, solver.BackendGPU)
	lanes := strings.Split(orDefault(os.Getenv("TSPLAB_PSPM_LANES"), "32,16,8"), ",")
	blocks := strings.Split(orDefault(os.Getenv("TSPLAB_PSPM_BLOCKS"), "0"), ",")
	selects := strings.Split(orDefault(os.Getenv("TSPLAB_PSPM_SELECT"), "best"), ",")
	seeds := strings.Split(orDefault(os.Getenv("TSPLAB_PSPM_SEEDS"), "1"), ",")
	dir := os.Getenv("TSPLIB_DIR")
	for _, name := range strings.Split(names, ",") {
		in, err := tsplib.Load(dir+"/"+name+".tsp", dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range blocks {
			for _, l := range lanes {
				for _, sel := range selects {
					for _, seed := range seeds {
						p := solver.Params{Extra: map[string]string{"lanes": l, "select": sel}}
						fmt.Sscan(b, &p.Blocks)
						fmt.Sscan(seed, &p.Seed)
						r, err := e.Solve(context.Background(), in, p, nil)
						if err != nil {
							t.Logf("%s lanes %s blocks %s select %s: %v", name, l, b, sel, err)
							continue
						}
						gap, _ := solver.GapPercent(r.Length, in.Optimum)
						pt := append([]int(nil), r.Tour...)
						polish2Opt(in, pt, neighbor.Nearest(in, 10))
						pgap, _ := solver.GapPercent(solver.TourLength(in, pt), in.Optimum)
						t.Logf("AB %s n=%d lanes %s select %s seed %d searches %d: %.4g moves/s, %.2f s, gap %.3f %%, after 2-opt %.3f %%",
							name, in.N, l, sel, p.Seed, r.Params.Blocks, r.MovesPerSecond(), r.Elapsed.Seconds(), gap, pgap)
					}
				}
			}
		}
	}
}

func orDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// TestPSPMSelectFirstNeedsWarpSearches: the "first" selection exists for
// one search per warp; a block team or several searches per warp are
// refused with a message, and an unknown selection is refused.
func TestPSPMSelectFirstNeedsWarpSearches(t *testing.T) {
	needDevice(t)
	e, _ := solver.Lookup(AlgoPSPM, solver.BackendGPU)
	in := randomInstance(100, solver.Euc2D, 1000, 5)
	for _, c := range []struct {
		threads int
		extra   map[string]string
		want    string
	}{
		{64, map[string]string{"select": "first"}, "one search per warp"},
		{32, map[string]string{"select": "first", "lanes": "16"}, "one search per warp"},
		{32, map[string]string{"select": "worst"}, "best|first"},
	} {
		p := quickParams(2)
		p.TimeLimit = 0
		p.Threads, p.Extra = c.threads, c.extra
		if _, err := e.Solve(context.Background(), in, p, nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("threads %d %v: err = %v, want %q", c.threads, c.extra, err, c.want)
		}
	}
}
