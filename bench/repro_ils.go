package bench

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/tsplab/tsplab/solver"
)

const delevacqCite = `A. Delévacq, P. Delisle and M. Krajecki, "Parallel GPU implementation of iterated local search for the travelling salesman problem", Learning and Intelligent Optimization (LION 6), LNCS 7219, pp. 372-377, Springer, 2012`

const luongCite = `T. V. Luong, N. Melab and E.-G. Talbi, "GPU computing for parallel local search metaheuristic algorithms", IEEE Transactions on Computers 62(1):173-185, 2013`

// DelevacqInstances span the paper's range, 100 to 3038 cities (its exact
// list was not at hand).
var DelevacqInstances = []string{"kroA100", "ch130", "kroA200", "a280", "lin318", "pcb442", "d657", "rat783", "pr1002", "pr2392", "pcb3038"}

// LuongInstances are the luong suite's instances (the paper's TSP list was
// not at hand).
var LuongInstances = []string{"eil101", "kroA200", "a280", "pcb442", "rat783", "pr1002", "pr2392", "pcb3038", "fnl4461"}

func init() {
	Register("delevacq", "Delévacq et al. reproduced: GPU 3opt-ils (ILS-RKBI_blocks) against the sequential CPU ILS and all cores, speedup and quality, 100..3038 cities", runDelevacq)
	Register("luong", "Luong et al. reproduced: GPU swap-climb (neighbourhood on the GPU, thread control) against one CPU core and all cores, speedup and quality", runLuong)
}

// trio is one instance's runs of a GPU engine and its CPU counterpart on
// one core and on all cores.
type trio struct {
	res [3][]solver.Result // GPU, CPU 1 core, CPU all cores
}

func (tr *trio) mean(e int, f func(solver.Result) float64) (float64, bool) {
	if len(tr.res[e]) == 0 {
		return 0, false
	}
	s := 0.0
	for _, x := range tr.res[e] {
		s += f(x)
	}
	return s / float64(len(tr.res[e])), true
}

