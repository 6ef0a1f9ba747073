package bench

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/report"
)

// GPUCounter is the GPUs of the host the engines can run on; the bench.GPU that cmd/tsp passes
// implements it in a CUDA build, and the several-GPU table needs it.
type GPUCounter interface {
	UsableGPUs() (int, error)
}

// gpusCounts are the numbers of GPUs the several-GPU table compares, each against one GPU.
var gpusCounts = []int{1, 2, 4}

// gpusPartBudget is the most the several-GPU part runs, so that it fits in one call of 10 minutes with
// the binary's start: GPU auto's runs of an instance are made only while they fit in it.
const gpusPartBudget = 9*time.Minute + 30*time.Second

// gpusOption is the engines' GPU selection (gpu/device's OptGPUs): "count=N", the first N usable GPUs.
const gpusOption = "gpus"

// gpusSetting is what the several-GPU part runs: pspm on lam (default schedule), 2opt-climb on the first
// climbSizes cities of d18512 for climbTime, the batch of batchCount uniform batchN-city instances in
// chunks of batchChunk of batchEach each, GPU auto on auto in one run of autoRun, its best so far read
// at each of autoAt (the last autoRun itself).
type gpusSetting struct {
	lam                            []string
	climbSizes                     []int
	climbTime                      time.Duration
	batchN, batchCount, batchChunk int
	batchEach                      time.Duration
	auto                           []string
	autoRun                        time.Duration
	autoAt                         []time.Duration
	budget                         time.Duration
}

// gpusSettingOf is the part's full setting, or with quick a short one that checks that it runs.
func gpusSettingOf(quick bool) gpusSetting {
	if quick {
		return gpusSetting{lam: []string{"rd100", "a280"}, climbSizes: []int{1000}, climbTime: time.Second,
			batchN: 100, batchCount: 500, batchChunk: 125, batchEach: 500 * time.Millisecond,
			auto: []string{"E10k.0"}, autoRun: 5 * time.Second, autoAt: []time.Duration{2 * time.Second, 5 * time.Second}, budget: time.Minute}
	}
	return gpusSetting{lam: gpusLam, climbSizes: []int{1000, 4000}, climbTime: 5 * time.Second,
		batchN: 100, batchCount: 10000, batchChunk: 2500, batchEach: time.Second,
		auto: []string{"E100k.0", "E1M.0"}, autoRun: time.Minute, autoAt: []time.Duration{10 * time.Second, time.Minute}, budget: gpusPartBudget}
}

// gpusLam are the instances of Lam et al.'s Table 2 that pspm runs on in the several-GPU table, from
// the smallest to the largest.
var gpusLam = []string{"rd100", "kroA150", "rat195", "a280", "pcb442", "d493"}

// gpusRow is one measurement of the several-GPU table: what ran, on how many GPUs it was asked to run
// and on how many its account says it ran, its rate (0: a run without one) in unit, and its tours in
// words; notMade, when set, says why the row was not measured.
type gpusRow struct {
	what       string
	gpus, used int
	rate       float64
	unit       string
	tours      string
	notMade    string
}

// gpusTable measures, on 1, 2 and 4 GPUs of this host (those it has), pspm's and 2opt-climb's moves a
// second and tours, the batch's instances a second, and GPU auto's best tours at 10 and 60 s of a 60-s run.
func (rr *reportRun) gpusTable() (*Table, error) {
	c, ok := rr.opt.GPU.(GPUCounter)
	if !ok {
		return nil, errors.New("this build has no GPU")
	}
	host, err := c.UsableGPUs()
	if err != nil {
		return nil, err
	}
	if host < 1 {
		return nil, errors.New("this host has no GPU the engines can use")
	}
	rr.hostGPUs = host
	start := time.Now()
	s := gpusSettingOf(rr.opt.Quick)
	counts := countsUpTo(host)
	rr.warmGPUs(s, counts[len(counts)-1])
	rr.logf("gpus: warm-up took %v", time.Since(start).Round(time.Second))
	auto := func(s gpusSetting, counts []int) ([]gpusRow, error) { return rr.gpusAuto(s, counts, start) }
	var rows []gpusRow
	for i, part := range []func(gpusSetting, []int) ([]gpusRow, error){rr.gpusPSPM, rr.gpusClimb, rr.gpusBatch, auto} {
		t0 := time.Now()
		r, err := part(s, counts)
		if err != nil {
			return nil, err
		}
		rows = append(rows, r...)
		rr.logf("gpus: %s took %v", []string{"pspm", "2opt-climb", "the batch", "GPU auto"}[i], time.Since(t0).Round(time.Second))
	}
	return gpusTableOf(rows, host), nil
}

