package bench

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// CPUInstances are the cpu suite's default instances.
var CPUInstances = []string{"a280", "pcb442", "d493", "rat783", "pr2392"}

// CPUEngines are the engines the cpu suite runs, strongest last.
var CPUEngines = []string{"sa", "sspm", "pssm", "pspm", "2opt-climb", "swap-climb", "2opt-ils", "3opt-ils", "auto"}

// Time budgets of the cpu suite: auto's quality targets are stated for 10 s; every other engine, a reference, gets a fifth of it, at most 2 s.
const (
	cpuAutoTime  = 10 * time.Second
	cpuOtherTime = 2 * time.Second
)

func init() {
	Register("cpu", "every CPU engine on a280, pcb442, d493, rat783, pr2392: length, gap to optimum, moves/s", runCPU)
}

// cpuBudgets returns the time per run of auto and of the other engines.
func cpuBudgets(opt Options) (auto, other time.Duration) {
	auto = cmp.Or(opt.Time, cpuAutoTime)
	if opt.Quick && opt.Time == 0 {
		auto = time.Second
	}
	other = min(cpuOtherTime, auto/5)
	if opt.Quick {
		other = min(other, 200*time.Millisecond)
	}
	return auto, max(other, time.Millisecond)
}

func runCPU(ctx context.Context, opt Options, out io.Writer) error {
	r, err := newRepro(ctx, "cpu", opt)
	if err != nil {
		return err
	}
	runs := max(opt.Runs, 1)
	autoTime, otherTime := cpuBudgets(opt)
	tb := &Table{Title: "CPU engines", file: "cpu",
		Header: []string{"instance", "n", "engine", "time s", "runs", "length", "optimum", "gap %", "mean gap %", "moves/s"}}
	k := -1 // the row's index in the suite's order, for --shard
	for _, name := range r.instances(CPUInstances, CPUInstances[:2]) {
		var in *solver.Instance
		for _, algo := range CPUEngines {
			if k++; !opt.Shard.Has(k) {
				continue
			}
			if in == nil {
				if in, err = r.load(name); err != nil {
					return err
				}
			}
			e, err := solver.Lookup(algo, solver.BackendCPU)
			if err != nil {
				return err
			}
			budget := otherTime
			if algo == "auto" {
				budget = autoTime
			}
			row, err := r.cpuEngineRow(e, in, name, algo, budget, runs)
			if err != nil {
				return err
			}
			tb.addRowAt(k, row...)
		}
	}
	w := cmp.Or(opt.Workers, runtime.NumCPU())
	tb.Notes = []string{
		"machine: " + HostCPU() + fmt.Sprintf("; %d workers; %s", w, runtime.Version()),
		fmt.Sprintf("time per run: auto %s, every other engine %s (the SA engines end earlier when their schedule ends); seeds 1..%d", autoTime, otherTime, runs),
		"length and gap %: the best of the runs; mean gap %: the mean over the runs; moves/s: moves evaluated per second (Lam et al.'s SSES), mean over the runs",
		"reference (measured elsewhere, one core): LKH-3 reaches the optimum of a280 and pcb442 in about 0.1 s and of pr2392 in about 10 s including its preparation",
	}
	return r.finish(out, nil, tb)
}

// cpuEngineRow runs engine e (algo) runs times on in with the given budget and returns its table row: the best and mean lengths, time and moves/s.
func (r *repro) cpuEngineRow(e solver.Engine, in *solver.Instance, name, algo string, budget time.Duration, runs int) ([]any, error) {
	var best int64
	var sumLen, sumMoves float64
	var sumTime time.Duration
	for k := 0; k < runs; k++ {
		p := solver.Params{Algorithm: algo, Backend: solver.BackendCPU, Seed: uint64(k + 1), Workers: r.opt.Workers, TimeLimit: budget}
		res, err := r.run(r.ctx, e, in, p, nil)
		if err != nil {
			return nil, fmt.Errorf("%s on %s: %w", algo, name, err)
		}
		if r.ctx.Err() != nil {
			return nil, r.ctx.Err()
		}
		if k == 0 || res.Length < best {
			best = res.Length
		}
		sumLen += float64(res.Length)
		sumMoves += res.MovesPerSecond()
		sumTime += res.Elapsed
		r.logf("%s %s run %d: %d in %.2fs, %.3g moves/s", name, algo, k+1, res.Length, res.Elapsed.Seconds(), res.MovesPerSecond())
	}
	gap, meanGap, optimum := "", "", ""
	if in.HasOptimum() {
		g, _ := solver.GapPercent(best, in.Optimum)
		mg := 100 * (sumLen/float64(runs) - float64(in.Optimum)) / float64(in.Optimum)
		gap, meanGap, optimum = fmt.Sprintf("%.2f", g), fmt.Sprintf("%.2f", mg), strconv.FormatInt(in.Optimum, 10)
	}
	return []any{name, in.N, algo, fmt.Sprintf("%.2f", (sumTime / time.Duration(runs)).Seconds()), runs, best, optimum, gap, meanGap, fmt.Sprintf("%.3g", sumMoves/float64(runs))}, nil
}
