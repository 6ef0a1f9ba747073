package bench

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/tour"
)

// Lam et al.'s paper as its text gives it, and its hardware (Sect. 5.1).
const (
	lamCite     = "Y. M. Lam et al., \"Parallel neighbourhood search on many-core platforms\" (PSPM simulated annealing on an NVIDIA Tesla C2050; venue and year not printed)"
	lamHardware = "paper: NVIDIA Tesla C2050 (GPU PSPM) and 2x Intel Xeon X5650, 12 cores (CPU SSPM, PSSM)"
)

// lamValues are the Pm (CPU SSPM) and TPB (GPU PSPM) values of Table 4.
var lamValues = []int{4, 8, 12, 24, 32, 48}

// lamParts are the names --only takes for the lam suite: its tables and its engines.
var lamParts = []string{"table2", "table3", "table4", "sspm", "pssm", "pspm"}

// lamSchedule is the paper's Table 1 schedule (Ts 10000, Te 0.1, alpha 0.99, Sp 10 sweeps, Se 100 steps between exchanges); Quick cools with alpha 0.9.
func (r *repro) lamSchedule() solver.Anneal {
	a := solver.Anneal{T0: 10000, TEnd: 0.1, Alpha: 0.99, Sweeps: 10, K: 100}
	if r.opt.Quick {
		a.Alpha = 0.9
	}
	return a
}

// lamParams are the settings of a run of engine e with seed: the schedule and, where e takes them, blocks and threads (0: the engine's default).
func (s *lamSuite) lamParams(e solver.Engine, seed uint64, blocks, threads int) solver.Params {
	a := s.sched
	p := solver.Params{Seed: seed}
	if e == nil { // not available here: the run is not made
		return p
	}
	set := solver.OptionsFor(e.Name(), e.Backend())
	for _, kv := range []struct {
		name string
		v    float64
	}{{"t0", a.T0}, {"tend", a.TEnd}, {"alpha", a.Alpha}, {"sweeps", float64(a.Sweeps)}, {"k", float64(a.K)}, {"blocks", float64(blocks)}, {"threads", float64(threads)}} {
		if _, ok := set.Lookup(kv.name); ok && kv.v != 0 {
			p = p.WithExtra(kv.name, strconv.FormatFloat(kv.v, 'g', -1, 64))
		}
	}
	return p
}

func init() {
	Register("lam", "Lam et al. reproduced: Tables 2-4 on their 20 instances (rd100..d493), 10 runs, their Table 1 schedule run to its end; CPU SSPM, CPU PSSM, GPU PSPM", runLam)
}

// lamRuns holds one engine's runs on one instance.
type lamRuns []solver.Result

// mean is the mean of f over the runs; false when there are none.
func (l lamRuns) mean(f func(solver.Result) float64) (float64, bool) {
	if len(l) == 0 {
		return 0, false
	}
	s := 0.0
	for _, x := range l {
		s += f(x)
	}
	return s / float64(len(l)), true
}

// best is the shortest run.
func (l lamRuns) best() (solver.Result, bool) {
	if len(l) == 0 {
		return solver.Result{}, false
	}
	b := l[0]
	for _, x := range l[1:] {
		if x.Length < b.Length {
			b = x
		}
	}
	return b, true
}

// The three implementations the lam suite compares, as indices of lamSuite.eng.
const (
	lamSSPM = iota // CPU SSPM
	lamPSSM        // CPU PSSM
	lamPSPM        // GPU PSPM
)

