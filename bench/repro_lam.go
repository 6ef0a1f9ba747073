package bench

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// Lam et al.'s paper as the lam suite cites it. Its full bibliographic
// entry was not at hand: the figures below come from the project's issue 4,
// which quotes them, not from the paper itself.
const lamCite = "Lam et al., PSPM: parallel simulated annealing on the GPU with LWSA (full reference: " + NotFound + "; the averages quoted are those of the project's issue 4)"

// lamTPB are the threads per block of Lam et al.'s Table 4.
var lamTPB = []int{4, 8, 16, 24, 32, 48}

func init() {
	Register("lam", "Lam et al. reproduced: Table 2 (SSES, SEC of CPU SSPM / CPU PSSM / GPU PSPM on 20 instances), Table 3 (time to SSPM's best, error at equal time), Table 4 (TPB 4..48)", runLam)
}

func runLam(ctx context.Context, opt Options, out io.Writer) error {
	r, err := newRepro(ctx, "lam", opt)
	if err != nil {
		return err
	}
	names := r.instances(LamInstances, []string{"rd100"})
	runs := r.runs(1)
	cpuT := r.budget(time.Second, 150*time.Millisecond)
	gpuT := 2 * cpuT
	gp := r.engine("pspm", solver.BackendGPU)
	cs := r.engine("sspm", solver.BackendCPU)
	cp := r.engine("pssm", solver.BackendCPU)

	t2 := &Table{Title: "Lam et al. Table 2: SSES (moves/s, Eq. 4) and SEC (% above optimum, Eq. 5)",
		Header: []string{"instance", "n", "CPU SSPM SSES", "CPU PSSM SSES", "GPU PSPM SSES", "CPU SSPM SEC %", "CPU PSSM SEC %", "GPU PSPM SEC %", "GPU/SSPM SSES", "GPU/PSSM SSES", "paper SSES (PSPM)", "paper SEC % (PSPM)"}}
	t3 := &Table{Title: "Lam et al. Table 3: GPU PSPM's time to reach CPU SSPM's best, and errors at equal time",
		Header: []string{"instance", "CPU SSPM best", "CPU SSPM s", "GPU PSPM s to reach it", "speedup", "GPU PSPM SEC % at <= SSPM's time", "CPU SSPM SEC %", "paper speedup", "paper SEC %"}}
	type acc struct{ sses, sec float64 }
	var sum [3]acc
	var cnt [3]int
	for _, name := range names {
		in, err := r.load(name)
		if err != nil {
			return err
		}
		var res [3][]solver.Result
		for k := 0; k < runs; k++ {
			seed := uint64(k + 1)
			if x, ok := r.solve(cs, in, solver.Params{Seed: seed, TimeLimit: cpuT}); ok {
				res[0] = append(res[0], x)
			}
			if x, ok := r.solve(cp, in, solver.Params{Seed: seed, TimeLimit: cpuT}); ok {
				res[1] = append(res[1], x)
			}
			if x, ok := r.solve(gp, in, solver.Params{Seed: seed, TimeLimit: gpuT}); ok {
				res[2] = append(res[2], x)
			}
		}
		var sses, sec [3]float64
		var have [3]bool
		for e := range res {
			for _, x := range res[e] {
				g, _ := gapOf(x.Length, in)
				sses[e] += x.MovesPerSecond() / float64(len(res[e]))
				sec[e] += g / float64(len(res[e]))
				have[e] = true
			}
			if have[e] {
				sum[e].sses += sses[e]
				sum[e].sec += sec[e]
				cnt[e]++
			}
		}
		cell := func(e int, v float64, f string) string {
			if !have[e] {
				return "n/a"
			}
			return fmt.Sprintf(f, v)
		}
		ratio := func(a, b int) string {
			if !have[a] || !have[b] || sses[b] == 0 {
				return "n/a"
			}
			return fmt.Sprintf("%.1fx", sses[a]/sses[b])
		}
		t2.AddRow(name, in.N, cell(0, sses[0], "%.3g"), cell(1, sses[1], "%.3g"), cell(2, sses[2], "%.3g"),
			cell(0, sec[0], "%.2f"), cell(1, sec[1], "%.2f"), cell(2, sec[2], "%.2f"), ratio(2, 0), ratio(2, 1), NotFound, NotFound)
		r.logf("%s: SSES %.3g / %.3g / %.3g, SEC %.2f / %.2f / %.2f", name, sses[0], sses[1], sses[2], sec[0], sec[1], sec[2])

		// Table 3, on the first run's seed: GPU PSPM with SSPM's best as
		// the target; the equal-time error is Table 2's GPU run when it
		// ended within SSPM's time, else a run limited to that time.
		if len(res[0]) > 0 {
			s := res[0][0]
			sg, _ := gapOf(s.Length, in)
			reach, speed, eq := "n/a", "n/a", "n/a"
			if x, ok := r.solve(gp, in, solver.Params{Seed: 1, Target: s.Length, TimeLimit: gpuT}); ok {
				if x.Length <= s.Length {
					reach = fmtSec(x.Elapsed)
					speed = fmt.Sprintf("%.1fx", s.Elapsed.Seconds()/max(x.Elapsed.Seconds(), 1e-9))
				} else {
					reach = "> " + fmtSec(x.Elapsed) + " (not reached)"
				}
			}
			if len(res[2]) > 0 && res[2][0].Elapsed <= s.Elapsed {
				g, _ := gapOf(res[2][0].Length, in)
				eq = fmt.Sprintf("%.2f (%.2f s)", g, res[2][0].Elapsed.Seconds())
			} else if x, ok := r.solve(gp, in, solver.Params{Seed: 1, TimeLimit: s.Elapsed}); ok {
				g, _ := gapOf(x.Length, in)
				eq = fmt.Sprintf("%.2f (%.2f s)", g, x.Elapsed.Seconds())
			}
			t3.AddRow(name, s.Length, fmtSec(s.Elapsed), reach, speed, eq, fmt.Sprintf("%.2f", sg), NotFound, NotFound)
		}
	}
	mean := func(e int, f func(acc) float64, format string) string {
		if cnt[e] == 0 {
			return "n/a"
		}
		return fmt.Sprintf(format, f(sum[e])/float64(cnt[e]))
	}
	ss := func(a acc) float64 { return a.sses }
	sc := func(a acc) float64 { return a.sec }
	mr := func(a, b int) string {
		if cnt[a] == 0 || cnt[b] == 0 || sum[b].sses == 0 {
			return "n/a"
		}
		return fmt.Sprintf("%.1fx", (sum[a].sses/float64(cnt[a]))/(sum[b].sses/float64(cnt[b])))
	}
	t2.AddRow("mean", "", mean(0, ss, "%.3g"), mean(1, ss, "%.3g"), mean(2, ss, "%.3g"), mean(0, sc, "%.2f"), mean(1, sc, "%.2f"), mean(2, sc, "%.2f"),
		mr(2, 0)+" (paper 99x)", mr(2, 1)+" (paper 38.7x)", "4.57e8 (Tesla C2050)", "2.2")

	// Table 4: PSPM's scaling with the threads per block.
	t4 := &Table{Title: "Lam et al. Table 4: GPU PSPM against threads per block (TPB)",
		Header: []string{"instance", "TPB", "blocks", "SSES (moves/s)", "SEC %", "time s", "paper SSES", "paper SEC %"}}
	tpbInst := "d493"
	if r.opt.Quick || len(r.opt.Instances) > 0 {
		tpbInst = names[len(names)-1]
	}
	var xs, ys []float64
	if in, err := r.load(tpbInst); err == nil {
		for _, tpb := range lamTPB {
			r.err = nil
			x, ok := r.solve(gp, in, solver.Params{Seed: 1, Threads: tpb, TimeLimit: gpuT})
			if !ok {
				why := "n/a"
				if r.err != nil {
					why = "failed: " + r.err.Error()
				}
				t4.AddRow(tpbInst, tpb, why, "n/a", "n/a", "n/a", NotFound, NotFound)
				continue
			}
			_, g := gapOf(x.Length, in)
			t4.AddRow(tpbInst, tpb, x.Params.Blocks, fmtG(x.MovesPerSecond()), g, fmtSec(x.Elapsed), NotFound, NotFound)
			xs, ys = append(xs, float64(tpb)), append(ys, x.MovesPerSecond())
		}
	} else {
		return err
	}
	if err := SavePlot(r.opt.OutDir, "lam-tpb", "GPU PSPM: SSES against threads per block ("+tpbInst+")", "threads per block", "moves/s", false, true,
		Series{Name: "GPU PSPM", X: xs, Y: ys}); err != nil {
		return err
	}
	scaled := fmt.Sprintf("Scaled to run in minutes: %d run(s) per instance instead of the paper's 10 (the instance list is not scaled); CPU SSPM and PSSM stop at the end of their schedule or after %v, GPU PSPM after %v.", runs, cpuT, gpuT)
	for _, t := range []*Table{t2, t3, t4} {
		t.Notes = append(t.Notes, "Paper: "+lamCite+".", r.machine(), scaled,
			"Schedule: Lam et al.'s Table 1 defaults of each engine (T0 10000, Tend 0.1, alpha 0.99, Sp 10); SSES = moves evaluated per second, SEC = % above the TSPLIB optimum.",
			"The 20 instances are this project's choice of 20 EUC_2D TSPLIB instances from rd100 to d493 (the paper's own list was not at hand).")
	}
	t2.Notes = append(t2.Notes, "Caveat: the CPU runs are cut at the time limit, far before the end of their schedule (the paper ran every schedule to its end), so their SEC is that of a still-hot annealing and the SSES ratios compare a full GPU schedule with a few CPU steps; run with --time to give the CPU more.")
	t3.Notes = append(t3.Notes, "GPU PSPM checks its time limit and target between temperature-step batches, so its times include that granularity.", "Equal time: the GPU run of Table 2 when it ended within SSPM's time (its schedule ended first), else a GPU run limited to SSPM's time.")
	return r.finish([]*Table{t2, t3, t4}, []string{"lam-table2", "lam-table3", "lam-table4"}, out)
}
