package bench

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// delevacqCite names Delévacq, Delisle and Krajecki's paper as its text
// gives it (no venue or year is printed).
const delevacqCite = `A. Delévacq, P. Delisle and M. Krajecki, "Parallelization Strategies for Local Search Algorithms on Graphics Processing Units" (venue and year not printed)`

// delevacqHardware is the paper's hardware.
const delevacqHardware = "paper: NVIDIA Fermi C2050 (CUDA 4.1); the CPU of its sequential times is not named"

// luongCite names Luong, Melab and Talbi's paper as its text gives it.
const luongCite = `T. V. Luong, N. Melab and E.-G. Talbi, "GPU Computing for Parallel Local Search Metaheuristic Algorithms", IEEE Transactions on Computers (year not printed)`

// luongHardware is the configuration whose figures the luong suite shows
// (the newest of the paper's four).
const luongHardware = "paper: Xeon E5620 (one core) + Tesla M2050 (448 GPU cores)"

// DelevacqInstances are Delévacq et al.'s five instances.
var DelevacqInstances = []string{"kroA100", "lin318", "rat783", "fl1577", "pcb3038"}

// delevacqNbSol are the population sizes of their Tables 1 and 3.
var delevacqNbSol = []string{"1", "8", "64", "512", "2048"}

// LuongInstances are Luong et al.'s TSP instances (Table 6).
var LuongInstances = []string{"eil101", "d198", "pcb442", "rat783", "d1291", "pr2392", "fnl4461", "rl5915"}

// luongIterations is the tabu search's length in the paper's protocol.
const luongIterations = 10000

func init() {
	Register("delevacq", "Delévacq et al. reproduced: kroA100 .. pcb3038, 20/10 trials, Table 1 (first improvement) and Table 3 (ILS-RKBI_blocks) beside their figures", runDelevacq)
	Register("luong", "Luong et al. reproduced: their 8 TSP instances, 10,000 tabu iterations over the swap neighbourhood, 30 runs, time and acceleration over one core with and without thread control", runLuong)
}

func perSec(v func(solver.Result) int64) func(solver.Result) float64 {
	return func(x solver.Result) float64 {
		if x.Elapsed <= 0 {
			return 0
		}
		return float64(v(x)) / x.Elapsed.Seconds()
	}
}

func ratioCell(a, b float64, okA, okB bool) string {
	if !okA || !okB || b == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.2fx", a/b)
}

func valCell(v float64, ok bool, format string) string {
	if !ok {
		return "n/a"
	}
	return fmt.Sprintf(format, v)
}

// delevacqTrials is their trial count: 20 below 1000 cities, 10 above.
func delevacqTrials(n int) int {
	if n < 1000 {
		return 20
	}
	return 10
}