// lamSuite is one run of the lam suite: the engines, the paper's tables, ours, and the sums behind the average rows.
type lamSuite struct {
	*repro
	names         []string
	runs          int
	sched         solver.Anneal
	eng           [3]solver.Engine // by lamSSPM, lamPSSM, lamPSPM
	pt2, pt3, pt4 *paperTable
	t2, t3, t4    *Table

	sum     [3][2]float64 // Table 2: SSES and SEC summed over the instances
	cnt     [3]int
	sumPol  float64    // Table 2: GPU PSPM's SEC after the CPU polish, summed
	sumTC   [3]float64 // Table 3: TC by implementation (10^-2 /s)
	cntTC   [3]int
	boundTC [3]bool    // Table 3: some instance's TC is an upper bound
	sumConv [3]float64 // Table 3: convergence SEC
	cntConv [3]int

	priorNames []string // Table 3: instances whose SSPM and GPU columns came from --prior
}

// lamMPS is SSES in 10^6 moves per second.
func lamMPS(x solver.Result) float64 { return x.MovesPerSecond() / 1e6 }

// lamSecs is a run's time in seconds.
func lamSecs(x solver.Result) float64 { return x.Elapsed.Seconds() }

// lamSEC returns SEC, the percent above in's optimum, of a run on in.
func lamSEC(in *solver.Instance) func(solver.Result) float64 {
	return func(x solver.Result) float64 { g, _ := gapOf(x.Length, in); return g }
}

func runLam(ctx context.Context, opt Options, out io.Writer) error {
	r, err := newRepro(ctx, "lam", opt)
	if err != nil {
		return err
	}
	if err := r.checkOnly(lamParts...); err != nil {
		return err
	}
	s := newLamSuite(r)
	var ins3 []lamT3In
	var stop error
	if s.wantTable("table2") || s.wantTable("table3") {
		err = r.each(s.names, nil, func(name string, in *solver.Instance) error {
			x := lamT3In{name: name, in: in}
			if s.wantTable("table2") {
				x.sspm = s.table2Row(name, in)[lamSSPM]
			}
			ins3 = append(ins3, x)
			return nil
		})
		if stop = r.stopped(err); err != nil && stop == nil {
			return err
		}
	}
	if s.wantTable("table3") && stop == nil {
		if err := s.attachPrior(ins3); err != nil {
			return err
		}
		s.table3(ins3)
		stop = r.stopped(nil)
	}
	s.averageRows()
	if s.wantTable("table4") && stop == nil {
		if err := s.table4(); err != nil {
			if stop = r.stopped(err); stop == nil {
				return err
			}
		}
	}
	s.notes()
	var tables []*Table
	for _, t := range []*Table{s.t2, s.t3, s.t4} {
		if s.wantTable(t.file[len("lam-"):]) {
			tables = append(tables, t)
		}
	}
	return r.finish(out, stop, tables...)
}

// wantTable reports whether --only lets table name run; Table 3 without Table 2 still runs CPU SSPM's Table 2 runs for its thresholds.
func (s *lamSuite) wantTable(name string) bool { return s.wants(name, isTable) }