// warmGPUs opens the contexts of the first n GPUs with a run of pspm on s.lam's first instance, not
// measured, so that no measured run pays for a context's start.
func (rr *reportRun) warmGPUs(s gpusSetting, n int) {
	e := rr.engine("pspm", solver.BackendGPU)
	in, err := rr.load(s.lam[0])
	if e == nil || err != nil {
		return
	}
	rr.solve(e, in, onGPUs(solver.Params{Seed: 1}, n))
}

// countsUpTo are the counts of gpusCounts the host's GPUs allow.
func countsUpTo(host int) []int {
	var out []int
	for _, n := range gpusCounts {
		if n <= host {
			out = append(out, n)
		}
	}
	return out
}

// onGPUs is p with the engines' GPU selection set to the first n usable GPUs.
func onGPUs(p solver.Params, n int) solver.Params {
	return p.WithExtra(gpusOption, fmt.Sprintf("count=%d", n))
}

// usedGPUs is the GPU contexts res's account says the run used (one where it names none).
func usedGPUs(res solver.Result) int {
	if g := res.Account.GPU; g != nil && g.Contexts > 0 {
		return g.Contexts
	}
	return 1
}

// gpusPSPM is pspm with Lam et al.'s default schedule (seed 1) on s.lam, on each count of GPUs: the
// mean moves a second, and the mean SEC with the instances at the optimum.
func (rr *reportRun) gpusPSPM(s gpusSetting, counts []int) ([]gpusRow, error) {
	e := rr.engine("pspm", solver.BackendGPU)
	if e == nil {
		return nil, errors.New("no GPU pspm: " + rr.device)
	}
	what := fmt.Sprintf("`pspm`, %d of Lam et al.'s instances, their schedule, seed 1", len(s.lam))
	var rows []gpusRow
	for _, n := range counts {
		var secs, rates []float64
		atOpt, used := 0, 0
		err := rr.each(s.lam, nil, func(name string, in *solver.Instance) error {
			res, ok := rr.solve(e, in, onGPUs(solver.Params{Seed: 1}, n))
			if !ok {
				return fmt.Errorf("pspm on %s on %d GPUs failed", name, n)
			}
			g, ok := solver.GapPercent(res.Length, in.Optimum)
			if !ok {
				return fmt.Errorf("%s: no optimum", name)
			}
			if res.Length == in.Optimum {
				atOpt++
			}
			secs, rates, used = append(secs, g), append(rates, res.MovesPerSecond()), max(used, usedGPUs(res))
			return nil
		})
		if err != nil {
			return nil, err
		}
		rr.logf("gpus: pspm on %d GPUs: %.3g moves/s, SEC %.3f %%", n, mean(rates), mean(secs))
		rows = append(rows, gpusRow{what: what, gpus: n, used: used, rate: mean(rates), unit: "moves/s",
			tours: fmt.Sprintf("SEC %s %%, %d at the optimum", spreadCell(secs, "%.3f"), atOpt)})
	}
	return rows, nil
}

