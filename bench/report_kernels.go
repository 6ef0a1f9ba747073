package bench

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/gen"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/session"
)

// BatchGPU is the GPU batch solver the batch table times, from cmd/tsp's bench.GPU in a CUDA build.
type BatchGPU interface {
	SolveBatch(ctx context.Context, ins []*solver.Instance, p solver.Params) ([]solver.Result, error)
}

// climbOnD18512 is GPU 2opt-climb and d18512, on whose first cities its rate is measured.
func (rr *reportRun) climbOnD18512() (solver.Engine, *solver.Instance, error) {
	e := rr.engine("2opt-climb", solver.BackendGPU)
	if e == nil {
		return nil, nil, errors.New("no GPU 2opt-climb: " + rr.device)
	}
	src, err := rr.load("d18512")
	return e, src, err
}

// kernel2opt is GPU 2opt-climb on d18512's first 1,000 to 4,000 cities beside TSP_GPU and the paper, then d493.
func (rr *reportRun) kernel2opt() (*Table, error) {
	e, src, err := rr.climbOnD18512()
	if err != nil {
		return nil, err
	}
	long, short, sizes, seeds := 5*time.Second, time.Second, []int{1000, 2000, 4000}, 3
	if rr.opt.Quick {
		long, sizes, seeds = time.Second, sizes[:1], 1
	}
	paper := rr.papers.table("oneil-headline.csv").cell("value as printed", "Peak throughput")
	t := &Table{Header: []string{"case", "time", "moves/s", "tour length", "TSP_GPU 2.3 (H100), best tour", "TSP_GPU's time s", "O'Neil & Burtscher, printed"}}
	for _, n := range sizes {
		in := prefixInstance(src, n)
		res, ok := rr.solve(e, in, solver.Params{Seed: 1, TimeLimit: long})
		if !ok {
			return nil, fmt.Errorf("2opt-climb on %s failed", in.Name)
		}
		refLen, refTime := tspgpuBest("d18512", n)
		t.AddRow(fmt.Sprintf("d18512, first %d cities, seed 1", n), fmtD(long), fmt.Sprintf("%.3g", res.MovesPerSecond()), res.Length, refLen, refTime, paper)
	}
	in, err := rr.load("d493")
	if err != nil {
		return nil, err
	}
	var lens, rates []float64
	for seed := 1; seed <= seeds; seed++ {
		res, ok := rr.solve(e, in, solver.Params{Seed: uint64(seed), TimeLimit: short})
		if !ok {
			return nil, fmt.Errorf("2opt-climb on d493 failed")
		}
		lens, rates = append(lens, float64(res.Length)), append(rates, res.MovesPerSecond())
	}
	refLen, refTime := tspgpuBest("d493", 0)
	t.AddRow("d493, seeds "+seedRange(seeds), fmtD(short), spreadCell(rates, "%.3g"), seedsCell(lens, "%.0f"), refLen, refTime, "")
	return t, nil
}

// tspgpuBest is TSP_GPU 2.3's best tour and time on inst's first prefix cities, or "n/a".
func tspgpuBest(inst string, prefix int) (length, secs string) {
	length, secs = "n/a", "n/a"
	best := math.Inf(1)
	for _, x := range tspgpuRefs {
		if x.inst == inst && x.prefix == prefix && math.Abs(x.seconds-1) < best {
			best = math.Abs(x.seconds - 1)
			length, secs = fmt.Sprint(slices.Min(x.best)), fmt.Sprintf("%.2f", x.seconds)
		}
	}
	return length, secs
}

// kernelPSPM is GPU PSPM on Lam et al.'s 20 instances beside their Table 2.
func (rr *reportRun) kernelPSPM() (*Table, error) {
	e := rr.engine("pspm", solver.BackendGPU)
	if e == nil {
		return nil, errors.New("no GPU pspm: " + rr.device)
	}
	names := LamInstances
	if rr.opt.Quick {
		names = names[:3]
	}
	x, err := rr.pspmOnLam(e, names, solver.Params{Seed: 1}, "")
	if err != nil {
		return nil, err
	}
	pt := rr.papers.table("lam-table2.csv")
	pRate := pt.cell("GPU PSPM SSES (10^6 solutions/s)", "average")
	if v, ok := paperFloat(pRate); ok {
		pRate = fmt.Sprintf("%.3g", v*1e6)
	}
	t := &Table{Header: []string{"who", "instances", "SEC %, mean (range)", "at the optimum", "moves/s, mean (range)", "run time s, mean (range)"}}
	t.AddRow("ours, seed 1", len(x.secs), spreadCell(x.secs, "%.3f"), x.atOpt, spreadCell(x.rates, "%.3g"), spreadCell(x.times, "%.2f"))
	t.AddRow("Lam et al., Table 2 (Tesla C2050, mean of 10 runs)", 20, pt.cell("GPU PSPM SEC (%)", "average"), "", pRate, "")
	return t, nil
}