func newLamSuite(r *repro) *lamSuite {
	s := &lamSuite{
		repro: r,
		names: r.instances(LamInstances, []string{"rd100"}),
		runs:  r.runs(10),
		sched: r.lamSchedule(),
		pt2:   r.papers.table("lam-table2.csv"),
		pt3:   r.papers.table("lam-table3.csv"),
		pt4:   r.papers.table("lam-table4.csv"),
	}
	for impl, algo := range [3]string{lamSSPM: "sspm", lamPSSM: "pssm", lamPSPM: "pspm"} {
		if s.wants(algo, isTable) {
			backend := solver.BackendCPU
			if impl == lamPSPM {
				backend = solver.BackendGPU
			}
			s.eng[impl] = r.engine(algo, backend)
		}
	}
	s.t2 = &Table{Title: "Lam et al. Table 2: SSES (10^6 moves/s) and SEC (% above optimum), full schedule, mean of the runs", file: "lam-table2",
		Header: []string{"instance", "n", "runs",
			"CPU SSPM SSES", "paper", "CPU SSPM SEC %", "paper",
			"CPU PSSM SSES", "paper", "CPU PSSM SEC %", "paper",
			"GPU PSPM SSES", "paper", "GPU PSPM SEC %", "paper", "GPU PSPM SEC % after CPU 2-opt+Or-opt",
			"GPU/SSPM SSES", "paper", "GPU/PSSM SSES", "paper"}}
	s.t3 = &Table{Title: "Lam et al. Table 3: throughput TC (10^-2 /s: 1 / mean time to beat CPU SSPM's best) and SEC % at GPU PSPM's mean time to it", file: "lam-table3",
		Header: []string{"instance", "threshold (SSPM best)", "SSPM runs, mean time",
			"TC CPU SSPM", "paper", "TC CPU PSSM", "paper", "TC GPU PSPM", "paper", "GPU speedup", "paper",
			"GPU mean time to threshold s",
			"SEC CPU SSPM %", "paper", "SEC CPU PSSM %", "paper", "SEC GPU PSPM %", "paper",
			"SEC SSPM - GPU", "paper", "SEC PSSM - GPU", "paper"}}
	s.t4 = &Table{Title: "Lam et al. Table 4: CPU SSPM against Pm and GPU PSPM against TPB, means over the instances", file: "lam-table4",
		Header: []string{"Pm / TPB", "instances", "CPU SSPM SSES", "paper", "CPU SSPM SEC %", "paper", "GPU PSPM SSES", "paper", "GPU PSPM SEC %", "paper", "GPU/SSPM SSES", "paper"}}
	return s
}

// params are implementation impl's parameters for one run: Pm = Ps = TPB = 12 as in Table 1 (Pm and TPB: --threads when set); the GPU's TB is the engine's full wave on this device.
func (s *lamSuite) params(impl int, seed uint64) solver.Params {
	if impl == lamPSSM {
		return s.lamParams(s.eng[impl], seed, 12, 0)
	}
	return s.lamParams(s.eng[impl], seed, 0, s.threads())
}

// threads is Pm (CPU SSPM) and TPB (GPU PSPM) of Tables 2 and 3: 12 (Table 1) unless --threads.
func (s *lamSuite) threads() int { return cmp.Or(s.opt.Threads, 12) }

// table2Row runs every implementation s.runs times on in over the full schedule, adds the instance's Table 2 row and returns the runs.
func (s *lamSuite) table2Row(name string, in *solver.Instance) [3]lamRuns {
	var res [3]lamRuns
	for k := 0; k < s.runs; k++ {
		seed := uint64(k + 1)
		for impl, eng := range s.eng {
			if x, ok := s.solve(eng, in, s.params(impl, seed)); ok {
				res[impl] = append(res[impl], x)
			}
		}
	}
	var ss, se [3]float64
	var have [3]bool
	// GPU PSPM's tours polished on the CPU: beside the paper's measure, not instead of it.
	var pol lamRuns
	for _, x := range res[lamPSPM] {
		y := x
		y.Length = polishLength(in, x.Tour)
		pol = append(pol, y)
	}
	sp, haveP := pol.mean(lamSEC(in))
	if haveP {
		s.sumPol += sp
	}
	for e := range res {
		ss[e], have[e] = res[e].mean(lamMPS)
		se[e], _ = res[e].mean(lamSEC(in))
		if have[e] {
			s.sum[e][0] += ss[e]
			s.sum[e][1] += se[e]
			s.cnt[e]++
		}
	}
	ratio := func(a, b int) string { return valCell(ss[a]/ss[b], have[a] && have[b] && ss[b] != 0, "%.1f") }
	pt2 := s.pt2
	s.t2.AddRow(name, in.N, s.runs,
		valCell(ss[0], have[0], "%.2f"), pt2.cell("CPU SSPM SSES (10^6 solutions/s)", name), valCell(se[0], have[0], "%.2f"), pt2.cell("CPU SSPM SEC (%)", name),
		valCell(ss[1], have[1], "%.2f"), pt2.cell("CPU PSSM SSES (10^6 solutions/s)", name), valCell(se[1], have[1], "%.2f"), pt2.cell("CPU PSSM SEC (%)", name),
		valCell(ss[2], have[2], "%.1f"), pt2.cell("GPU PSPM SSES (10^6 solutions/s)", name), valCell(se[2], have[2], "%.2f"), pt2.cell("GPU PSPM SEC (%)", name), valCell(sp, haveP, "%.2f"),
		ratio(2, 0), pt2.cell("SSES speedup of GPU over CPU SSPM", name), ratio(2, 1), pt2.cell("SSES speedup of GPU over CPU PSSM", name))
	s.logf("%s: SSES %.3g / %.3g / %.3g e6, SEC %.2f / %.2f / %.2f (GPU after polish %.2f)", name, ss[0], ss[1], ss[2], se[0], se[1], se[2], sp)
	for k, x := range res[lamPSPM] {
		g, _ := gapOf(x.Length, in)
		gp, _ := gapOf(pol[k].Length, in)
		s.logf("%s: GPU PSPM run %d: %.4g moves/s, %.2f s, SEC %.3f, polished %.3f%s", name, k+1, x.MovesPerSecond(), x.Elapsed.Seconds(), g, gp, nnFromNote(x))
	}
	return res
}