// gpusClimb is 2opt-climb on the first s.climbSizes cities of d18512 for s.climbTime (seed 1), on each
// count of GPUs: moves a second and the tour's length.
func (rr *reportRun) gpusClimb(s gpusSetting, counts []int) ([]gpusRow, error) {
	e, src, err := rr.climbOnD18512()
	if err != nil {
		return nil, err
	}
	var rows []gpusRow
	for _, size := range s.climbSizes {
		in := prefixInstance(src, size)
		what := fmt.Sprintf("`2opt-climb`, d18512's first %s, %s, seed 1", report.Plural(size, "city", "cities"), fmtD(s.climbTime))
		for _, n := range counts {
			res, ok := rr.solve(e, in, onGPUs(solver.Params{Seed: 1, TimeLimit: s.climbTime}, n))
			if !ok {
				return nil, fmt.Errorf("2opt-climb on %s on %d GPUs failed", in.Name, n)
			}
			rr.logf("gpus: 2opt-climb on %s on %d GPUs: %.3g moves/s, %d", in.Name, n, res.MovesPerSecond(), res.Length)
			rows = append(rows, gpusRow{what: what, gpus: n, used: usedGPUs(res), rate: res.MovesPerSecond(), unit: "moves/s",
				tours: "length " + solver.GroupDigits(fmt.Sprint(res.Length))})
		}
	}
	return rows, nil
}

// gpusBatch is the GPU batch solver on s.batchCount uniform instances in chunks of s.batchChunk, a
// worker a GPU taking the next chunk from one queue (as `tsp batch --gpus N --chunk C` does), on each
// count of GPUs: instances a second over the wall clock of the solve, and the mean and worst length
// against one GPU's tours of the same instances.
func (rr *reportRun) gpusBatch(s gpusSetting, counts []int) ([]gpusRow, error) {
	bg, ok := rr.opt.GPU.(BatchGPU)
	if !ok {
		return nil, errors.New("this build has no GPU batch solver")
	}
	ins, err := batchInstances(s.batchN, s.batchCount)
	if err != nil {
		return nil, err
	}
	what := fmt.Sprintf("`tsp batch`, %s × %d cities, chunks of %s, %s each", solver.GroupDigits(fmt.Sprint(s.batchCount)), s.batchN,
		solver.GroupDigits(fmt.Sprint(s.batchChunk)), fmtD(s.batchEach))
	var rows []gpusRow
	var first []solver.Result
	for _, n := range counts {
		res, wall, err := rr.batchOn(bg, ins, n, s.batchChunk, s.batchEach)
		if err != nil {
			return nil, err
		}
		tours := "the reference"
		if first == nil {
			first = res
		} else {
			tours = lengthsAgainst(res, first)
		}
		rr.logf("gpus: batch on %d GPUs: %d instances in %v", n, len(ins), wall.Round(time.Millisecond))
		rows = append(rows, gpusRow{what: what, gpus: n, used: n, rate: float64(len(ins)) / wall.Seconds(), unit: "instances/s", tours: tours})
	}
	return rows, nil
}

// batchOn solves ins on the first gpus GPUs, chunk instances a launch of each for each, a worker a GPU
// taking the next chunk as it ends one, and returns the results in ins's order, each checked, with the
// wall clock of the whole.
func (rr *reportRun) batchOn(bg BatchGPU, ins []*solver.Instance, gpus, chunk int, each time.Duration) ([]solver.Result, time.Duration, error) {
	res := make([]solver.Result, len(ins))
	next := make(chan int)
	errs := make([]error, gpus)
	var wg sync.WaitGroup
	t0 := time.Now()
	for g := range gpus {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := solver.Params{Seed: 1, TimeLimit: each}.WithExtra(gpusOption, fmt.Sprintf("%d,", g))
			for lo := range next {
				hi := min(lo+chunk, len(ins))
				out, err := bg.SolveBatch(rr.ctx, ins[lo:hi], p)
				if err == nil && len(out) != hi-lo {
					err = fmt.Errorf("the GPU returned %d results for %d instances", len(out), hi-lo)
				}
				if err != nil {
					errs[g] = errors.Join(errs[g], err)
					continue
				}
				copy(res[lo:hi], out)
			}
		}()
	}
	for lo := 0; lo < len(ins); lo += chunk {
		next <- lo
	}
	close(next)
	wg.Wait()
	wall := time.Since(t0)
	if err := errors.Join(errs...); err != nil {
		return nil, 0, err
	}
	for i, x := range res {
		if err := checkResult(ins[i], x); err != nil {
			return nil, 0, err
		}
		rr.device = x.Device
	}
	return res, wall, nil
}