func runDelevacq(ctx context.Context, opt Options, out io.Writer) error {
	r, err := newRepro(ctx, "delevacq", opt)
	if err != nil {
		return err
	}
	names := r.instances(DelevacqInstances, []string{"kroA100"})
	T := r.budget(2*time.Second, 200*time.Millisecond)
	p1 := r.papers.table("delevacq-table1.csv")
	p3 := r.papers.table("delevacq-table3.csv")
	pp := r.papers.table("delevacq-text-rkbi-params.csv")
	t1 := &Table{Title: "Delévacq et al. Table 1: first-improvement ILS (don't-look bits, fixed radius, 40 candidates), sequential CPU beside the paper's GPU strategies",
		Header: []string{"instance", "nb_sol", "trials", "CPU FI kicks/s (1 core)", "CPU FI freq", "CPU FI Δavg %", "GPU FI strategies", "paper speedup T", "paper BG", "paper BS", "paper freq", "paper Δavg %"}}
	t3 := &Table{Title: "Delévacq et al. Table 3: ILS-RKBI_blocks on the GPU against the sequential ILS, speedup (ILS iterations per second) and quality",
		Header: []string{"instance", "nb_sol", "trials", "it_total/k (paper)", "GPU kicks/s", "CPU 1-core kicks/s", "speedup", "paper speedup", "GPU freq", "paper freq", "GPU Δavg %", "paper Δavg %", "CPU 1-core Δavg %"}}
	kicks := perSec(func(x solver.Result) int64 { return x.Steps })
	gRK := r.engine("3opt-ils", solver.BackendGPU)
	cIL := r.engine("3opt-ils", solver.BackendCPU)
	err = r.each(names, nil, func(name string, in *solver.Instance) error {
		trials := r.runs(delevacqTrials(in.N))
		gap := func(x solver.Result) float64 { g, _ := gapOf(x.Length, in); return g }
		freq := func(l lamRuns) (float64, bool) {
			return l.mean(func(x solver.Result) float64 {
				if in.Optimum > 0 && x.Length <= in.Optimum {
					return 1
				}
				return 0
			})
		}
		var fi, rkG, rkC lamRuns
		for k := 0; k < trials; k++ {
			seed := uint64(k + 1)
			if x, ok := r.solve(cIL, in, solver.Params{Seed: seed, TimeLimit: T, Workers: 1, Extra: map[string]string{"pivot": "first", "neighbors": "40"}}); ok {
				fi = append(fi, x)
			}
			if x, ok := r.solve(cIL, in, solver.Params{Seed: seed, TimeLimit: T, Workers: 1, Extra: map[string]string{"pivot": "rkbi"}}); ok {
				rkC = append(rkC, x)
			}
			if x, ok := r.solve(gRK, in, solver.Params{Seed: seed, TimeLimit: T}); ok {
				rkG = append(rkG, x)
			}
		}
		fk, okf := fi.mean(kicks)
		ff, _ := freq(fi)
		fg, _ := fi.mean(gap)
		for _, nb := range delevacqNbSol {
			ours := []any{"not reproduced (one solution per search)", "", ""}
			if nb == "1" {
				ours = []any{valCell(fk, okf, "%.0f"), valCell(ff, okf, "%.2f"), valCell(fg, okf, "%.3f")}
			}
			t1.AddRow(name, nb, trials, ours[0], ours[1], ours[2], "not implemented here",
				p1.cell("Speedup ILS-FI_thread (T)", name, nb), p1.cell("Speedup ILS-FI_block^global (BG)", name, nb), p1.cell("Speedup ILS-FI_block^shared (BS)", name, nb),
				p1.cell("freq (frequency of finding the known optimum)", name, nb), p1.cell("Δavg (average % deviation from optimum)", name, nb))
		}
		gk, okg := rkG.mean(kicks)
		ck, okc := rkC.mean(kicks)
		gf, _ := freq(rkG)
		gg, _ := rkG.mean(gap)
		cg, _ := rkC.mean(gap)
		budget := pp.cell("it_total (as printed)", name) + " / " + pp.cell("k = evaluated neighbours (as printed)", name)
		for _, nb := range delevacqNbSol {
			row := []any{name, nb, trials, budget}
			if nb == "1" {
				row = append(row, valCell(gk, okg, "%.0f"), valCell(ck, okc, "%.0f"), ratioCell(gk, ck, okg, okc), p3.cell("Speedup ILS-RKBI_blocks", name, nb),
					valCell(gf, okg, "%.2f"), p3.cell("freq (frequency of finding the known optimum)", name, nb), valCell(gg, okg, "%.3f"),
					p3.cell("Δavg (average % deviation from optimum)", name, nb), valCell(cg, okc, "%.3f"))
			} else {
				row = append(row, "not reproduced (one solution per search)", "", "", p3.cell("Speedup ILS-RKBI_blocks", name, nb), "",
					p3.cell("freq (frequency of finding the known optimum)", name, nb), "", p3.cell("Δavg (average % deviation from optimum)", name, nb), "")
			}
			t3.AddRow(row...)
		}
		r.logf("%s: FI %.0f kicks/s; RKBI GPU %.0f CPU %.0f kicks/s; gap GPU %.3f CPU %.3f", name, fk, gk, ck, gg, cg)
		return nil
	})
	if err != nil {
		return err
	}
	common := []string{"Paper: " + delevacqCite + "; " + delevacqHardware + ".", r.machine(),
		fmt.Sprintf("Trials: 20 below 1000 cities, 10 above (the paper's), each of %v (a time budget: the engines take no per-solution iteration limit, so the paper's it_total is not enforced; speedup is the ratio of ILS iterations (kicks) per second, which for the same number of iterations is the paper's time ratio). freq: share of trials ending at the known optimum; Δavg: mean %% above it.", T),
		"Instances: the paper's five (kroA100, lin318, rat783, fl1577, pcb3038)."}
	t1.Notes = append(t1.Notes, common...)
	t1.Notes = append(t1.Notes, "Ours: the sequential ILS (CPU 3opt-ils, 1 core: nearest-neighbour start, 3-opt with Or-opt, first improvement, 40 candidates, double-bridge kicks, accept if shorter). The paper's GPU first-improvement strategies (FI_thread, FI_block global/shared) have no engine in this project; their printed speedups are shown for reference.")
	t3.Notes = append(t3.Notes, common...)
	t3.Notes = append(t3.Notes, "GPU: 3opt-ils (ILS-RKBI_blocks: threads sample 3-opt reconnections, blocks reduce, random-k-best replacement, double-bridge kicks) on one solution, so only the nb_sol = 1 row is measured; sequential: CPU 3opt-ils on 1 core with random-k-best pivoting. it_total/k: the paper's per-instance budgets as printed (Sect. 5.2).")
	return r.finish([]*Table{t1, t3}, []string{"delevacq-table1", "delevacq-table3"}, out)
}

