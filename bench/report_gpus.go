package bench

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/report"
)

// GPUCounter is the host's usable GPUs, from cmd/tsp's bench.GPU in a CUDA build.
type GPUCounter interface {
	UsableGPUs() (int, error)
}

// gpusCounts are the numbers of GPUs the several-GPU table compares, each against one GPU.
var gpusCounts = []int{1, 2, 4}

// gpusPartBudget bounds the several-GPU part; its 60-s GPU auto runs are made only while they fit.
const gpusPartBudget = 7 * time.Minute

// gpusOption is the engines' GPU selection (gpu/device's OptGPUs): "count=N", the first N usable GPUs.
const gpusOption = "gpus"

// gpusSetting is what the several-GPU part runs: pspm, 2opt-climb, the batch and GPU auto.
type gpusSetting struct {
	lam                []string
	climbSizes         []int
	climbTime          time.Duration
	batchN, batchCount int
	auto               []string
	autoTimes          []time.Duration
	budget             time.Duration
}

// gpusSettingOf is the part's full setting, or with quick a short one that checks that it runs.
func gpusSettingOf(quick bool) gpusSetting {
	if quick {
		return gpusSetting{lam: []string{"rd100", "a280"}, climbSizes: []int{1000}, climbTime: time.Second,
			batchN: 100, batchCount: 500,
			auto: []string{"E10k.0"}, autoTimes: []time.Duration{2 * time.Second, 5 * time.Second}, budget: time.Minute}
	}
	return gpusSetting{lam: gpusLam, climbSizes: []int{1000, 4000}, climbTime: 5 * time.Second,
		batchN: 100, batchCount: 10000,
		auto: []string{"E100k.0", "E1M.0"}, autoTimes: []time.Duration{10 * time.Second, 60 * time.Second}, budget: gpusPartBudget}
}

// gpusLam are Lam et al.'s Table 2 instances the several-GPU table runs pspm on, smallest first.
var gpusLam = []string{"rd100", "kroA150", "rat195", "a280", "pcb442", "d493"}

// gpusRow is one row of the several-GPU table: what ran on how many GPUs (asked and used), its rate in unit, its tours;
// notMade says why a row was not measured.
type gpusRow struct {
	what       string
	gpus, used int
	rate       float64
	unit       string
	note       string // after the rate, in brackets
	tours      string
	notMade    string
}

// gpusTable measures on 1, 2 and 4 GPUs pspm, 2opt-climb, the batch and GPU auto at 10 and 60 s.
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
	auto := func(s gpusSetting, counts []int) ([]gpusRow, error) { return rr.gpusAuto(s, counts, start) }
	var rows []gpusRow
	for _, part := range []func(gpusSetting, []int) ([]gpusRow, error){rr.gpusPSPM, rr.gpusClimb, rr.gpusBatch, auto} {
		r, err := part(s, counts)
		if err != nil {
			return nil, err
		}
		rows = append(rows, r...)
	}
	return gpusTableOf(rows, host), nil
}

// warmGPUs opens the first n GPUs' contexts with an unmeasured pspm run.
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
	return slices.DeleteFunc(slices.Clone(gpusCounts), func(n int) bool { return n > host })
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

// gpusPSPM is pspm on s.lam on each count of GPUs: mean moves a second, SEC and optima.
func (rr *reportRun) gpusPSPM(s gpusSetting, counts []int) ([]gpusRow, error) {
	e := rr.engine("pspm", solver.BackendGPU)
	if e == nil {
		return nil, errors.New("no GPU pspm: " + rr.device)
	}
	what := fmt.Sprintf("`pspm`, %d of Lam et al.'s instances, their schedule, seed 1", len(s.lam))
	var rows []gpusRow
	for _, n := range counts {
		x, err := rr.pspmOnLam(e, s.lam, onGPUs(solver.Params{Seed: 1}, n), fmt.Sprintf(" on %d GPUs", n))
		if err != nil {
			return nil, err
		}
		rr.logf("gpus: pspm on %d GPUs: %.3g moves/s, SEC %.3f %%", n, mean(x.rates), mean(x.secs))
		rows = append(rows, gpusRow{what: what, gpus: n, used: x.used, rate: mean(x.rates), unit: "moves/s",
			tours: fmt.Sprintf("SEC %s %%, %d at the optimum", spreadCell(x.secs, "%.3f"), x.atOpt)})
	}
	return rows, nil
}

