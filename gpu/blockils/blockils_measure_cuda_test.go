//go:build cuda

package blockils

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
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

// poolVariants and batchVariants are the settings the measurements
// compare.
var (
	poolVariants  = []biOpts{{30, false}, {100, true}, {300, true}, {1000, true}}
	batchVariants = []biOpts{{30, false}, {300, true}}
)

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
// 100-city instances in TSP_BI_TIME (default 8 s) and compares the first
// 200 with a reference: the better of CPU auto (1 s, one worker each) and
// the batch search run 20 s on those 200 alone. Only with TSP_BI_MEASURE.
func TestBlockILSMeasureBatch(t *testing.T) {
	if os.Getenv("TSP_BI_MEASURE") == "" {
		t.Skip("TSP_BI_MEASURE not set")
	}
	gputest.NeedDevice(t)
	count, _ := strconv.Atoi(os.Getenv("TSP_BI_BATCH"))
	if count <= 0 {
		count = 10000
	}
	limit, _ := time.ParseDuration(os.Getenv("TSP_BI_TIME"))
	if limit <= 0 {
		limit = 8 * time.Second
	}
	ins := make([]*solver.Instance, count)
	for i := range ins {
		in, err := gen.Generate("uniform", 100, uint64(i+1))
		if err != nil {
			t.Fatal(err)
		}
		ins[i] = in
	}
	var runs [][]solver.Result
	defaults := biDefaults
	for _, o := range batchVariants {
		biDefaults = o
		t0 := time.Now()
		res, err := SolveBatch(context.Background(), ins, solver.Params{Seed: 1, TimeLimit: limit})
		if err != nil {
			t.Fatal(err)
		}
		wall := time.Since(t0)
		var kicks int64
		for _, r := range res {
			kicks += r.Steps
		}
		t.Logf("batch seg %d or3 %v: %d instances in %v (limit %v), %.0f kicks an instance; %s", o.seg, o.or3, count, wall, limit, float64(kicks)/float64(count), res[0].Device)
		runs = append(runs, res)
	}
	biDefaults = defaults
	const sample = 200
	ref := make([]int64, sample)
	long, err := SolveBatch(context.Background(), ins[:sample], solver.Params{Seed: 7, TimeLimit: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	e, err := solver.Lookup("auto", solver.BackendCPU)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, 16)
	cpu := make([]int64, sample)
	for i := 0; i < sample; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			r, err := e.Solve(context.Background(), ins[i], solver.Params{Seed: 1, TimeLimit: time.Second, Workers: 1}, nil)
			if err == nil {
				cpu[i] = r.Length
			}
		}(i)
	}
	wg.Wait()
	var gapLong, gapCPU float64
	cpuWorse, longWorse := 0, 0
	for i := 0; i < sample; i++ {
		ref[i] = long[i].Length
		if cpu[i] > 0 && cpu[i] < ref[i] {
			ref[i] = cpu[i]
		}
		for _, res := range runs {
			ref[i] = min(ref[i], res[i].Length)
		}
		if cpu[i] > ref[i] {
			cpuWorse++
		}
		if long[i].Length > ref[i] {
			longWorse++
		}
		gapLong += 100 * float64(long[i].Length-ref[i]) / float64(ref[i])
		gapCPU += 100 * float64(cpu[i]-ref[i]) / float64(ref[i])
	}
	for k, res := range runs {
		var gap float64
		at := 0
		for i := 0; i < sample; i++ {
			if res[i].Length == ref[i] {
				at++
			}
			gap += 100 * float64(res[i].Length-ref[i]) / float64(ref[i])
		}
		t.Logf("sample of %d, batch seg %d or3 %v: mean %.4f %% above the reference, %d at it", sample, batchVariants[k].seg, batchVariants[k].or3, gap/sample, at)
	}
	t.Logf("the 20 s batch run (seg %d, or3 %v) %.4f %% (%d above), CPU auto 1 s %.4f %% (%d above)", defaults.seg, defaults.or3, gapLong/sample, longWorse, gapCPU/sample, cpuWorse)
}