// averageRows adds the "average" rows of Tables 2 and 3.
func (s *lamSuite) averageRows() {
	avg := func(sum float64, n int, f string) string { return valCell(sum/float64(n), n > 0, f) }
	sum, cnt := s.sum, s.cnt
	mr := func(a, b int) string {
		return valCell((sum[a][0]/float64(cnt[a]))/(sum[b][0]/float64(cnt[b])), cnt[a] > 0 && cnt[b] > 0 && sum[b][0] != 0, "%.1f")
	}
	pt2 := s.pt2
	s.t2.AddRow("average", "", "", avg(sum[0][0], cnt[0], "%.2f"), pt2.cell("CPU SSPM SSES (10^6 solutions/s)", "average"), avg(sum[0][1], cnt[0], "%.2f"), pt2.cell("CPU SSPM SEC (%)", "average"),
		avg(sum[1][0], cnt[1], "%.2f"), pt2.cell("CPU PSSM SSES (10^6 solutions/s)", "average"), avg(sum[1][1], cnt[1], "%.2f"), pt2.cell("CPU PSSM SEC (%)", "average"),
		avg(sum[2][0], cnt[2], "%.1f"), pt2.cell("GPU PSPM SSES (10^6 solutions/s)", "average"), avg(sum[2][1], cnt[2], "%.2f"), pt2.cell("GPU PSPM SEC (%)", "average"), avg(s.sumPol, cnt[2], "%.2f"),
		mr(2, 0), pt2.cell("SSES speedup of GPU over CPU SSPM", "average"), mr(2, 1), pt2.cell("SSES speedup of GPU over CPU PSSM", "average"))
	s.averageRow3()
}

// runs4 is the number of runs per instance and value in Table 4: one unless --runs.
func (s *lamSuite) runs4() int { return max(s.opt.Runs, 1) }