func runLuong(ctx context.Context, opt Options, out io.Writer) error {
	r, err := newRepro(ctx, "luong", opt)
	if err != nil {
		return err
	}
	names := r.instances(LuongInstances, []string{"eil101"})
	T := r.budget(500*time.Millisecond, 100*time.Millisecond)
	runs := r.runs(30)
	p6 := r.papers.table("luong-table6-tsp.csv")
	p7 := r.papers.table("luong-table7-tsp-threadcontrol.csv")
	paperCell := func(t *paperTable, name, version string) string {
		for _, row := range t.where("instance", name) {
			if len(row) > 5 && strings.Contains(row[2], "M2050") && row[4] == version {
				return row[5]
			}
		}
		return PaperNA
	}
	t := &Table{Title: fmt.Sprintf("Luong et al. Tables 6-7: %d tabu search iterations over the swap neighbourhood, time (s) and acceleration over one CPU core", luongIterations),
		Header: []string{"instance", "n", "neighbours", "runs", "CPU 1 core s", "GPU s (thread control)", "acceleration", "GPU s (256 threads/block)", "acceleration",
			"threads/block chosen", "paper GPU (Table 6)", "paper GPUTex (Table 6)", "paper with thread control (Table 7)"}}
	g := r.engine("swap-climb", solver.BackendGPU)
	c := r.engine("swap-climb", solver.BackendCPU)
	mps := func(x solver.Result) float64 { return x.MovesPerSecond() }
	var xs, gy, ny, cy []float64
	err = r.each(names, nil, func(name string, in *solver.Instance) error {
		m := float64(in.N) * float64(in.N-1) / 2
		var gt, gn, cr lamRuns
		for k := 0; k < runs; k++ {
			seed := uint64(k + 1)
			if x, ok := r.solve(g, in, solver.Params{Seed: seed, TimeLimit: T, Blocks: 1}); ok {
				gt = append(gt, x)
			}
			if x, ok := r.solve(g, in, solver.Params{Seed: seed, TimeLimit: T, Blocks: 1, Threads: 256}); ok {
				gn = append(gn, x)
			}
			if x, ok := r.solve(c, in, solver.Params{Seed: seed, TimeLimit: T, Workers: 1}); ok {
				cr = append(cr, x)
			}
		}
		iterTime := func(l lamRuns) (float64, bool) {
			v, ok := l.mean(mps)
			if !ok || v <= 0 {
				return 0, false
			}
			return luongIterations * m / v, true
		}
		ts, okt := iterTime(gt)
		ns, okn := iterTime(gn)
		cs, okc := iterTime(cr)
		tpb := "n/a"
		if okt {
			tpb = fmt.Sprint(gt[0].Params.Threads)
		}
		t.AddRow(name, in.N, int64(m), runs, valCell(cs, okc, "%.3g"), valCell(ts, okt, "%.3g"), ratioCell(cs, ts, okc, okt), valCell(ns, okn, "%.3g"), ratioCell(cs, ns, okc, okn),
			tpb, paperCell(p6, name, "GPU"), paperCell(p6, name, "GPUTex"), paperCell(p7, name, "GPUTex"))
		r.logf("%s: 10,000 iterations: CPU %.3g s, GPU %.3g s (tc) %.3g s (256)", name, cs, ts, ns)
		xs = append(xs, float64(in.N))
		gy, ny, cy = append(gy, ts), append(ny, ns), append(cy, cs)
		return nil
	})
	if err != nil {
		return err
	}
	if err := SavePlot(opt.OutDir, "luong-time", fmt.Sprintf("%d swap-neighbourhood tabu iterations: time against n", luongIterations), "cities", "seconds", true, true,
		Series{Name: "GPU, thread control", X: xs, Y: gy}, Series{Name: "GPU, 256 threads/block", X: xs, Y: ny}, Series{Name: "CPU, 1 core", X: xs, Y: cy}); err != nil {
		return err
	}
	t.Notes = append(t.Notes, "Paper: "+luongCite+"; "+luongHardware+"; paper cells as printed, \"a×b\" = GPU time a s at acceleration b over one core, \".\" = a failed run.",
		r.machine(),
		fmt.Sprintf("Time of %d iterations = %d × n(n-1)/2 swap evaluations at the rate measured on one search: GPU swap-climb with one climber (the neighbourhood on the GPU, one thread per neighbour, best-improvement reduction; with thread control, or fixed at the paper's 256 threads per block), CPU swap-climb on one core; %d run(s) of %v each, mean rate. A tabu iteration also keeps a tabu list, which this project's engines have not: the time is that of the neighbourhood evaluation and selection, which is what the paper's GPU accelerates; the engines restart at local minima, where a tabu search would go on.", luongIterations, luongIterations, runs, T),
		"Instances: the paper's eight (Table 6). Plot: luong-time.png (CSV beside it).")
	return r.finish([]*Table{t}, []string{"luong"}, out)
}