// gpusClimb is 2opt-climb on d18512's first cities on each count of GPUs: moves a second and length.
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

// gpusBatch is `tsp batch` as a process of its own on s.batchCount instances on each count of GPUs: its rate, clocks and lengths.
func (rr *reportRun) gpusBatch(s gpusSetting, counts []int) ([]gpusRow, error) {
	ins, err := batchInstances(s.batchN, s.batchCount)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "tsp-bench-batch")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "instances.txt")
	if err := writeInstanceLines(file, ins); err != nil {
		return nil, err
	}
	what := fmt.Sprintf("`tsp batch`, %s × %d cities, its default work", solver.GroupDigits(fmt.Sprint(s.batchCount)), s.batchN)
	var rows []gpusRow
	var first []float64
	for _, n := range counts {
		wall, solve, lens, err := rr.batchProcess(file, filepath.Join(dir, fmt.Sprintf("r%d.jsonl", n)), n, len(ins))
		if err != nil {
			return nil, err
		}
		tours := "the reference"
		if first == nil {
			first = lens
		} else {
			tours = lengthsAgainst(lens, first)
		}
		rr.logf("gpus: tsp batch on %d GPUs: %d instances, wall %v, solved in %v", n, len(ins), wall.Round(time.Millisecond), solve.Round(time.Millisecond))
		rows = append(rows, gpusRow{what: what, gpus: n, used: n, rate: float64(len(ins)) / wall.Seconds(), unit: "instances/s",
			note: fmt.Sprintf("wall clock %.2f s, solved in %.2f s", wall.Seconds(), solve.Seconds()), tours: tours})
	}
	return rows, nil
}

// writeInstanceLines writes ins to file, one instance a line ("x1 y1 x2 y2 …").
func writeInstanceLines(file string, ins []*solver.Instance) error {
	var b strings.Builder
	for _, in := range ins {
		for c := range in.N {
			if c > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(strconv.FormatFloat(in.X[c], 'g', -1, 64) + " " + strconv.FormatFloat(in.Y[c], 'g', -1, 64))
		}
		b.WriteByte('\n')
	}
	return os.WriteFile(file, []byte(b.String()), 0o644)
}

// batchSolvedIn reads the solve time from tsp batch's summary ("batch: N solved in 1.23 s, …").
var batchSolvedIn = regexp.MustCompile(`solved in ([0-9.]+) s`)

// batchProcess runs this executable's `tsp batch` on file on the first gpus GPUs: its
// wall clock, solve time and lengths in input order.
func (rr *reportRun) batchProcess(file, out string, gpus, count int) (time.Duration, time.Duration, []float64, error) {
	exe, err := os.Executable()
	if err != nil {
		return 0, 0, nil, err
	}
	cmd := exec.CommandContext(rr.ctx, exe, "batch", file, "--lines", "--backend", "gpu", "--gpus", strconv.Itoa(gpus), "--out", out, "--quiet")
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	t0 := time.Now()
	err = cmd.Run()
	wall := time.Since(t0)
	if err != nil {
		return 0, 0, nil, fmt.Errorf("tsp batch on %d GPUs: %v: %s", gpus, err, strings.TrimSpace(stderr.String()))
	}
	m := batchSolvedIn.FindStringSubmatch(stdout.String())
	if m == nil {
		return 0, 0, nil, fmt.Errorf("tsp batch on %d GPUs: no solve time in %q", gpus, stdout.String())
	}
	secs, _ := strconv.ParseFloat(m[1], 64)
	data, err := os.ReadFile(out)
	if err != nil {
		return 0, 0, nil, err
	}
	var lens []float64
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var line struct {
			Length float64 `json:"length"`
		}
		if err := json.Unmarshal([]byte(l), &line); err != nil {
			return 0, 0, nil, fmt.Errorf("tsp batch on %d GPUs: %v", gpus, err)
		}
		lens = append(lens, line.Length)
	}
	if len(lens) != count {
		return 0, 0, nil, fmt.Errorf("tsp batch on %d GPUs wrote %d lines for %d instances", gpus, len(lens), count)
	}
	return wall, time.Duration(secs * float64(time.Second)), lens, nil
}

