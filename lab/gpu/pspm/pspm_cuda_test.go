//go:build cuda

package pspm

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/internal/gputest"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// TestPSPMDeviceCostMatchesTour checks the kernel's incremental
// bookkeeping: the cost the device tracks for its best tour (the sum of
// accepted move deltas, each from the e/rem caches) must equal that tour's
// length. A cache left stale by a relink drifts the tracked cost by whole
// edge lengths within a few thousand moves. The device measures edges with
// the fast square root, which is off by one on about 2 in 10^4 edges
// (TestIntDistMatchesCPU), hence the small tolerance. It covers a search
// per warp (threads 32 and 7; 64, 48, 40 and 33: two moves per lane), a
// search per block (96, 80, 1024), the three coordinate metrics, larger
// instances (n = 3000; 20000: the lists in global memory; 15000 on 132
// searches: in shared memory, a search per SM; the default searches from
// 3000 cities: the tour layout, a block of warps making concurrent moves on
// one tour, whose cost is the sum of the moves the warps made under their
// locks) and the move draws: uniform, from the
// neighbour lists on half the lanes (the default's draw at these
// temperatures) and on all of them; the neighbour draw's e[p] is a
// distance the kernel computes, not the cached one, so a mismatch between
// the two would show here too. With seg 2 or 3 the moves carry segments of
// up to that many cities (0: the default, relocations), so the segment
// move's delta (its walk, the e values and d(u, z) for the gap it closes)
// and relink (by the winner alone, or by the whole warp where the lists are
// in global memory) are checked the same way, in each layout and on 12
// cities, where a segment often sits beside its new place. The exchange,
// which sets each search's tour and tracked cost for the next segment, is
// checked too: islands (pspm_exchange: the default of 32 from 100 to 499
// cities, 7 with a short last island, block searches, one search each) and
// every search from the global best (island 0, and the other sizes).
func TestPSPMDeviceCostMatchesTour(t *testing.T) {
	gputest.NeedDevice(t)
	e, err := solver.Lookup(AlgoPSPM, solver.BackendGPU)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		n, threads, blocks int // blocks -1: the default
		metric             solver.Metric
		draw               string // the "draw" option ("": auto, nn at these temperatures)
		seg                int    // the "seg" option (0: the default)
		island             int    // the "island" option (-1: the default)
	}{
		{150, 32, 0, solver.Euc2D, "", 0, -1},
		{150, 7, 0, solver.Euc2D, "", 0, -1},
		{150, 64, 0, solver.Euc2D, "", 0, -1},
		{493, 48, 0, solver.Euc2D, "", 0, -1}, // two moves on half the lanes
		{300, 40, 0, solver.Att, "", 0, -1},
		{150, 96, 0, solver.Euc2D, "", 0, -1},      // a search per block
		{493, 80, 0, solver.Euc2D, "", 0, -1},      // a search per block with a partial last warp
		{3000, 1024, 132, solver.Euc2D, "", 0, -1}, // a search per block of 32 warps
		{300, 64, 0, solver.Euc2D, "uniform", 0, -1},
		{300, 33, 0, solver.Att, "mixed", 0, -1}, // one lane with two moves
		{300, 64, 0, solver.Euc2D, "nn", 0, -1},
		{3000, 64, 0, solver.Euc2D, "", 0, -1},
		{200, 64, 0, solver.Ceil2D, "", 0, -1},
		{200, 32, 0, solver.Ceil2D, "", 0, -1},
		{200, 32, 0, solver.Att, "", 0, -1},
		{3000, 32, 0, solver.Euc2D, "", 0, -1},
		{150, 32, 0, solver.Euc2D, "uniform", 0, -1},
		{150, 7, 0, solver.Euc2D, "uniform", 0, -1},
		{200, 32, 0, solver.Att, "uniform", 0, -1},
		{3000, 32, 0, solver.Euc2D, "uniform", 0, -1},
		{150, 7, 0, solver.Euc2D, "nn", 0, -1}, // lanes past the 7th draw too, never win
		{200, 32, 0, solver.Ceil2D, "nn", 0, -1},
		{300, 32, 0, solver.Att, "nn", 0, -1},
		{20000, 32, 0, solver.Euc2D, "nn", 0, -1},   // lists in global memory
		{15000, 32, 132, solver.Euc2D, "nn", 0, -1}, // lists in shared memory, a search per SM
		{150, 7, 0, solver.Euc2D, "mixed", 0, -1},
		{3000, 32, 0, solver.Euc2D, "mixed", 0, -1},
		{200, 32, 0, solver.Att, "mixed", 0, -1},
		{15000, 32, -1, solver.Euc2D, "nn", 0, -1}, // the tour layout
		{5000, 32, -1, solver.Euc2D, "", 0, -1},
		{3000, 32, -1, solver.Att, "mixed", 0, -1},
		{3000, 32, -1, solver.Ceil2D, "uniform", 0, -1},
		{150, 32, 0, solver.Euc2D, "", 3, -1},
		{150, 7, 0, solver.Euc2D, "uniform", 2, -1},
		{493, 48, 0, solver.Euc2D, "", 3, -1}, // two moves on half the lanes
		{300, 96, 0, solver.Att, "", 3, -1},   // a search per block
		{493, 32, 0, solver.Euc2D, "nn", 2, -1},
		{200, 80, 0, solver.Ceil2D, "mixed", 2, -1},
		{200, 32, 0, solver.Ceil2D, "nn", 3, -1},
		{3000, 1024, 132, solver.Euc2D, "", 2, -1},
		{3000, 32, 0, solver.Euc2D, "mixed", 3, -1},
		{12, 32, 0, solver.Euc2D, "", 3, -1},
		{12, 96, 0, solver.Euc2D, "uniform", 3, -1},
		{15000, 32, -1, solver.Euc2D, "nn", 3, -1},   // the tour layout relocates only
		{20000, 32, 0, solver.Euc2D, "mixed", 3, -1}, // lists in global memory
		{150, 32, 64, solver.Euc2D, "", 0, 0},        // every search from the global best (Lam et al.)
		{493, 32, 200, solver.Euc2D, "", 0, 7},       // islands of 7, the last one short
		{300, 96, 40, solver.Att, "mixed", 2, 8},     // islands of block searches, segment moves
		{200, 32, 132, solver.Ceil2D, "nn", 0, 1},    // every search on its own
	}
	for _, c := range cases {
		in := gputest.RandomInstance(c.n, c.metric, 1000, uint64(20+c.n+c.threads))
		p := gputest.QuickParams(5)
		p.TimeLimit = 0
		p = gputest.WithOpts(p, fmt.Sprint("threads=", c.threads))
		if c.blocks != 0 {
			p = gputest.WithOpts(p, fmt.Sprint("blocks=", max(0, c.blocks)))
		}
		if c.draw != "" {
			p = p.WithExtra("draw", c.draw)
		}
		if c.seg != 0 {
			p = gputest.WithOpts(p, fmt.Sprint("seg=", c.seg))
		}
		if c.island >= 0 {
			p = gputest.WithOpts(p, fmt.Sprint("island=", c.island))
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
			t.Fatalf("n=%d threads=%d: no snapshot", c.n, c.threads)
		}
		exact := solver.TourLength(in, s.Best)
		tol := int64(2 + c.n/500)
		if d := s.BestLength - exact; d < -tol || d > tol {
			t.Fatalf("n=%d threads=%d blocks %d draw %s seg %d island %d %v: device cost %d, exact length of its tour %d", c.n, c.threads, c.blocks, c.draw, c.seg, c.island, c.metric, s.BestLength, exact)
		}
		start := solver.TourLength(in, solver.IdentityTour(in.N))
		if r.Length >= start {
			t.Fatalf("n=%d threads=%d %v: %d is no better than the identity tour's %d", c.n, c.threads, c.metric, r.Length, start)
		}
		t.Logf("n=%d threads=%d blocks %d draw %s seg %d %v: device %d, exact %d, result %d (identity %d), %.3g moves/s, %d searches",
			c.n, c.threads, c.blocks, c.draw, c.seg, c.metric, s.BestLength, exact, r.Length, start, r.MovesPerSecond(), r.Settings.Blocks)
	}
}

