//go:build cuda

package gpu

import (
	"context"
	"fmt"
	"math"
	"os"
	"strconv"
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
// per warp (threads 32 and 7; 64, 48 and 40: two moves per lane), several
// searches per warp (lanes 8 and 16, with 1, 2 and 4 moves per lane, some
// of them unused), a search per block (96, 80), the three coordinate
// metrics, a larger instance (n = 3000), the "first" move selection (moves tested one by one, keys of
// another layout) and the move draws: uniform, from the neighbour lists on
// half the lanes (the default's draw at these temperatures) and on all of
// them, with the lists in shared memory and, at n = 20000, in global
// memory; the neighbour draw's
// e[p] is a distance the kernel computes, not the cached one, so a
// mismatch between the two would show here too.
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
		draw       string // the "draw" option ("": auto, nn at these temperatures)
	}{
		{150, 32, solver.Euc2D, "32", "", ""},
		{150, 7, solver.Euc2D, "32", "", ""},
		{150, 64, solver.Euc2D, "", "", ""},
		{493, 48, solver.Euc2D, "", "", ""}, // two moves on half the lanes
		{300, 40, solver.Att, "", "", ""},
		{150, 96, solver.Euc2D, "", "", ""}, // a search per block
		{493, 80, solver.Euc2D, "", "", ""}, // a search per block with a partial last warp
		{300, 64, solver.Euc2D, "", "", "uniform"},
		{300, 33, solver.Att, "", "", "mixed"}, // one lane with two moves
		{300, 64, solver.Euc2D, "", "", "nn"},
		{3000, 64, solver.Euc2D, "", "", ""},
		{200, 64, solver.Ceil2D, "", "", ""},
		{200, 32, solver.Ceil2D, "", "", ""},
		{200, 32, solver.Att, "", "", ""},
		{3000, 32, solver.Euc2D, "", "", ""},
		{150, 32, solver.Euc2D, "8", "", ""},  // 4 searches per warp, 4 moves per lane
		{150, 12, solver.Euc2D, "8", "", ""},  // 2 moves per lane, 4 of 16 unused
		{150, 21, solver.Euc2D, "8", "", ""},  // 4 moves per lane, 11 of 32 unused
		{150, 5, solver.Att, "8", "", ""},     // 1 move per lane
		{200, 32, solver.Euc2D, "16", "", ""}, // 2 searches per warp, 2 moves per lane
		{200, 12, solver.Ceil2D, "16", "", ""},
		{3000, 32, solver.Euc2D, "8", "", ""},
		{150, 32, solver.Euc2D, "32", "first", ""},
		{150, 7, solver.Euc2D, "", "first", ""}, // moves past the 7th never win
		{200, 32, solver.Att, "", "first", ""},
		{200, 32, solver.Ceil2D, "", "first", ""},
		{3000, 32, solver.Euc2D, "", "first", ""},
		{150, 32, solver.Euc2D, "32", "", "uniform"},
		{150, 7, solver.Euc2D, "", "", "uniform"},
		{200, 32, solver.Att, "", "", "uniform"},
		{3000, 32, solver.Euc2D, "", "", "uniform"},
		{150, 7, solver.Euc2D, "", "", "nn"}, // lanes past the 7th draw too, never win
		{200, 32, solver.Ceil2D, "", "", "nn"},
		{300, 32, solver.Att, "", "", "nn"},
		{20000, 32, solver.Euc2D, "", "", "nn"}, // lists in global memory
		{150, 7, solver.Euc2D, "", "", "mixed"},
		{3000, 32, solver.Euc2D, "", "", "mixed"},
		{200, 32, solver.Att, "", "", "mixed"},
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
		if c.draw != "" {
			p.Extra["draw"] = c.draw
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
			t.Fatalf("n=%d threads=%d lanes %s select %s draw %s %v: device cost %d, exact length of its tour %d", c.n, c.threads, c.lanes, c.sel, c.draw, c.metric, s.BestLength, exact)
		}
		start := solver.TourLength(in, solver.IdentityTour(in.N))
		if r.Length >= start {
			t.Fatalf("n=%d threads=%d %v: %d is no better than the identity tour's %d", c.n, c.threads, c.metric, r.Length, start)
		}
		t.Logf("n=%d threads=%d lanes %s select %s draw %s %v: device %d, exact %d, result %d (identity %d), %.3g moves/s, %d searches",
			c.n, c.threads, c.lanes, c.sel, c.draw, c.metric, s.BestLength, exact, r.Length, start, r.MovesPerSecond(), r.Params.Blocks)
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
// "best"), seed (TSPLAB_PSPM_SEEDS, default "1") and move draw
// (TSPLAB_PSPM_DRAW, default "auto") and logs moves/s, the
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
	// Each draw as draw[@nnfrom]: nnfrom a temperature, or xF for F times
	// the mean distance to the 8th nearest city.
	draws := strings.Split(orDefault(os.Getenv("TSPLAB_PSPM_DRAW"), "auto"), ",")
	seeds := strings.Split(orDefault(os.Getenv("TSPLAB_PSPM_SEEDS"), "1"), ",")
	threads := strings.Split(orDefault(os.Getenv("TSPLAB_PSPM_THREADS"), "0"), ",")
	dir := os.Getenv("TSPLIB_DIR")
	for _, name := range strings.Split(names, ",") {
		in, err := tsplib.Load(dir+"/"+name+".tsp", dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range blocks {
			for _, th := range threads {
				for _, l := range lanes {
					for _, sel := range selects {
						for _, seed := range seeds {
							for _, dw := range draws {
								draw, from, _ := strings.Cut(dw, "@")
								p := solver.Params{Extra: map[string]string{"lanes": l, "select": sel, "draw": draw}}
								if f, ok := strings.CutPrefix(from, "x"); ok {
									var x float64
									fmt.Sscan(f, &x)
									sp := solver.Params{T0: 10000, TEnd: 0.1, Alpha: 0.99}
									d, err := pspmDrawOf(in, sp, 32, 0, false, scheduleSteps(sp))
									if err != nil || d.from == 0 {
										t.Fatalf("%s: no default nnfrom (%v)", name, err)
									}
									from = strconv.FormatFloat(x*d.from/pspmNNFromScale, 'g', 6, 64)
								}
								if from != "" {
									p.Extra["nnfrom"] = from
								}
								fmt.Sscan(b, &p.Blocks)
								fmt.Sscan(th, &p.Threads)
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
								t.Logf("AB %s n=%d threads %d lanes %s select %s draw %s (nnfrom %s) seed %d searches %d: %.4g moves/s, %.2f s, gap %.3f %%, after 2-opt %.3f %%",
									name, in.N, r.Params.Threads, l, sel, draw, r.Params.Extra["nnfrom"], p.Seed, r.Params.Blocks, r.MovesPerSecond(), r.Elapsed.Seconds(), gap, pgap)
							}
						}
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

// TestPSPMDrawOptions: the neighbour draw runs only where its kernel
// exists; asked elsewhere it is refused with a message, while the default
// (auto) draws uniformly there; unknown values are refused.
func TestPSPMDrawOptions(t *testing.T) {
	needDevice(t)
	e, _ := solver.Lookup(AlgoPSPM, solver.BackendGPU)
	in := randomInstance(100, solver.Euc2D, 1000, 5)
	for _, c := range []struct {
		threads int
		extra   map[string]string
		want    string // "": runs
	}{
		{96, map[string]string{"draw": "nn"}, "one search per warp"},
		{32, map[string]string{"draw": "nn", "lanes": "16"}, "one search per warp"},
		{32, map[string]string{"draw": "nn", "select": "first"}, "select best"},
		{32, map[string]string{"draw": "near"}, "draw"},
		{32, map[string]string{"draw": "mixed", "lanes": "8"}, "one search per warp"},
		{32, map[string]string{"draw": "nn", "nnk": "1"}, "nnk"},
		{32, map[string]string{"nnfrom": "-3"}, "nnfrom"},
		{64, nil, ""},
		{96, nil, ""},
		{64, map[string]string{"draw": "nn"}, ""},
		{32, map[string]string{"lanes": "16"}, ""},
		{32, map[string]string{"select": "first"}, ""},
		{32, map[string]string{"draw": "nn", "nnk": "99"}, "nnk"},
	} {
		p := quickParams(2)
		p.TimeLimit = 0
		p.Threads, p.Extra = c.threads, c.extra
		r, err := e.Solve(context.Background(), in, p, nil)
		if c.want == "" {
			if err != nil {
				t.Errorf("threads %d %v: %v", c.threads, c.extra, err)
			} else {
				checkResult(t, fmt.Sprint(c.extra), in, r)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("threads %d %v: err = %v, want %q", c.threads, c.extra, err, c.want)
		}
	}
}

// TestPSPMDrawAutoTemperature: the default draw switches to the neighbour
// lists at the first temperature step at or below pspmNNFromScale times
// the mean distance from a city to its k-th nearest (or nnfrom when
// given), never with draw uniform, and from the start with draw nn.
func TestPSPMDrawAutoTemperature(t *testing.T) {
	in := randomInstance(400, solver.Euc2D, 10000, 9)
	p := solver.Params{T0: 10000, TEnd: 0.1, Alpha: 0.99, Sweeps: 10, K: 100}
	steps := scheduleSteps(p)
	nb := neighbor.Nearest(in, 8)
	mean := 0.0
	for i := 0; i < in.N; i++ {
		mean += float64(in.Dist(i, int(nb.Of(i)[7])))
	}
	mean *= pspmNNFromScale / float64(in.N)
	want := 0
	for p.T0*math.Pow(p.Alpha, float64(want)) > mean {
		want++
	}
	d, err := pspmDrawOf(in, p, 32, 0, false, steps)
	if err != nil {
		t.Fatal(err)
	}
	if d.fromStep != int64(want) || d.k != 8 || len(d.lists) != in.N*8 || math.Abs(d.from-mean) > 1e-9 || d.mix != pspmMixLanes {
		t.Fatalf("auto: from step %d (T %.4g), k %d, %d list entries; want step %d (T %.4g), 8, %d", d.fromStep, d.from, d.k, len(d.lists), want, mean, in.N*8)
	}
	for i := 0; i < in.N; i++ {
		for j, v := range nb.Of(i) {
			if int(d.lists[i*8+j]) != int(v) {
				t.Fatalf("list of %d, entry %d: %d, want %d", i, j, d.lists[i*8+j], v)
			}
		}
	}
	p.Extra = map[string]string{"nnfrom": "1"} // T0*0.99^st <= 1 from st = 917
	if d, _ = pspmDrawOf(in, p, 32, 0, false, steps); d.fromStep != 917 {
		t.Fatalf("nnfrom 1: from step %d, want 917", d.fromStep)
	}
	p.Extra = map[string]string{"nnfrom": "0.01"} // below Tend: never
	if d, _ = pspmDrawOf(in, p, 32, 0, false, steps); d.fromStep != int64(steps) || d.lists != nil {
		t.Fatalf("nnfrom below Tend: from step %d of %d, lists %d", d.fromStep, steps, len(d.lists))
	}
	p.Extra = map[string]string{"draw": "uniform"}
	if d, _ = pspmDrawOf(in, p, 32, 0, false, steps); d.fromStep != int64(steps) || d.lists != nil {
		t.Fatalf("uniform: from step %d of %d, lists %d", d.fromStep, steps, len(d.lists))
	}
	p.Extra = map[string]string{"draw": "nn", "nnk": "5"}
	if d, _ = pspmDrawOf(in, p, 32, 0, false, steps); d.fromStep != 0 || d.k != 5 || len(d.lists) != in.N*5 || d.mix != 0 {
		t.Fatalf("nn: from step %d, k %d, %d entries, mix %x", d.fromStep, d.k, len(d.lists), d.mix)
	}
	p.Extra = map[string]string{"draw": "mixed", "nnfrom": "1"}
	if d, _ = pspmDrawOf(in, p, 32, 0, false, steps); d.fromStep != 917 || d.mix != pspmMixLanes {
		t.Fatalf("mixed from T 1: from step %d, mix %x", d.fromStep, d.mix)
	}
	p.Extra = nil
	if d, _ = pspmDrawOf(in, p, 32, 16, false, steps); d.lists != nil || d.fromStep != int64(steps) {
		t.Fatalf("auto with lanes 16: lists %d, from step %d; want uniform", len(d.lists), d.fromStep)
	}
}

// TestPSPMDrawOfRefuses checks the draw options' host-side reading (no
// device needed): a value the kernels cannot take is refused with a
// message naming the option, nn or mixed outside one search per warp,
// select best and 16-bit lists is refused, and auto there draws uniformly.
func TestPSPMDrawOfRefuses(t *testing.T) {
	in := randomInstance(300, solver.Euc2D, 10000, 3)
	p := solver.Params{T0: 10000, TEnd: 0.1, Alpha: 0.99, Sweeps: 10, K: 100}
	steps := scheduleSteps(p)
	for _, c := range []struct {
		extra       map[string]string
		tpb, lanes  int
		first       bool
		want        string // in the error; "" when accepted
		wantUniform bool   // accepted, drawing uniformly throughout
	}{
		{map[string]string{"draw": "near"}, 32, 0, false, "draw near", false},
		{map[string]string{"nnk": "1"}, 32, 0, false, "nnk", false},
		{map[string]string{"nnk": "33"}, 32, 0, false, "nnk", false},
		{map[string]string{"nnk": "x"}, 32, 0, false, "nnk", false},
		{map[string]string{"nnfrom": "-1"}, 32, 0, false, "nnfrom", false},
		{map[string]string{"nnfrom": "hot"}, 32, 0, false, "nnfrom", false},
		{map[string]string{"draw": "nn"}, 96, 0, false, "one search per warp", false},
		{map[string]string{"draw": "nn"}, 64, 0, false, "", false},
		{map[string]string{"draw": "mixed"}, 32, 16, false, "one search per warp", false},
		{map[string]string{"draw": "nn"}, 32, 0, true, "select best", false},
		{map[string]string{"draw": "nn", "nnk": "32"}, 32, 0, false, "", false},
		{nil, 96, 0, false, "", true},
		{nil, 32, 0, true, "", true},
		{map[string]string{"draw": "auto", "nnfrom": "0"}, 32, 0, false, "", true},
	} {
		p.Extra = c.extra
		d, err := pspmDrawOf(in, p, c.tpb, c.lanes, c.first, steps)
		name := fmt.Sprintf("%v tpb %d lanes %d first %v", c.extra, c.tpb, c.lanes, c.first)
		if c.want != "" {
			if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%s: err %v, want one line with %q", name, err, c.want)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if uniform := d.lists == nil && d.fromStep == int64(steps); uniform != c.wantUniform {
			t.Errorf("%s: uniform throughout %v (from step %d of %d, %d list entries), want %v", name, uniform, d.fromStep, steps, len(d.lists), c.wantUniform)
		}
	}
	// Fewer than 65,535 cities only: auto draws uniformly above.
	big := randomInstance(65535, solver.Euc2D, 1e6, 4)
	p.Extra = nil
	if d, err := pspmDrawOf(big, p, 32, 0, false, steps); err != nil || d.lists != nil {
		t.Errorf("auto on 65,535 cities: %d list entries, err %v; want uniform", len(d.lists), err)
	}
	p.Extra = map[string]string{"draw": "nn"}
	if _, err := pspmDrawOf(big, p, 32, 0, false, steps); err == nil || !strings.Contains(err.Error(), "65,535") {
		t.Errorf("nn on 65,535 cities: err %v", err)
	}
}

// TestPSPMPlansWarpLayouts: a search of up to 64 moves is one warp (two
// moves per lane from 33), also with the neighbour draw; more moves take a
// block.
func TestPSPMPlansWarpLayouts(t *testing.T) {
	r := needRun(t)
	nbr := pspmDefaultNbrBytes(493, 32)
	err := r.do(func() error {
		for _, c := range []struct {
			tpb, metric, nbr int
			layout           string // the kernel name's part after the index width, less the mode digit
		}{
			{32, metricEuc2D, nbr, "euc_u16_w"},
			{33, metricEuc2D, nbr, "euc_u16_t32x2"},
			{64, metricEuc2D, nbr, "euc_u16_t32x2"},
			{64, metricCeil2D, 0, "ceil_u16_t32x2"},
			{65, metricEuc2D, 0, "euc_u16_b"},
			{96, metricAtt, 0, "att_u16_b"},
		} {
			pl, err := r.planPSPM(493, c.tpb, c.metric, 0, 0, false, c.nbr)
			if err != nil {
				return err
			}
			mode, ok := strings.CutPrefix(pl.kernel, "pspm_anneal_"+c.layout)
			if !ok || len(mode) != 1 || mode[0] < '0' || mode[0] > '7' {
				return fmt.Errorf("tpb %d metric %d: %s (shared %d), want %s<mode>", c.tpb, c.metric, pl.kernel, pl.useShared, c.layout)
			}
			t.Logf("tpb %d metric %d: %s, %d searches/SM", c.tpb, c.metric, pl.kernel, pl.perSM)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