// table4 sweeps Pm (CPU SSPM) and TPB (GPU PSPM) over the full schedule, means over the instances, and plots the sweep beside the paper's.
func (s *lamSuite) table4() error {
	pt4 := s.pt4
	var xs, cy, gy, pcy, pgy, pxs []float64
	for _, v := range lamValues {
		if s.ctx.Err() != nil {
			return s.ctx.Err()
		}
		sv, gv, ok, err := s.sweepValue(v)
		if err != nil {
			return err
		}
		key := fmt.Sprint(v)
		s.t4.AddRow(v, len(s.names), valCell(sv[0], ok[0], "%.2f"), pt4.cell("CPU SSPM SSES (10^6 solutions/s)", key), valCell(gv[0], ok[0], "%.2f"), pt4.cell("CPU SSPM SEC (%)", key),
			valCell(sv[1], ok[1], "%.1f"), pt4.cell("GPU PSPM SSES (10^6 solutions/s)", key), valCell(gv[1], ok[1], "%.2f"), pt4.cell("GPU PSPM SEC (%)", key),
			ratioCell(sv[1], sv[0], ok[1], ok[0]), pt4.cell("SSES speedup of GPU", key))
		xs = append(xs, float64(v))
		cy, gy = append(cy, sv[0]), append(gy, sv[1])
		if a, okA := paperFloat(pt4.cell("CPU SSPM SSES (10^6 solutions/s)", key)); okA {
			if b, okB := paperFloat(pt4.cell("GPU PSPM SSES (10^6 solutions/s)", key)); okB {
				pxs, pcy, pgy = append(pxs, float64(v)), append(pcy, a), append(pgy, b)
			}
		}
	}
	return SavePlot(s.opt.OutDir, "lam-fig4", "Lam et al. Fig. 4: SSES against Pm (CPU SSPM) and TPB (GPU PSPM)", "Pm / TPB", "SSES (10^6 moves/s)", false, true,
		Series{Name: "GPU PSPM (ours)", X: xs, Y: gy}, Series{Name: "CPU SSPM (ours)", X: xs, Y: cy},
		Series{Name: "GPU PSPM (paper, Tesla C2050)", X: pxs, Y: pgy}, Series{Name: "CPU SSPM (paper, 2x Xeon X5650)", X: pxs, Y: pcy})
}

// sweepValue runs CPU SSPM with Pm = v and GPU PSPM with TPB = v on every instance and returns their mean SSES and SEC (index 0: SSPM, 1: PSPM).
func (s *lamSuite) sweepValue(v int) (sv, gv [2]float64, ok [2]bool, err error) {
	var acc [2]lamRuns
	var gapSum [2]float64
	err = s.each(s.names, nil, func(name string, in *solver.Instance) error {
		for k := 0; k < s.runs4(); k++ {
			for e, eng := range []solver.Engine{s.eng[lamSSPM], s.eng[lamPSPM]} {
				p := s.lamParams(eng, uint64(k+1), 0, v)
				if x, ok := s.solve(eng, in, p); ok {
					acc[e] = append(acc[e], x)
					g, _ := gapOf(x.Length, in)
					gapSum[e] += g
				}
			}
		}
		return nil
	})
	if err != nil {
		return sv, gv, ok, err
	}
	for e := range acc {
		sv[e], ok[e] = acc[e].mean(lamMPS)
		if ok[e] {
			gv[e] = gapSum[e] / float64(len(acc[e]))
		}
	}
	return sv, gv, ok, nil
}