// TestPSPMHonoursTimeLimit: a schedule of minutes stopped by a 300 ms time
// limit returns its best tour marked stopped by the time limit, a small
// part of the schedule's steps done.
func TestPSPMHonoursTimeLimit(t *testing.T) {
	gputest.NeedDevice(t)
	e, err := solver.Lookup(AlgoPSPM, solver.BackendGPU)
	if err != nil {
		t.Fatal(err)
	}
	in := gputest.RandomInstance(5000, solver.Euc2D, 100000, 77)
	// Lam's schedule (alpha given: not fitted): 1146 steps of 50,000 iterations
	p := gputest.WithOpts(solver.Params{Seed: 3, TimeLimit: 300 * time.Millisecond}, "alpha=0.99")
	r, err := solver.RunAided(context.Background(), e, in, p, nil, solver.Aid{}, false)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Stopped || r.StopReason != solver.StopTime || r.Steps >= 1146 {
		t.Fatalf("stopped %v (%v) after %d of 1,146 steps; want by the 300-ms limit", r.Stopped, r.StopReason, r.Steps)
	}
	if err := solver.ValidateTour(r.Tour, in.N); err != nil {
		t.Fatal(err)
	}
}

// TestPSPMFitsScheduleToLimit: with a time limit that Lam's schedule
// would outlast, the run follows a whole schedule fitted to it (T from T0
// down to TEnd, then the descent), ends by the limit or the schedule's
// end, says so in Result.Schedule, and its tour is shorter than Lam's
// schedule cut at the same limit.
func TestPSPMFitsScheduleToLimit(t *testing.T) {
	gputest.NeedDevice(t)
	e, _ := solver.Lookup(AlgoPSPM, solver.BackendGPU)
	in := gputest.RandomInstance(5000, solver.Euc2D, 100000, 78)
	p := solver.Params{Seed: 3, TimeLimit: time.Second}
	r, err := solver.RunAided(context.Background(), e, in, p, nil, solver.Aid{}, false)
	if err != nil {
		t.Fatal(err)
	}
	gputest.CheckResult(t, "fitted", in, r)
	sc := r.Schedule
	if sc == nil || !sc.Fitted || sc.TLast > 2*sc.TEnd || sc.Descent <= 0 || sc.Steps < 10 {
		t.Fatalf("schedule %v", sc)
	}
	if r.StopReason != solver.StopTime && r.StopReason != solver.StopDone {
		t.Fatalf("a fitted 1-s run ended by %v, want its limit or its schedule", r.StopReason)
	}
	p = gputest.WithOpts(p, "alpha=0.99") // Lam's, cut by the limit
	cut, err := solver.RunAided(context.Background(), e, in, p, nil, solver.Aid{}, false)
	if err != nil {
		t.Fatal(err)
	}
	if cut.Schedule == nil || cut.Schedule.Fitted || !cut.Stopped {
		t.Fatalf("alpha given: schedule %v, stopped %v", cut.Schedule, cut.Stopped)
	}
	if 10*r.Length > 9*cut.Length {
		t.Fatalf("fitted %d, Lam's cut at the limit %d: want at least 10 %% shorter", r.Length, cut.Length)
	}
	t.Logf("fitted: %d (%v); Lam's cut: %d (%v)", r.Length, sc, cut.Length, cut.Schedule)
}