// pspmRuns are GPU pspm's runs: SEC, moves a second, time, optima and GPUs used.
type pspmRuns struct {
	secs, rates, times []float64
	atOpt, used        int
}

// pspmOnLam runs e with p on the named instances; where names the runs' place in a failure.
func (rr *reportRun) pspmOnLam(e solver.Engine, names []string, p solver.Params, where string) (pspmRuns, error) {
	var x pspmRuns
	err := rr.each(names, nil, func(name string, in *solver.Instance) error {
		res, ok := rr.solve(e, in, p)
		if !ok {
			return fmt.Errorf("pspm on %s%s failed", name, where)
		}
		g, ok := solver.GapPercent(res.Length, in.Optimum)
		if !ok {
			return fmt.Errorf("%s: no optimum", name)
		}
		if res.Length == in.Optimum {
			x.atOpt++
		}
		x.secs, x.rates, x.times = append(x.secs, g), append(x.rates, res.MovesPerSecond()), append(x.times, res.Elapsed.Seconds())
		x.used = max(x.used, usedGPUs(res))
		return nil
	})
	return x, err
}

// batchInstances are count uniform instances of n cities, seeds 1..count (`tsp gen --kind uniform`).
func batchInstances(n, count int) ([]*solver.Instance, error) {
	ins := make([]*solver.Instance, count)
	for i := range ins {
		in, err := gen.Generate("uniform", n, uint64(i+1))
		if err != nil {
			return nil, err
		}
		ins[i] = in
	}
	return ins, nil
}

// kernelBatch is the GPU batch solver on 10,000 100-city and 1,000 1,000-city instances: wall clock and gaps above CPU references.
func (rr *reportRun) kernelBatch() (*Table, error) {
	bg, ok := rr.opt.GPU.(BatchGPU)
	if !ok {
		return nil, errors.New("this build has no GPU batch solver")
	}
	t := &Table{Header: []string{"instances", "time for the batch", "wall clock s", "instances/s", "reference (CPU auto, one worker each)", "gap % on the first ones, mean (range)", "over 0.10 %"}}
	// each row: cities, instances, references, the batch's time, the references' time (0: 5,000 kicks)
	type batchRow struct {
		n, count, refs int
		each, refTime  time.Duration
	}
	rows := []batchRow{{100, 10000, 200, 2 * time.Second, 0}, {1000, 1000, 20, 25 * time.Second, 10 * time.Second}}
	if rr.opt.Quick {
		rows = []batchRow{{100, 500, 20, time.Second, 0}, {1000, 50, 4, 2 * time.Second, time.Second}}
	}
	for _, row := range rows {
		ins, err := batchInstances(row.n, row.count)
		if err != nil {
			return nil, err
		}
		t0 := time.Now()
		// kicks=0: the batch searches until its time limit
		res, err := bg.SolveBatch(rr.ctx, ins, solver.Params{Seed: 1, TimeLimit: row.each, Extra: map[string]string{"kicks": "0"}})
		wall := time.Since(t0)
		if err != nil {
			return nil, err
		}
		for i, x := range res {
			if err := checkResult(ins[i], x); err != nil {
				return nil, err
			}
			rr.device = x.Device
		}
		ref, err := rr.batchReference(ins[:row.refs], row.refTime)
		if err != nil {
			return nil, err
		}
		gaps := make([]float64, row.refs)
		over := 0
		for i := range gaps {
			gaps[i] = 100 * float64(res[i].Length-ref[i]) / float64(ref[i])
			if gaps[i] > 0.1 {
				over++
			}
		}
		rr.logf("batch: %d × %d cities in %v", row.count, row.n, wall.Round(time.Millisecond))
		refCell := fmt.Sprintf("the better of 2 runs of 5,000 kicks, first %d", row.refs)
		if row.refTime > 0 {
			refCell = fmt.Sprintf("one %v run, first %d", fmtD(row.refTime), row.refs)
		}
		t.AddRow(fmt.Sprintf("%d × %d cities", row.count, row.n), fmtD(row.each), fmt.Sprintf("%.2f", wall.Seconds()),
			fmt.Sprintf("%.0f", float64(row.count)/wall.Seconds()), refCell, spreadCell(gaps, "%.4f"), fmt.Sprint(over))
	}
	return t, nil
}