// lengthsAgainst is the mean and range of each tour's length above ref's of the same instance, in per
// cent ("+0.0001 % (−0.01–+0.02) against one GPU's").
func lengthsAgainst(res, ref []solver.Result) string {
	d := make([]float64, len(res))
	for i := range res {
		d[i] = 100 * float64(res[i].Length-ref[i].Length) / float64(ref[i].Length)
	}
	return spreadCell(d, "%+.4f") + " % against one GPU's tours"
}

// gpusAuto is GPU auto (seed 1) on s.auto, one run of s.autoRun on each count of GPUs an instance: the
// gap of the best tour so far at each of s.autoAt (the last the run's end), a row a time, all the rows of
// the first time before those of the next. An instance's runs are made only where all of them fit in the
// part's budget from start, at the most set-up a run has taken; the others are rows that say they were
// not made.
func (rr *reportRun) gpusAuto(s gpusSetting, counts []int, start time.Time) ([]gpusRow, error) {
	e := rr.engine("auto", solver.BackendGPU)
	if e == nil {
		return nil, errors.New("no GPU auto: " + rr.device)
	}
	byAt := make([][]gpusRow, len(s.autoAt))
	for _, name := range s.auto {
		whats := autoWhats(name, s.autoRun, s.autoAt)
		if why := autoNotMade(counts, s.autoRun, rr.autoSlackOf(name), s.budget-time.Since(start), s.budget); why != "" {
			for i, w := range whats {
				byAt[i] = append(byAt[i], gpusRow{what: w, gpus: counts[len(counts)-1], notMade: why})
			}
			continue
		}
		r, err := rr.autoRuns(e, name, s, counts, whats)
		if err != nil {
			return nil, err
		}
		for i := range byAt {
			byAt[i] = append(byAt[i], r[i]...)
		}
	}
	return slices.Concat(byAt...), nil
}

// autoWhats are the "what" cells of GPU auto's rows on name, one for each of at in runs of d: a time
// before d is the best so far at that time of the d run.
func autoWhats(name string, d time.Duration, at []time.Duration) []string {
	out := make([]string, len(at))
	for i, a := range at {
		when := fmtD(a)
		if a < d {
			when = fmt.Sprintf("best so far at %s of the %g-s run", fmtD(a), d.Seconds())
		}
		out[i] = fmt.Sprintf("GPU `auto`, %s, %s, seed 1", name, when)
	}
	return out
}

// autoNotMade is why runs of d on each of counts of GPUs, each with slack of set-up, are not made when
// left of the part's budget remains; "" where they fit.
func autoNotMade(counts []int, d, slack, left, budget time.Duration) string {
	need := time.Duration(len(counts)) * (d + slack)
	if need <= left {
		return ""
	}
	return fmt.Sprintf("not made: its runs on %s GPUs need about %s, and %s of the part's %s was left",
		countsList(counts), fmtD(need.Round(time.Second)), fmtD(max(left, 0).Round(time.Second)), fmtD(budget))
}

// autoSlackOf is the most set-up a run of GPU auto took on name, or where none has run on it yet the
// most any run took.
func (rr *reportRun) autoSlackOf(name string) time.Duration {
	if d, ok := rr.autoSlack[name]; ok {
		return d
	}
	var most time.Duration
	for _, d := range rr.autoSlack {
		most = max(most, d)
	}
	return most
}