// BenchmarkPSPM runs PSPM on the TSPLIB instances named in TSPLAB_PSPM
// (name,name,...; TSPLIB_DIR holding them) with the default options, or
// TSPLAB_PSPM_THREADS and TSPLAB_PSPM_BLOCKS, and the time limit
// TSPLAB_PSPM_TIME (a Go duration; none: Lam's whole schedule), and
// reports moves per second and the gap to the optimum. docs/BENCHMARKS.md
// keeps the current figures; tsp bench --suite lam is the paper's protocol.
func BenchmarkPSPM(b *testing.B) {
	names := os.Getenv("TSPLAB_PSPM")
	if names == "" {
		b.Skip("set TSPLAB_PSPM to instance names (and TSPLIB_DIR)")
	}
	if err := device.Available(); err != nil {
		b.Skip(err)
	}
	e, _ := solver.Lookup(AlgoPSPM, solver.BackendGPU)
	var p solver.Params
	for _, name := range []string{"threads", "blocks"} {
		if v := os.Getenv("TSPLAB_PSPM_" + strings.ToUpper(name)); v != "" {
			p = gputest.WithOpts(p, name+"="+v)
		}
	}
	if d := os.Getenv("TSPLAB_PSPM_TIME"); d != "" {
		var err error
		if p.TimeLimit, err = time.ParseDuration(d); err != nil {
			b.Fatal(err)
		}
	}
	dir := os.Getenv("TSPLIB_DIR")
	for _, name := range strings.Split(names, ",") {
		in, err := tsplib.Load(dir+"/"+name+".tsp", dir)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				p.Seed = uint64(i + 1)
				r, err := solver.RunAided(context.Background(), e, in, p, nil, solver.Aid{}, false)
				if err != nil {
					b.Fatal(err)
				}
				gap, _ := solver.GapPercent(r.Length, in.Optimum)
				b.ReportMetric(r.MovesPerSecond(), "moves/s")
				b.ReportMetric(gap, "gap%")
			}
		})
	}
}