// notes adds the three tables' notes: the paper, the machines, the schedule, the instances and each table's protocol.
func (s *lamSuite) notes() {
	sched := s.sched
	schedNote := fmt.Sprintf("Schedule (Table 1): T0 %g, Tend %g, alpha %g, Sp %d sweeps, Se %d steps between best-solution exchanges, Ps = 12, Pm = TPB = %d%s; every run of Tables 2 and 4 goes to the end of its schedule (no time limit). GPU PSPM's TB: the engine's full wave on this device (the paper's 98 filled 14 SMs).",
		sched.T0, sched.TEnd, sched.Alpha, sched.Sweeps, sched.K, s.threads(), map[bool]string{true: " (--threads; Table 1 adopts 12)", false: ""}[s.opt.Threads > 0])
	if len(s.opt.Only) > 0 {
		schedNote += fmt.Sprintf(" Run with --only %s: the other engines' columns read n/a.", strings.Join(s.opt.Only, ","))
	}
	if s.opt.Quick {
		schedNote += " Quick: alpha 0.9 instead of 0.99 (about 10x fewer temperature steps) and one run."
	}
	if len(s.opt.Extra) > 0 {
		var kv []string
		for _, k := range slices.Sorted(maps.Keys(s.opt.Extra)) {
			kv = append(kv, k+"="+s.opt.Extra[k])
		}
		schedNote += " Engine options (--opt, given to the engines that have them): " + strings.Join(kv, ", ") + "."
	}
	restricted := ""
	if len(s.names) != len(LamInstances) {
		restricted = " restricted by --instances or --quick"
	}
	drawNote := "GPU PSPM's move draw (--opt draw): "
	switch s.opt.Extra["draw"] {
	case "uniform":
		drawNote += "uniform, as Lam et al.: c and its new neighbour p uniform over the cities."
	case "nn":
		drawNote += "nn: c uniform, its new place beside one of its nnk nearest cities (default 16 from 100 to 499 cities, else 8), after or before it, from the start or below --opt nnfrom."
	case "mixed":
		drawNote += "mixed: nn on half of a search's threads, uniform on the other half, from the start or below --opt nnfrom."
	default:
		drawNote += "auto (the engine's default): uniform as Lam et al. while T is above nnfrom (default: 3 × the mean distance from a city to its nnk-th nearest; nnk 16 on these sizes), then mixed: on half of a search's threads c uniform and its new place beside one of its nnk nearest cities (after or before it), on the other half Lam et al.'s uniform move; --opt draw=uniform gives the paper's draw throughout. The CPU engines draw uniformly."
	}
	for _, t := range []*Table{s.t2, s.t3, s.t4} {
		t.Notes = append(t.Notes, "Paper: "+lamCite+"; "+lamHardware+".", s.machine(), schedNote, drawNote,
			fmt.Sprintf("Instances: Lam et al.'s 20 (Table 2's list, rd100 .. d493)%s; %d run(s) each.", restricted, s.runs),
			"SSES = relocation moves evaluated per second (Eq. 4: every thread's move of every search and iteration), in 10^6/s; SEC = % above the TSPLIB optimum (Eq. 5).")
	}
	s.t2.Notes = append(s.t2.Notes, "GPU PSPM SEC after CPU 2-opt+Or-opt: each run's tour improved by exact 2-opt and Or-opt (1-3 cities) over 10 nearest neighbours until neither improves; not part of the paper's protocol, so the SEC column beside the paper's is the annealer's own.")
	s.t3.Notes = append(s.t3.Notes, s.table3Notes()...)
	s.t4.Notes = append(s.t4.Notes, fmt.Sprintf("%d run(s) per instance and value (the paper does not say how many); the CPU's Pm and the GPU's TPB are both the threads option.", s.runs4()),
		"Plot: lam-fig4.png (CSV beside it), ours beside the paper's Table 4 (which its Fig. 4 draws).")
}

// nnFromNote is ", nn below T = ..." when a GPU PSPM run reports the temperature below which its draw takes near moves, else "".
func nnFromNote(x solver.Result) string {
	v := x.Params.Extra["nnfrom"] // given
	if x.Settings.NNFrom > 0 {    // chosen by the engine
		v = strconv.FormatFloat(x.Settings.NNFrom, 'g', -1, 64)
	}
	if v != "" && x.Params.Extra["draw"] != "uniform" {
		return ", nn below T = " + v
	}
	return ""
}

// polishLength returns the exact length of t after 2-opt and Or-opt over the 10 nearest neighbours until neither improves, for a column beside a method's own result; t is not changed.
func polishLength(in *solver.Instance, t []int) int64 {
	nb := neighbor.Nearest(in, 10)
	a := tour.NewArray(append([]int(nil), t...))
	for round := 0; round < 100; round++ {
		d2, _ := tour.TwoOpt(in, a, nb)
		dor, _ := tour.OrOpt(in, a, nb)
		if d2+dor == 0 {
			break
		}
	}
	return solver.TourLength(in, a.Tour)
}