// runTrio runs algo on the GPU, on one CPU core and on all cores.
func (r *repro) runTrio(in *solver.Instance, algo string, runs int, T time.Duration, cpuExtra map[string]string) *trio {
	g := r.engine(algo, solver.BackendGPU)
	c := r.engine(algo, solver.BackendCPU)
	tr := &trio{}
	for k := 0; k < runs; k++ {
		seed := uint64(k + 1)
		if x, ok := r.solve(g, in, solver.Params{Seed: seed, TimeLimit: T}); ok {
			tr.res[0] = append(tr.res[0], x)
		}
		if x, ok := r.solve(c, in, solver.Params{Seed: seed, TimeLimit: T, Workers: 1, Extra: cpuExtra}); ok {
			tr.res[1] = append(tr.res[1], x)
		}
		if x, ok := r.solve(c, in, solver.Params{Seed: seed, TimeLimit: T, Workers: r.opt.Workers}); ok {
			tr.res[2] = append(tr.res[2], x)
		}
	}
	return tr
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

func runDelevacq(ctx context.Context, opt Options, out io.Writer) error {
	r, err := newRepro(ctx, "delevacq", opt)
	if err != nil {
		return err
	}
	names := r.instances(DelevacqInstances, []string{"kroA100"})
	T := r.budget(1500*time.Millisecond, 200*time.Millisecond)
	runs := r.runs(1)
	sp := &Table{Title: "Delévacq et al.: speedup of the GPU ILS (ILS-RKBI_blocks) over the sequential ILS, equal time",
		Header: []string{"instance", "n", "GPU kicks/s", "CPU 1-core kicks/s", "CPU all-core kicks/s", "speedup (kicks/s) vs 1 core", "vs all cores",
			"GPU moves/s", "CPU 1-core moves/s", "paper speedup"}}
	q := &Table{Title: "Delévacq et al.: solution quality at equal time (% above optimum)",
		Header: []string{"instance", "n", "GPU 3opt-ils gap %", "CPU 1-core gap %", "CPU all-core gap %", "runs", "paper GPU gap %", "paper sequential gap %"}}
	kicks := perSec(func(x solver.Result) int64 { return x.Steps })
	moves := func(x solver.Result) float64 { return x.MovesPerSecond() }
	for _, name := range names {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		in, err := r.load(name)
		if err != nil {
			return err
		}
		tr := r.runTrio(in, "3opt-ils", runs, T, map[string]string{"pivot": "rkbi"})
		gk, okg := tr.mean(0, kicks)
		ck, okc := tr.mean(1, kicks)
		ak, oka := tr.mean(2, kicks)
		gm, _ := tr.mean(0, moves)
		cm, _ := tr.mean(1, moves)
		sp.AddRow(name, in.N, valCell(gk, okg, "%.0f"), valCell(ck, okc, "%.0f"), valCell(ak, oka, "%.0f"), ratioCell(gk, ck, okg, okc), ratioCell(gk, ak, okg, oka),
			valCell(gm, okg, "%.3g"), valCell(cm, okc, "%.3g"), NotFound)
		gap := func(x solver.Result) float64 { g, _ := gapOf(x.Length, in); return g }
		gg, _ := tr.mean(0, gap)
		cg, _ := tr.mean(1, gap)
		ag, _ := tr.mean(2, gap)
		q.AddRow(name, in.N, valCell(gg, okg, "%.2f"), valCell(cg, okc, "%.2f"), valCell(ag, oka, "%.2f"), runs, NotFound, NotFound)
		r.logf("%s: kicks/s GPU %.0f CPU1 %.0f CPU %.0f; gap %.2f / %.2f / %.2f", name, gk, ck, ak, gg, cg, ag)
	}
	sp.AddRow("best", "", "", "", "", "", "", "", "", "up to 6.02 (Fermi GPU)")
	for _, t := range []*Table{sp, q} {
		t.Notes = append(t.Notes, "Paper: "+delevacqCite+"; its figures (abstract): speedups of up to 6.02 with solution quality similar to the sequential implementation, on instances of 100 to 3038 cities, on a Fermi GPU; per-instance figures "+NotFound+".",
			r.machine(),
			fmt.Sprintf("Each engine runs %v per instance, %d run(s) (scaled: the paper averaged more runs; the instance list is not scaled). GPU: 3opt-ils on the GPU (sampled 3-opt reconnections, block reduction, random-3-best replacement, double-bridge kicks); sequential: the CPU 3opt-ils on 1 worker with random-k-best pivoting; all cores: the CPU 3opt-ils on every core.", T, runs),
			"Speedup here is the ratio of ILS iterations (kicks) per second at equal time; the paper compared running times of the same search. Instances: the project's choice over the paper's range.")
	}
	return r.finish([]*Table{sp, q}, []string{"delevacq-speedup", "delevacq-quality"}, out)
}

func runLuong(ctx context.Context, opt Options, out io.Writer) error {
	r, err := newRepro(ctx, "luong", opt)
	if err != nil {
		return err
	}
	names := r.instances(LuongInstances, []string{"eil101"})
	T := r.budget(1500*time.Millisecond, 200*time.Millisecond)
	runs := r.runs(1)
	sp := &Table{Title: "Luong et al.: swap neighbourhood generated on the GPU, moves evaluated per second and speedup",
		Header: []string{"instance", "n", "neighbours n(n-1)/2", "GPU moves/s", "threads/block (thread control)", "climbers", "CPU 1-core moves/s", "CPU all-core moves/s",
			"speedup vs 1 core", "vs all cores", "paper speedup"}}
	q := &Table{Title: "Luong et al.: quality of random-restart swap hill climbing at equal time (% above optimum)",
		Header: []string{"instance", "n", "GPU gap %", "GPU climbs", "CPU 1-core gap %", "CPU 1-core climbs", "CPU all-core gap %", "CPU all-core climbs", "paper gap %"}}
	moves := func(x solver.Result) float64 { return x.MovesPerSecond() }
	var xs, gy, cy, ay []float64
	for _, name := range names {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		in, err := r.load(name)
		if err != nil {
			return err
		}
		tr := r.runTrio(in, "swap-climb", runs, T, nil)
		gm, okg := tr.mean(0, moves)
		cm, okc := tr.mean(1, moves)
		am, oka := tr.mean(2, moves)
		tpb, cl := "n/a", "n/a"
		if okg {
			tpb, cl = fmt.Sprint(tr.res[0][0].Params.Threads), fmt.Sprint(tr.res[0][0].Params.Blocks)
		}
		sp.AddRow(name, in.N, int64(in.N)*int64(in.N-1)/2, valCell(gm, okg, "%.3g"), tpb, cl, valCell(cm, okc, "%.3g"), valCell(am, oka, "%.3g"),
			ratioCell(gm, cm, okg, okc), ratioCell(gm, am, okg, oka), NotFound)
		gap := func(x solver.Result) float64 { g, _ := gapOf(x.Length, in); return g }
		steps := func(x solver.Result) float64 { return float64(x.Steps) }
		gg, _ := tr.mean(0, gap)
		cg, _ := tr.mean(1, gap)
		ag, _ := tr.mean(2, gap)
		gs, _ := tr.mean(0, steps)
		cs, _ := tr.mean(1, steps)
		as, _ := tr.mean(2, steps)
		q.AddRow(name, in.N, valCell(gg, okg, "%.2f"), valCell(gs, okg, "%.0f"), valCell(cg, okc, "%.2f"), valCell(cs, okc, "%.0f"), valCell(ag, oka, "%.2f"), valCell(as, oka, "%.0f"), NotFound)
		r.logf("%s: moves/s GPU %.3g CPU1 %.3g CPU %.3g", name, gm, cm, am)
		xs = append(xs, float64(in.N))
		gy, cy, ay = append(gy, gm), append(cy, cm), append(ay, am)
	}
	if err := SavePlot(opt.OutDir, "luong-moves", "Swap neighbourhood: moves evaluated per second against n", "cities", "moves/s", true, true,
		Series{Name: "GPU swap-climb", X: xs, Y: gy}, Series{Name: "CPU, 1 core", X: xs, Y: cy}, Series{Name: "CPU, all cores", X: xs, Y: ay}); err != nil {
		return err
	}
	for _, t := range []*Table{sp, q} {
		t.Notes = append(t.Notes, "Paper: "+luongCite+"; its TSP speedup and quality figures "+NotFound+".",
			r.machine(),
			fmt.Sprintf("Each engine runs %v per instance, %d run(s) (scaled; the instance list is not). GPU: swap-climb, one thread per neighbour with the one-to-two index mapping, best-improvement reduction, a batch of climbers per launch; threads per block chosen by the thread control (waves of block sizes 32..1024 timed with CUDA events, a failed launch falling back to the last good size). Distances computed from the coordinates in float (the engine's default; the exact integer matrix, as in the paper, is the option dist=matrix (solver.Params.Extra) and measured half as fast); lengths are recomputed exactly on the CPU.", T, runs),
			"CPU: the CPU swap-climb (random-restart best-improvement over the whole swap neighbourhood) on 1 worker and on all cores. Instances: the project's choice (the paper's TSP list was not at hand).")
	}
	return r.finish([]*Table{sp, q}, []string{"luong-speedup", "luong-quality"}, out)
}