// checkResult checks a tour that did not come through the run pipeline: a tour of in, of the length it says.
func checkResult(in *solver.Instance, res solver.Result) error {
	if err := solver.ValidateTour(res.Tour, in.N); err != nil {
		return fmt.Errorf("%s: the GPU's tour: %v", in.Name, err)
	}
	if l := solver.TourLength(in, res.Tour); l != res.Length {
		return fmt.Errorf("%s: the GPU's tour has length %d, not the %d it reported", in.Name, l, res.Length)
	}
	return nil
}

// batchReference is each instance's better of two 5,000-kick CPU auto runs, or one run of each.
func (rr *reportRun) batchReference(ins []*solver.Instance, each time.Duration) ([]int64, error) {
	e := rr.engine("auto", solver.BackendCPU)
	if e == nil {
		return nil, errors.New("no CPU auto")
	}
	ref := make([]int64, len(ins))
	errs := make([]error, len(ins))
	next := make(chan int)
	var wg sync.WaitGroup
	for range runtime.NumCPU() {
		wg.Go(func() {
			var pl session.Pipeline
			for i := range next {
				ref[i], errs[i] = bestOfSeeds(rr.ctx, &pl, e, ins[i], each)
			}
		})
	}
	for i := range ins {
		next <- i
	}
	close(next)
	wg.Wait()
	return ref, errors.Join(errs...)
}

// bestOfSeeds is the shorter of two 5,000-kick CPU runs (seeds 9, 11), or one run of each (seed 9).
func bestOfSeeds(ctx context.Context, pl *session.Pipeline, e solver.Engine, in *solver.Instance, each time.Duration) (int64, error) {
	var best int64
	for _, seed := range []uint64{9, 11} {
		p := solver.Params{Seed: seed, Workers: 1, TimeLimit: 5 * time.Second, Extra: map[string]string{"kicks": "5000"}}
		if each > 0 {
			if seed != 9 {
				break
			}
			p = solver.Params{Seed: seed, Workers: 1, TimeLimit: each}
		}
		plan, err := pl.Prepare(e, in, p)
		if err != nil {
			return 0, err
		}
		out, err := plan.Run(ctx, session.Request{NoOptimumStop: true})
		if err != nil {
			return 0, err
		}
		if best == 0 || out.Result.Length < best {
			best = out.Result.Length
		}
	}
	return best, nil
}

// paperRocki is one full 2-opt pass of pla85900's greedy tour on the GPU beside Rocki and Suda's Table II.
func (rr *reportRun) paperRocki() (*Table, error) {
	if rr.opt.GPU == nil {
		return nil, errors.New("this build has no GPU")
	}
	name := "pla85900"
	if rr.opt.Quick {
		name = "pr2392"
	}
	in, err := rr.load(name)
	if err != nil {
		return nil, err
	}
	greedy := construct.Greedy(in, neighbor.Nearest(in, 10))
	m := int64(in.N) * int64(in.N-3) / 2
	g := rr.rockiGPU(name, in, greedy, m)
	if g.kern == 0 {
		return nil, errors.New("the GPU pass did not run: " + rr.device)
	}
	pt := rr.papers.table("rocki-table2.csv")
	t := &Table{Header: []string{"who", "instance", "one full 2-opt pass (kernel)", "2-opt checks/s (millions)", "from greedy to the first 2-opt minimum"}}
	t.AddRow("ours", name, fmtDur(g.kern), fmt.Sprintf("%.0f", g.rate/1e6), g.desc)
	t.AddRow("Rocki & Suda, Table II (GTX 680)", name, pt.cell("GPU kernel time full 2-opt", name),
		pt.cell("2-opt checks/s (Millions)", name), pt.cell("Time to first minimum (2-opt from MF)", name))
	return t, nil
}
