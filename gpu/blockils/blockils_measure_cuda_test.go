//go:build cuda

package blockils

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/gpu/internal/gputest"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
	_ "github.com/tsplab/tsplab/solver/cpu" // the CPU reference runs
	"github.com/tsplab/tsplab/solver/gen"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// TestBlockILSMeasurePool times the pool on TSPLIB instances from the
// greedy tour (every slot a copy): kicks a second and the best and mean
// gap after each round of one second. It runs only with
// TSP_BI_MEASURE set (TSPLIB_DIR names the files' folder).
func TestBlockILSMeasurePool(t *testing.T) {
	if os.Getenv("TSP_BI_MEASURE") == "" {
		t.Skip("TSP_BI_MEASURE not set")
	}
	gputest.NeedDevice(t)
	dir := os.Getenv("TSPLIB_DIR")
	for _, c := range []struct {
		name string
		opt  int64
	}{{"pr2392", 378032}, {"fnl4461", 182566}} {
		in, err := tsplib.Load(filepath.Join(dir, c.name+".tsp"))
		if err != nil {
			t.Skip(err)
		}
		greedy := device.Convert[int32](construct.Greedy(in, neighbor.Nearest(in, 10)))
		for _, o := range poolVariants {
			measurePool(t, in, c.name, c.opt, greedy, o)
		}
	}
}

// poolVariants are the settings the pool measurements compare.
var poolVariants = []biOpts{{seg: 30}, {seg: 100, or3: true}, {seg: 300, or3: true}, {seg: 1000, or3: true}}

func measurePool(t *testing.T, in *solver.Instance, name string, opt int64, greedy []int32, o biOpts) {
	defer func(d biOpts) { biDefaults = d }(biDefaults)
	biDefaults = o
	label := fmt.Sprintf("%s seg %d or3 %v", name, o.seg, o.or3)
	{
		p, err := OpenTourPool(in, 1)
		if err != nil {
			t.Fatal(err)
		}
		B := p.Slots()
		tours := make([][]int32, B)
		for i := range tours {
			tours[i] = slices.Clone(greedy)
		}
		gp := func(l int64) float64 { return 100 * float64(l-opt) / float64(opt) }
		t.Logf("%s: %d slots, greedy %.2f %%", label, B, gp(solver.TourLength(in, device.Convert[int](greedy))))
		start := time.Now()
		for round := 1; round <= 4; round++ {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			t0 := time.Now()
			lens, err := p.Improve(ctx, tours, 0)
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			el := time.Since(t0).Seconds()
			tp := p.(*tourPool)
			var sum int64
			for _, l := range lens {
				sum += l
			}
			t.Logf("%s round %d (%.1f s): best %.3f %%, mean %.3f %%, worst %.3f %%; %.3g kicks/s (%.3g a tour), %.1f %% kept, %.3g moves made/s",
				label, round, time.Since(start).Seconds(), gp(slices.Min(lens)), gp(sum/int64(len(lens))), gp(slices.Max(lens)),
				float64(tp.ctr[2])/el, float64(tp.ctr[2])/el/float64(B), 100*float64(tp.ctr[3])/float64(max(tp.ctr[2], 1)), float64(tp.ctr[1])/el)
		}
		p.Close()
	}
}