// lengthsAgainst is the mean and range of each length above ref's, in per cent.
func lengthsAgainst(lens, ref []float64) string {
	d := make([]float64, len(lens))
	for i := range lens {
		d[i] = 100 * (lens[i] - ref[i]) / ref[i]
	}
	return spreadCell(d, "%+.4f") + " % against one GPU's tours"
}

// gpusAuto is GPU auto's final gap on s.auto for each of s.autoTimes and GPU count,
// the runs that would overrun the budget not made.
func (rr *reportRun) gpusAuto(s gpusSetting, counts []int, start time.Time) ([]gpusRow, error) {
	e := rr.engine("auto", solver.BackendGPU)
	if e == nil {
		return nil, errors.New("no GPU auto: " + rr.device)
	}
	var rows []gpusRow
	for _, d := range s.autoTimes {
		for _, name := range s.auto {
			what := fmt.Sprintf("GPU `auto`, %s, %s, seed 1", name, fmtD(d))
			if why := autoNotMade(counts, d, rr.autoSlack[name], s.budget-time.Since(start), s.budget); why != "" {
				rows = append(rows, gpusRow{what: what, gpus: counts[len(counts)-1], notMade: why})
				continue
			}
			r, err := rr.autoRuns(e, name, d, counts, what)
			if err != nil {
				return nil, err
			}
			rows = append(rows, r...)
		}
	}
	return rows, nil
}

// autoNotMade is why runs of d on counts of GPUs do not fit the part's budget ("" where they fit).
func autoNotMade(counts []int, d, slack, left, budget time.Duration) string {
	need := time.Duration(len(counts)) * (d + slack)
	if need <= left {
		return ""
	}
	return fmt.Sprintf("not made: its runs on %s GPUs need about %s, and %s of the part's %s was left",
		countsList(counts), fmtD(need.Round(time.Second)), fmtD(max(left, 0).Round(time.Second)), fmtD(budget))
}

// autoRuns runs GPU auto on name for d on each count of GPUs, recording its most set-up.
func (rr *reportRun) autoRuns(e solver.Engine, name string, d time.Duration, counts []int, what string) ([]gpusRow, error) {
	in, c, err := rr.ttqCaseOf(name, d)
	if err != nil {
		return nil, err
	}
	var rows []gpusRow
	for _, n := range counts {
		t0 := time.Now()
		res, ok := rr.solve(e, in, onGPUs(solver.Params{Seed: 1, TimeLimit: d}, n))
		if !ok {
			return nil, fmt.Errorf("GPU auto on %s on %d GPUs failed", name, n)
		}
		rr.autoSlack[name] = max(rr.autoSlack[name], time.Since(t0)-d)
		rr.logf("gpus: auto on %s on %d GPUs: %d (%.4f %%)", name, n, res.Length, c.gap(res.Length))
		rows = append(rows, gpusRow{what: what, gpus: n, used: usedGPUs(res),
			tours: fmt.Sprintf("gap %.4f %% (against the %s)", c.gap(res.Length), c.refName)})
	}
	return rows, nil
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

// gpusTableOf is the several-GPU table: each rate's speed-up over one GPU and its efficiency (speed-up ÷ GPUs).
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
			if r.note != "" {
				rate += " (" + r.note + ")"
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