// TestPSPMDrawOptions: the neighbour draw runs only where its kernel
// exists; asked elsewhere it is refused with a message, while the default
// (auto) draws uniformly there; unknown values are refused.
func TestPSPMDrawOptions(t *testing.T) {
	gputest.NeedDevice(t)
	e, _ := solver.Lookup(AlgoPSPM, solver.BackendGPU)
	in := gputest.RandomInstance(100, solver.Euc2D, 1000, 5)
	for _, c := range []struct {
		threads  int
		settings []string
		want     string // "": runs
	}{
		{96, []string{"draw=nn"}, ""},
		{32, []string{"lanes=16"}, "lanes"}, // an option no more
		{32, []string{"select=first"}, "select"},
		{32, []string{"draw=near"}, "draw"},
		{32, []string{"draw=nn", "nnk=1"}, "nnk"},
		{32, []string{"nnfrom=-3"}, "nnfrom"},
		{64, nil, ""},
		{96, nil, ""},
		{64, []string{"draw=nn"}, ""},
		{32, []string{"draw=nn", "nnk=99"}, "nnk"},
	} {
		p := gputest.QuickParams(2)
		p.TimeLimit = 0
		p = gputest.WithOpts(p, append([]string{fmt.Sprint("threads=", c.threads)}, c.settings...)...)
		r, err := e.Solve(context.Background(), in, p, nil)
		if c.want == "" {
			if err != nil {
				t.Errorf("threads %d %v: %v", c.threads, c.settings, err)
			} else {
				gputest.CheckResult(t, fmt.Sprint(c.settings), in, r)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("threads %d %v: err = %v, want %q", c.threads, c.settings, err, c.want)
		}
	}
}

// TestPSPMPlansWarpLayouts: a search of up to 64 moves is one warp (two
// moves per lane from 33), also with the neighbour draw; more moves take a
// block; a run of one search per SM on 13,509 cities keeps its records in
// shared memory, while a full wave keeps them in global memory; the
// default there is the tour layout, up to 18,512 cities.
func TestPSPMPlansWarpLayouts(t *testing.T) {
	r := gputest.NeedRun(t)
	nbr := pspmDefaultNbrBytes(493, pspmDefaultNNK(AlgoPSPM, 493))
	sms := r.Dev.Info.Multiprocs
	err := r.Do(func() error {
		for _, c := range []struct {
			n, tpb, metric, tb, nbr int
			warp                    bool
			moves, shared           int // shared -1: any
		}{
			{493, 32, device.MetricEuc2D, 0, nbr, true, 1, -1},
			{493, 33, device.MetricEuc2D, 0, nbr, true, 2, -1},
			{493, 64, device.MetricEuc2D, 0, nbr, true, 2, -1},
			{493, 64, device.MetricCeil2D, 0, 0, true, 2, -1},
			{493, 65, device.MetricEuc2D, 0, 0, false, 1, -1},
			{493, 96, device.MetricAtt, 0, 0, false, 1, -1},
			{13509, 32, device.MetricEuc2D, 0, pspmDefaultNbrBytes(13509, pspmDefaultNNK(AlgoPSPM, 13509)), true, 1, 0},
			{13509, 32, device.MetricEuc2D, sms, pspmDefaultNbrBytes(13509, pspmDefaultNNK(AlgoPSPM, 13509)), true, 1, pspmSharedLists},
			{13509, 64, device.MetricEuc2D, sms, 0, false, 1, pspmSharedLists},
			{70000, 32, device.MetricEuc2D, 0, 0, true, 1, 0},
		} {
			pl, err := planPSPM(r, c.n, c.tpb, c.metric, c.tb, c.nbr)
			if err != nil {
				return err
			}
			l := pl.layout
			if l.warp != c.warp || l.moves != c.moves || (c.shared >= 0 && l.shared != c.shared) || l.wide != (c.n >= 65535) || l.metric != c.metric {
				return fmt.Errorf("n %d tpb %d metric %d tb %d: %s, want warp %v moves %d shared %d", c.n, c.tpb, c.metric, c.tb, l.name, c.warp, c.moves, c.shared)
			}
			if c.tb > 0 && pl.perSM*sms < c.tb {
				return fmt.Errorf("n %d tb %d: %s holds %d searches per SM", c.n, c.tb, l.name, pl.perSM)
			}
			t.Logf("n %d tpb %d metric %d tb %d: %s, %d searches/SM", c.n, c.tpb, c.metric, c.tb, l.name, pl.perSM)
		}
		// The default searches: the tour layout where a wave would keep
		// the records in global memory and the tour fits, one per SM.
		for _, c := range []struct {
			n, tpb int
			tour   bool
		}{{493, 32, false}, {13509, 32, true}, {18512, 32, true}, {13509, 64, false}, {30000, 32, false}} {
			pl, tb, err := planDefault(r, c.n, c.tpb, device.MetricEuc2D, pspmDefaultNbrBytes(c.n, pspmDefaultNNK(AlgoPSPM, c.n)))
			if err != nil {
				return err
			}
			if pl.layout.tour != c.tour || (c.tour && (tb != sms || pl.teams < 8 || pl.teams*32 != pl.blockDim)) {
				return fmt.Errorf("default n %d tpb %d: %s, %d searches of %d teams", c.n, c.tpb, pl.layout.name, tb, pl.teams)
			}
			t.Logf("default n %d tpb %d: %s, %d searches of %d teams, %d B shared", c.n, c.tpb, pl.layout.name, tb, pl.teams, pl.shared)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