// TestBlockILSMeasureBatch solves TSP_BI_BATCH (default 10,000) uniform
// TSP_BI_N-city (default 100) instances in TSP_BI_TIME (default 8 s) and
// compares, with the kicks' longest segment TSP_BI_SEG (default the
// batch's), for each stall of TSP_BI_STALL and each polish start of
// TSP_BI_POLISH (comma-separated lists; default the batch's), the GPU's
// shortest and the merged tours too, the first TSP_BI_SAMPLE (default
// 200) with a reference: the better of two CPU auto runs of TSP_BI_REF
// (default 5,000) kicks, one worker each. Only with TSP_BI_MEASURE.
func TestBlockILSMeasureBatch(t *testing.T) {
	if os.Getenv("TSP_BI_MEASURE") == "" {
		t.Skip("TSP_BI_MEASURE not set")
	}
	gputest.NeedDevice(t)
	env := func(k string, d int) int {
		if v, err := strconv.Atoi(os.Getenv(k)); err == nil && v > 0 {
			return v
		}
		return d
	}
	count, n, sample := env("TSP_BI_BATCH", 10000), env("TSP_BI_N", 100), env("TSP_BI_SAMPLE", 200)
	limit, _ := time.ParseDuration(os.Getenv("TSP_BI_TIME"))
	if limit <= 0 {
		limit = 8 * time.Second
	}
	ins := make([]*solver.Instance, count)
	for i := range ins {
		in, err := gen.Generate("uniform", n, uint64(i+1))
		if err != nil {
			t.Fatal(err)
		}
		ins[i] = in
	}
	e, err := solver.Lookup("auto", solver.BackendCPU)
	if err != nil {
		t.Fatal(err)
	}
	ref := make([]int64, sample)
	refKicks := fmt.Sprint(env("TSP_BI_REF", 5000))
	refTime, _ := time.ParseDuration(os.Getenv("TSP_BI_REFTIME"))
	spread(sample, 16, func() func(int) bool {
		return func(i int) bool {
			for _, seed := range []uint64{9, 11} {
				p := solver.Params{Seed: seed, Workers: 1, TimeLimit: 30 * time.Second, Extra: map[string]string{"kicks": refKicks}}
				if refTime > 0 { // one run of that time
					if seed != 9 {
						break
					}
					p = solver.Params{Seed: seed, Workers: 1, TimeLimit: refTime}
				}
				if r, err := e.Solve(context.Background(), ins[i], p, nil); err == nil && (ref[i] == 0 || r.Length < ref[i]) {
					ref[i] = r.Length
				}
			}
			return true
		}
	})()
	// TSP_BI_CPUTIME: one CPU auto run of that time on each of the first
	// sample (16 cores' share of the batch's time)
	if cpuTime, _ := time.ParseDuration(os.Getenv("TSP_BI_CPUTIME")); cpuTime > 0 {
		gaps := make([]float64, sample)
		spread(sample, 16, func() func(int) bool {
			return func(i int) bool {
				if r, err := e.Solve(context.Background(), ins[i], solver.Params{Seed: 5, Workers: 1, TimeLimit: cpuTime}, nil); err == nil {
					gaps[i] = 100 * float64(r.Length-ref[i]) / float64(ref[i])
				}
				return true
			}
		})()
		var sum float64
		for _, g := range gaps {
			sum += g
		}
		t.Logf("CPU auto alone, %v an instance: first %d mean %.4f %%", cpuTime, sample, sum/float64(sample))
	}
	// TSP_BI_POLISH: a list of batchPolishAt (0: the end's merge alone)
	defer func(f float64) { batchPolishAt = f }(batchPolishAt)
	polishes := []float64{batchPolishAt}
	if v := os.Getenv("TSP_BI_POLISH"); v != "" {
		polishes = nil
		for _, f := range strings.Split(v, ",") {
			x, _ := strconv.ParseFloat(f, 64)
			polishes = append(polishes, x)
		}
	}
	var pg [2]float64
	var pn int
	var pmu sync.Mutex
	polishLog = func(i int, gpu, merged int64) {
		if i >= sample {
			return
		}
		pmu.Lock()
		defer pmu.Unlock()
		pg[0] += 100 * float64(gpu-ref[i]) / float64(ref[i])
		pg[1] += 100 * float64(merged-ref[i]) / float64(ref[i])
		pn++
	}
	defer func() { polishLog = nil }()
	defer func(o biOpts) { batchOpts = o }(batchOpts)
	if v, err := strconv.Atoi(os.Getenv("TSP_BI_SEG")); err == nil {
		batchOpts.seg = v
	}
	for _, v := range strings.Split(cmp.Or(os.Getenv("TSP_BI_STALL"), "-1"), ",") {
		stall, _ := strconv.Atoi(v)
		if stall < 0 {
			stall = batchOpts.stall
		}
		for _, f := range polishes {
			batchPolishAt = f
			t0 := time.Now()
			batchOpts.stall = stall
			res, err := SolveBatch(context.Background(), ins, solver.Params{Seed: uint64(env("TSP_BI_SEED", 1)), TimeLimit: limit})
			if err != nil {
				t.Fatal(err)
			}
			wall := time.Since(t0)
			if pn > 0 {
				t.Logf("polish %.2f: %d of the first %d: the GPU's shortest %.4f %%, merged %.4f %%", f, pn, sample, pg[0]/float64(pn), pg[1]/float64(pn))
				pg, pn = [2]float64{}, 0
			}
			var kicks int64
			for _, r := range res {
				kicks += r.Steps
			}
			var gap, worst float64
			at, over, wi := 0, 0, 0
			for i := 0; i < sample; i++ {
				g := 100 * float64(res[i].Length-ref[i]) / float64(ref[i])
				gap += g
				if g > worst {
					worst, wi = g, i+1
				}
				if g <= 0 {
					at++
				}
				if g > 0.1 {
					over++
				}
			}
			t.Logf("stall %d, %d × %d cities, limit %v: wall %v, %.0f kicks an instance; first %d: mean %.4f %%, worst %.4f %% (seed %d), %d at or below the reference, %d over 0.1 %%; %s",
				stall, count, n, limit, wall.Round(time.Millisecond), float64(kicks)/float64(count), sample, gap/float64(sample), worst, wi, at, over, res[0].Device)
		}
	}
}