// autoRuns runs GPU auto on name, loaded once, for s.autoRun on each count of GPUs, reading each run's
// best so far (as the time-to-quality tables do) at each of s.autoAt, and records the most set-up (the
// wall clock past s.autoRun) a run of it took; the rows come a time of s.autoAt each.
func (rr *reportRun) autoRuns(e solver.Engine, name string, s gpusSetting, counts []int, whats []string) ([][]gpusRow, error) {
	in, c, err := rr.ttqCaseOf(name, s.autoRun)
	if err != nil {
		return nil, err
	}
	rows := make([][]gpusRow, len(s.autoAt))
	for _, n := range counts {
		t0 := time.Now()
		pts, res, err := rr.ttqRun(rr.ctx, e, in, s.autoRun, rr.opt.Workers, 1, rr.gpusExtra(e, n))
		if rr.ctx.Err() != nil {
			return nil, rr.ctx.Err() // a run cut short measures nothing
		}
		if err != nil {
			return nil, fmt.Errorf("GPU auto on %s on %d GPUs: %v", name, n, err)
		}
		rr.device = res.Device
		if rr.autoSlack == nil {
			rr.autoSlack = map[string]time.Duration{}
		}
		rr.autoSlack[name] = max(rr.autoSlack[name], time.Since(t0)-s.autoRun)
		for i, a := range s.autoAt {
			tours := autoTours(pts, a, s.autoRun, c)
			rr.logf("gpus: auto on %s on %d GPUs at %s: %s", name, n, fmtD(a), tours)
			rows[i] = append(rows[i], gpusRow{what: whats[i], gpus: n, used: usedGPUs(res), tours: tours})
		}
	}
	return rows, nil
}

// autoTours is the tours cell of GPU auto's best so far in pts at a of a run of d on case c.
func autoTours(pts []ttqPoint, a, d time.Duration, c ttqCase) string {
	g := atCell(pts, a, d, c.gap)
	if g == "—" || g == "n/a" {
		return "no tour by " + fmtD(a)
	}
	return fmt.Sprintf("gap %s %% (against the %s)", g, c.refName)
}

// gpusExtra is the engine options of a run of e on the first n usable GPUs: the GPU selection where e
// takes it (every GPU engine does), then the suite's options that e takes, as solve sets them.
func (rr *reportRun) gpusExtra(e solver.Engine, n int) map[string]string {
	extra := map[string]string{}
	if _, ok := solver.OptionsFor(e.Name(), e.Backend()).Lookup(gpusOption); ok {
		extra = onGPUs(solver.Params{}, n).Extra
	}
	maps.Copy(extra, rr.extraFor(e))
	return extra
}

// countsList is "1, 2 and 4".
func countsList(counts []int) string {
	s := make([]string, len(counts))
	for i, n := range counts {
		s[i] = fmt.Sprint(n)
	}
	if len(s) == 1 {
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// gpusTableOf is the several-GPU table of rows: each rate's speed-up against the same row's on one GPU,
// and the efficiency (the speed-up ÷ GPUs); a count of gpusCounts over the host's GPUs is a row that
// says it was not made.
func gpusTableOf(rows []gpusRow, host int) *Table {
	t := &Table{Header: []string{"what", "GPUs", "GPUs used", "rate", "speed-up", "efficiency", "tours"}}
	one := map[string]float64{}
	for _, r := range rows {
		if r.gpus == 1 && r.notMade == "" {
			one[r.what] = r.rate
		}
	}
	for _, r := range rows {
		if r.notMade != "" {
			t.AddRow(r.what, "—", "—", r.notMade, "—", "—", "—")
			continue
		}
		rate, speed, eff := "—", "—", "—"
		if r.rate > 0 {
			rate = fmt.Sprintf("%.3g %s", r.rate, r.unit)
			if r.rate < 1e6 {
				// a rate a person counts, digits grouped
				rate = solver.GroupDigits(strconv.FormatFloat(r.rate, 'f', 0, 64)) + " " + r.unit
			}
			if base := one[r.what]; base > 0 {
				x := r.rate / base
				speed, eff = fmt.Sprintf("%.2f×", x), fmt.Sprintf("%.0f %%", 100*x/float64(r.gpus))
			}
		}
		t.AddRow(r.what, r.gpus, r.used, rate, speed, eff, r.tours)
	}
	for _, n := range gpusCounts {
		if n > host {
			t.AddRow("every row", n, "—", fmt.Sprintf("not made: the host has %s", report.Plural(host, "GPU")), "—", "—", "—")
		}
	}
	return t
}

// mean is the mean of vals, NaN where there are none.
func mean(vals []float64) float64 {
	if len(vals) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, v := range vals {
		s += v
	}
	return s / float64(len(vals))
}
