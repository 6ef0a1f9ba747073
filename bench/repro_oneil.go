package bench

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// oneilCite names O'Neil and Burtscher's paper as its text gives it.
const oneilCite = `M. A. O'Neil and M. Burtscher, "Rethinking the Parallelization of Random-Restart Hill Climbing: A Case Study in Optimizing a 2-Opt TSP Solver for GPU Execution", GPGPU-8, 2015`

// oneilSizes are the prefixes of d18512 whose throughput the oneil suite measures, as the paper's Fig. 6.
var oneilSizes = []int{100, 200, 500, 1000, 2000, 4000, 8000, 18512}

// tspgpuRef is one measurement of O'Neil and Burtscher's own TSP_GPU 2.3 (-O3 -use_fast_math, sm_90) on the project's H100, measured for the project, not the paper's.
type tspgpuRef struct {
	inst     string // TSPLIB instance
	prefix   int    // first cities taken (0: all)
	climbs   int64  // restarts completed
	seconds  float64
	best     []int64 // best tour of each run reported
	restarts string
}

var tspgpuRefs = []tspgpuRef{
	{"d493", 0, 5000, 0.42, []int64{36235}, "5,000 restarts"},
	{"d493", 0, 10000, 0.84, []int64{36075, 36224}, "10,000 restarts"},
	{"d18512", 1000, 4224, 3.06, []int64{33833}, "4,224 climbs"},
	{"d18512", 2000, 2112, 12.65, []int64{60186}, "2,112 climbs"},
	{"d18512", 4000, 1056, 53.8, []int64{119427}, "1,056 climbs"},
}

// tspgpuLabel labels the reference column.
const tspgpuLabel = "TSP_GPU 2.3 on the H100, as measured for the issue"

func init() {
	Register("oneil", "O'Neil & Burtscher reproduced: kernel throughput on the first n cities of d18512 (>= 1 s, best of 3), climbs/s and best tour at equal time beside TSP_GPU 2.3, quality on the 63 smallest TSPLIB instances", runOneil)
}

// prefixInstance is the instance made of in's first n cities.
func prefixInstance(in *solver.Instance, n int) *solver.Instance {
	if n >= in.N {
		return in
	}
	return solver.NewCoordInstance(fmt.Sprintf("%s[:%d]", in.Name, n), in.Metric, in.X[:n], in.Y[:n], nil)
}

// kernelRate is the 2-opt evaluation kernel's best rate over tries timed series of launches (0 without a GPU); with minKernel > 0 the series are sized to run at least minKernel of kernel time each.
func (r *repro) kernelRate(n, tries int, minKernel time.Duration) float64 {
	g := r.opt.GPU
	if g == nil {
		return 0
	}
	passes := 0
	if minKernel > 0 {
		kr, err := g.EvalRate(n, 0, 99)
		if err != nil {
			r.logf("kernel rate n=%d: %v", n, err)
			return 0
		}
		B, err := g.EvalBatch(n)
		if err != nil {
			r.logf("kernel batch n=%d: %v", n, err)
			return 0
		}
		r.device = kr.Device
		perLaunch := float64(B) * float64(n) * float64(n-3) / 2
		passes = max(3, int(math.Ceil(1.1*minKernel.Seconds()*kr.MovesPerSec/perLaunch)))
	}
	best := 0.0
	for k := 0; k < tries; k++ {
		kr, err := g.EvalRate(n, passes, uint64(k+1))
		if err != nil {
			r.logf("kernel rate n=%d: %v", n, err)
			break
		}
		r.device = kr.Device
		best = max(best, kr.MovesPerSec)
	}
	return best
}

// oneilSuite is one run of the oneil suite: the instance the throughput sizes are prefixes of, and the engines.
type oneilSuite struct {
	*repro
	src    string
	base   *solver.Instance
	gc, cc solver.Engine // 2opt-climb on the GPU and on the CPU
	ph     *paperTable   // the paper's headline figures
}

// climbsPerSec is a 2opt-climb run's completed climbs per second.
func climbsPerSec(x solver.Result) float64 {
	return float64(x.Steps) / max(x.Elapsed.Seconds(), 1e-9)
}

func runOneil(ctx context.Context, opt Options, out io.Writer) error {
	r, err := newRepro(ctx, "oneil", opt)
	if err != nil {
		return err
	}
	s := &oneilSuite{repro: r, src: "d18512"}
	if len(opt.Instances) > 0 {
		s.src = opt.Instances[0]
	}
	if s.base, err = r.load(s.src); err != nil {
		return err
	}
	if err := r.checkOnly(oneilParts...); err != nil {
		return err
	}
	s.ph = r.papers.table("oneil-headline.csv")
	if s.wants("gpu", isEngine) {
		s.gc = r.engine("2opt-climb", solver.BackendGPU)
	}
	if s.wants("cpu", isEngine) {
		s.cc = r.engine("2opt-climb", solver.BackendCPU)
	}
	if r.opt.GPU == nil && s.gc == nil {
		r.device = "GPU unavailable: this binary was built without CUDA (make gpu)"
	}
	var tables []*Table
	for _, part := range []struct {
		name  string
		table func() (*Table, error)
	}{{"fig6", s.throughput}, {"tspgpu", s.tspgpu}, {"fig7", s.quality}} {
		if !s.wants(part.name, isEngine) {
			continue
		}
		t, err := part.table()
		if err != nil {
			return err
		}
		if len(opt.Only) > 0 {
			t.Notes = append(t.Notes, "Run with --only "+strings.Join(opt.Only, ",")+": the engines left out read n/a.")
		}
		tables = append(tables, t)
	}
	return r.finish(out, nil, tables...)
}

// oneilParts are the names --only takes for the oneil suite: its tables (fig6: throughput, tspgpu: beside TSP_GPU, fig7: quality) and its engines.
var oneilParts = []string{"fig6", "tspgpu", "fig7", "gpu", "cpu"}

// isEngine is the kind of the oneil suite's --only parts that name engines.
func isEngine(part string) bool { return part == "gpu" || part == "cpu" }

// randomStarts sets 2opt-climb's option start=random: every climb from a uniformly random tour, as O'Neil and Burtscher's climbers.
func randomStarts(p solver.Params) solver.Params {
	x := map[string]string{"start": "random"}
	maps.Copy(x, p.Extra)
	p.Extra = x
	return p
}

// throughput is Figs. 6 and 8: the kernel's and the engines' moves per second on the first n cities of the source instance.
func (s *oneilSuite) throughput() (*Table, error) {
	opt := s.opt
	sizes := oneilSizes
	minKernel, tries := time.Second, 3
	T := s.budget(2*time.Second, 200*time.Millisecond)
	kernelCol := "GPU kernel moves/s (best of 3)"
	warm, window := 300*time.Millisecond, minKernel
	if opt.Quick {
		sizes, minKernel, tries = []int{200, 500}, 0, 1
		kernelCol = "GPU kernel moves/s (quick: one series)"
		warm, window = 50*time.Millisecond, 100*time.Millisecond
	}
	t := &Table{Title: "O'Neil & Burtscher Figs. 6/8: 2-opt moves evaluated per second on the first n cities of " + s.src, file: "oneil",
		Header: []string{"cities", kernelCol, "climber kernel moves/s", "climber kernel climbs/s", "climber passes per climb", "GPU 2opt-climb moves/s", "GPU climbs/s", "CPU 2opt-climb moves/s", "CPU climbs/s", "GPU kernel / CPU", "paper (K40 tuned)", "paper (GPU / 20 CPU cores)"}}
	var xs, ky, gy, cy, fx, fy []float64
	for i, n := range sizes {
		if s.ctx.Err() != nil {
			return nil, s.ctx.Err()
		}
		in := prefixInstance(s.base, n)
		n = in.N
		kr := 0.0
		if s.gc != nil {
			kr = s.kernelRate(n, tries, minKernel)
		}
		fm, fc, fp := "n/a", "n/a", "n/a"
		if s.gc != nil && s.opt.GPU != nil {
			var bm float64
			if fm, fc, fp, bm = s.climberRate(in, tries, warm, window); bm > 0 {
				fx, fy = append(fx, float64(n)), append(fy, bm)
			}
		}
		g, okg := s.solve(s.gc, in, randomStarts(solver.Params{Seed: 1, TimeLimit: T}))
		c, okc := s.solve(s.cc, in, randomStarts(solver.Params{Seed: 1, TimeLimit: T}))
		gm, gs, cm, cs := g.MovesPerSecond(), climbsPerSec(g), c.MovesPerSecond(), climbsPerSec(c)
		p1, p2 := "not printed (figure only)", "not printed (figure only)"
		if i == len(sizes)-1 {
			p1, p2 = s.ph.cell("value as printed", "Peak throughput"), s.ph.cell("value as printed", "GPU vs two Xeon E5-2680 v2 (20 cores)")
		}
		t.AddRow(in.Name, valCell(kr, kr != 0, "%.3g"), fm, fc, fp, valCell(gm, okg, "%.3g"), valCell(gs, okg, "%.1f"), valCell(cm, okc, "%.3g"), valCell(cs, okc, "%.1f"),
			ratioCell(kr, cm, kr > 0, okc), p1, p2)
		s.logf("n=%d: kernel %.3g, GPU climb %.3g, CPU climb %.3g moves/s", n, kr, gm, cm)
		xs = append(xs, float64(n))
		ky, gy, cy = append(ky, kr), append(gy, gm), append(cy, cm)
	}
	if err := SavePlot(opt.OutDir, "oneil-fig6", "O'Neil & Burtscher Figs. 6/8: 2-opt moves/s against n (first n cities of "+s.src+")", "cities", "moves evaluated per second", true, true,
		Series{Name: "GPU kernel only " + strings.TrimPrefix(kernelCol, "GPU kernel moves/s "), X: xs, Y: ky}, Series{Name: "GPU climber kernel only", X: fx, Y: fy},
		Series{Name: "GPU 2opt-climb", X: xs, Y: gy}, Series{Name: "CPU 2opt-climb", X: xs, Y: cy}); err != nil {
		return nil, err
	}
	s.throughputNotes(t, T, tries, warm, window)
	return t, nil
}

// throughputNotes adds throughput's notes to t: the paper, the machine and how kernels and engines were timed.
func (s *oneilSuite) throughputNotes(t *Table, T time.Duration, tries int, warm, window time.Duration) {
	kernelNote := "Kernel only: the 2-opt evaluation kernel timed with CUDA events over random tours of the same n, launches sized to give at least 1 s of kernel time, best of 3 (the paper's protocol)."
	if s.opt.Quick {
		kernelNote = "Kernel only (quick): one short series of launches (about 20 ms), not the paper's >= 1 s best of 3."
	}
	climberNote := fmt.Sprintf("Climber kernel: the fused 2opt-climb kernel alone (every resident climber slot climbing from random tours, restarting on the device), timed with CUDA events over one launch of %v after a %v warm-up, best of %d; moves = n(n-3)/2 per pass of a running climber; passes per climb = whole-neighbourhood evaluations per completed climb. It needs the tour in one block's shared memory (up to about 14,000 cities on an H100).", window, warm, tries)
	t.Notes = append(t.Notes, "Paper: "+oneilCite+"; paper hardware: NVIDIA K40 (15 SMs), CPU 2x Xeon E5-2680 v2 (20 cores). The paper prints no per-n values (Figs. 6-8 only): the last row carries its headline figures.",
		s.machine(), kernelNote, climberNote,
		fmt.Sprintf("Engines: 2opt-climb for %v per size, seed 1, whole run timed (set-up included), every climb from a uniformly random tour as the paper's (GPU option start=random). The GPU move counter counts n(n-3)/2 moves per whole-neighbourhood pass of a running climber (fused kernel; above its size limit the batch engine counts every climber slot of every pass); climbs/s counts climbs that reached a 2-opt minimum.", T),
		"Plot: oneil-fig6.png (CSV beside it).")
}

// climberRate measures the fused climber kernel alone on in, best of tries windows after a warm-up: its moves/s, climbs/s and passes per climb as cells, and the best moves/s.
func (s *oneilSuite) climberRate(in *solver.Instance, tries int, warm, window time.Duration) (fm, fc, fp string, bm float64) {
	fm, fc, fp = "n/a", "n/a", "n/a"
	bc, bp := 0.0, 0.0
	for k := 0; k < tries; k++ {
		kr, err := s.opt.GPU.ClimbRate(in, warm, window, uint64(k+1))
		if err != nil {
			s.logf("climber kernel n=%d: %v", in.N, err)
			fm = "n/a (the tour exceeds a block's shared memory)"
			break
		}
		s.device = kr.Device
		if kr.MovesPerSec > bm {
			bm, bc, bp = kr.MovesPerSec, kr.ClimbsPerSec, kr.PassesPerClimb
		}
	}
	if bm > 0 {
		fm, fc, fp = fmt.Sprintf("%.3g", bm), fmt.Sprintf("%.1f", bc), fmt.Sprintf("%.0f", bp)
	}
	return fm, fc, fp, bm
}

const (
	tspgpuLongRow   = 10 * time.Second        // rows longer than this run one seed unless --runs (the 2000- and 4000-city prefixes)
	tspgpuRandomMax = time.Second             // the longest row that also runs from uniformly random tours, TSP_GPU's own starts
	tspgpuCPUMax    = 3060 * time.Millisecond // the CPU climber finishes no climb of 1000 cities in 3 s on 16 cores
)

// tspgpuSeeds is the GPU column group of one comparison row: runs of seeds 1..k at the row's time limit.
type tspgpuSeeds struct {
	climbs, cps, ratio, passes, moves, best, trunc, verdict string
}

// naSeeds are the GPU columns of a row whose runs did not run.
var naSeeds = tspgpuSeeds{"n/a", "n/a", "n/a", "n/a", "n/a", "n/a", "n/a", "n/a"}

// runSeeds runs the GPU engine with p's options on in for seeds 1..runs and summarises the runs against TSP_GPU's figures ref.
func (s *oneilSuite) runSeeds(in *solver.Instance, p solver.Params, runs int, ref tspgpuRef) tspgpuSeeds {
	out := naSeeds
	var g lamRuns
	for k := 0; k < runs; k++ {
		p.Seed = uint64(k + 1)
		if x, ok := s.solve(s.gc, in, p); ok {
			g = append(g, x)
		}
	}
	if len(g) == 0 {
		return out
	}
	refBest := slices.Min(ref.best)
	cl, _ := g.mean(func(x solver.Result) float64 { return float64(x.Steps) })
	cps, _ := g.mean(climbsPerSec)
	mps, _ := g.mean(func(x solver.Result) float64 { return x.MovesPerSecond() })
	pas, _ := g.mean(func(x solver.Result) float64 {
		return float64(x.Moves) / (float64(in.N) * float64(in.N-3) / 2) / max(float64(x.Steps), 1)
	})
	out.climbs, out.cps, out.ratio = fmt.Sprintf("%.0f", cl), fmt.Sprintf("%.0f", cps), fmt.Sprintf("%.2f", cps/(float64(ref.climbs)/ref.seconds))
	out.passes, out.moves = fmt.Sprintf("%.0f", pas), fmt.Sprintf("%.3g", mps)
	var ls, ts []string
	worse := 0
	for _, x := range g {
		ls = append(ls, strconv.FormatInt(x.Length, 10))
		tl := truncatedLength(in, x.Tour)
		ts = append(ts, strconv.FormatInt(tl, 10))
		if tl > refBest {
			worse++
		}
	}
	out.best, out.trunc = strings.Join(ls, " / "), strings.Join(ts, " / ")
	out.verdict = "yes"
	if worse > 0 {
		out.verdict = fmt.Sprintf("no (%d of %d seeds worse)", worse, len(g))
	}
	return out
}

// tspgpu compares 2opt-climb with TSP_GPU 2.3 at equal time: climbs per second and the best tour, from the engine's default starts and, on the short rows, from random tours.
func (s *oneilSuite) tspgpu() (*Table, error) {
	opt := s.opt
	refs := tspgpuRefs
	if opt.Quick {
		refs = []tspgpuRef{tspgpuRefs[0], tspgpuRefs[2]}
	}
	c := &Table{Title: "2opt-climb beside O'Neil & Burtscher's TSP_GPU 2.3: climbs per second and best tour at equal time", file: "oneil-tspgpu",
		Header: []string{"instance", "time s", "TSP_GPU climbs", "TSP_GPU climbs/s", "TSP_GPU best", "GPU climbs", "GPU climbs/s", "climbs/s ratio",
			"GPU passes per climb", "GPU moves/s", "GPU best per seed (TSPLIB)", "GPU best per seed (TSP_GPU's measure)", "GPU best <= TSP_GPU best (same measure)",
			"GPU random starts: climbs/s", "GPU random starts: best per seed (TSP_GPU's measure)", "GPU random starts: best <= TSP_GPU best",
			"CPU (all cores) climbs/s", "CPU best (TSPLIB)"}}
	for _, ref := range refs {
		if s.ctx.Err() != nil {
			return nil, s.ctx.Err()
		}
		in, err := s.load(ref.inst)
		if err != nil {
			s.logf("%v", err)
			continue
		}
		if ref.prefix > 0 {
			in = prefixInstance(in, ref.prefix)
		}
		lim := time.Duration(ref.seconds * float64(time.Second))
		if opt.Quick && opt.Time > 0 && opt.Time < lim {
			lim = opt.Time // a smoke test: not at equal time
		}
		runs := s.runs(3)
		if opt.Runs == 0 && lim > tspgpuLongRow {
			runs = 1
		}
		var bests []string
		for _, b := range ref.best {
			bests = append(bests, strconv.FormatInt(b, 10))
		}
		g := naSeeds
		rnd := tspgpuSeeds{cps: "not run (rows over 1 s)", trunc: "not run", verdict: "not run"}
		if s.gc != nil {
			g = s.runSeeds(in, solver.Params{TimeLimit: lim}, runs, ref)
			if lim <= tspgpuRandomMax {
				rnd = s.runSeeds(in, randomStarts(solver.Params{TimeLimit: lim}), runs, ref)
			}
		}
		cCPS, cBest := "n/a", "n/a"
		if x, ok := s.solve(s.cc, in, randomStarts(solver.Params{Seed: 1, TimeLimit: min(lim, tspgpuCPUMax)})); ok {
			cCPS, cBest = fmt.Sprintf("%.0f", climbsPerSec(x)), strconv.FormatInt(x.Length, 10)
			if lim > tspgpuCPUMax {
				cBest += fmt.Sprintf(" (%.2f s)", tspgpuCPUMax.Seconds())
			}
		}
		c.AddRow(in.Name, fmt.Sprintf("%.2f", lim.Seconds()), fmt.Sprintf("%d (%s)", ref.climbs, ref.restarts), fmt.Sprintf("%.0f", float64(ref.climbs)/ref.seconds), strings.Join(bests, " / "),
			g.climbs, g.cps, g.ratio, g.passes, g.moves, g.best, g.trunc, g.verdict, rnd.cps, rnd.trunc, rnd.verdict, cCPS, cBest)
		s.logf("%s: TSP_GPU %.0f climbs/s best %s; ours %s climbs/s best %s (TSP_GPU's measure %s); random starts %s climbs/s best %s", in.Name, float64(ref.climbs)/ref.seconds, strings.Join(bests, " / "), g.cps, g.best, g.trunc, rnd.cps, rnd.trunc)
	}
	s.tspgpuNotes(c)
	return c, nil
}

// tspgpuNotes adds tspgpu's notes to c.
func (s *oneilSuite) tspgpuNotes(c *Table) {
	c.Notes = append(c.Notes, "Reference columns (TSP_GPU ...): "+tspgpuLabel+" (built with -O3 -use_fast_math for sm_90); they are not the paper's figures. TSP_GPU times the kernel alone; our time is the whole run (device set-up, the final check) under the same limit.",
		"Start tours. TSP_GPU climbs from uniformly random tours. The GPU columns use 2opt-climb's default starts: randomized nearest-neighbour tours built by each climber block on the device (a random first city, then the nearest unvisited city, at about 3 % of the steps the second nearest), so every climb is still a 2-opt descent of the whole neighbourhood from a fresh randomized tour, but from a far better one. The \"random starts\" columns run the same engine with start=random, TSP_GPU's own starts (rows up to 1 s only).",
		"Two measures of length. TSP_GPU ranks moves and reports its best tour with distances truncated to integers (int(sqrtf(...)) in its source), not with TSPLIB's rounding to the nearest integer, so its lengths run about n/2 below the TSPLIB length of the same tour. \"TSP_GPU's measure\" is our best tour measured that way (the sum of floor(sqrt(dx²+dy²)), in double precision); the verdict compares like with like, against the better of TSP_GPU's runs. \"TSPLIB\" is the exact length the engine reports.",
		s.machine(),
		fmt.Sprintf("Ours: GPU 2opt-climb with a time limit equal to TSP_GPU's time, set-up included (with --quick, --time may shorten it: then the row is not at equal time), seeds 1..%d (rows over %v: seed 1 only unless --runs is given); climbs = climbs completed (start tours taken to a 2-opt local minimum of the whole neighbourhood); best = the best tour's exact length after the engine's final check (the engine finishes its best climb with a neighbour-list 2-opt pass on the CPU, which a pure climb would not have). CPU: 2opt-climb on all cores from random tours, seed 1, for the row's time up to %.2f s (a longer CPU run is marked with its time).", s.runs(3), tspgpuLongRow, tspgpuCPUMax.Seconds()),
		"Work counted: a climb is one start tour taken to a 2-opt local minimum; the move counter (GPU moves/s) counts n(n-3)/2 moves for every full evaluation of a running climber's neighbourhood (up to about 14,000 cities, where a climber's tour fits one block's shared memory; above, every climber slot of every batch pass); building a start tour counts no moves. Passes per climb = evaluations of the whole neighbourhood per completed climb. The fused climber applies, per pass, every improving move found by its threads that no better one overlaps (TSP_GPU applies one), so it needs fewer passes per climb; compare climbs/s and the best tour, not moves/s.")
}

// truncatedLength is t's length with every distance truncated to an integer, the measure TSP_GPU reports (int(sqrtf(...)) in its source).
func truncatedLength(in *solver.Instance, t []int) int64 {
	var l int64
	for k, a := range t {
		b := t[(k+1)%len(t)]
		l += int64(math.Floor(math.Hypot(in.X[a]-in.X[b], in.Y[a]-in.Y[b])))
	}
	return l
}

// oneilClimbers is Fig. 7's number of climbers per instance.
const oneilClimbers = 100000

// quality is Fig. 7: the best of the paper's 100,000 climbs on the smallest TSPLIB instances within a time cap each; the CPU, much slower, runs only without a GPU.
func (s *oneilSuite) quality() (*Table, error) {
	opt := s.opt
	qn, climbers := 63, oneilClimbers
	qT := s.budget(3*time.Second, 100*time.Millisecond)
	if opt.Quick {
		qn, climbers = 3, 1000
	}
	qNames := smallestInstances(opt.TSPLIBDir, qn)
	q := &Table{Title: fmt.Sprintf("O'Neil & Burtscher Fig. 7: best of up to %d random-restart 2-opt climbs on the %d smallest TSPLIB instances here (%% above optimum)", climbers, len(qNames)), file: "oneil-quality",
		Header: []string{"instance", "n", "GPU climbs", "GPU time s", "GPU best", "GPU gap %", "CPU climbs", "CPU gap %", "paper"}}
	var qx, qg, qc []float64
	capped := 0
	err := s.each(qNames, func(_ string, err error) { s.logf("%v", err) }, func(name string, in *solver.Instance) error {
		gCl, gT, gBest, gGap, cCl, cGap := "n/a", "n/a", "n/a", "n/a", "not run (GPU present)", "not run (GPU present)"
		p := solver.Params{Seed: 1, TimeLimit: qT, Extra: map[string]string{"restarts": strconv.Itoa(climbers)}}
		if x, ok := s.solve(s.gc, in, randomStarts(p)); ok {
			v, txt := gapOf(x.Length, in)
			gCl, gT, gBest, gGap = fmt.Sprint(x.Steps), fmt.Sprintf("%.2f", x.Elapsed.Seconds()), fmt.Sprint(x.Length), txt
			qx, qg = append(qx, float64(in.N)), append(qg, v)
			if x.Steps < int64(climbers) {
				capped++
			}
		}
		if s.gc == nil {
			cCl, cGap = "n/a", "n/a"
			if x, ok := s.solve(s.cc, in, randomStarts(p)); ok {
				v, txt := gapOf(x.Length, in)
				cCl, cGap = fmt.Sprint(x.Steps), txt
				qx, qc = append(qx, float64(in.N)), append(qc, v)
			}
		}
		q.AddRow(name, in.N, gCl, gT, gBest, gGap, cCl, cGap, "not printed (Fig. 7 only)")
		return nil
	})
	if err != nil {
		return nil, err
	}
	q.Notes = append(q.Notes, "Paper setup ("+s.ph.cell("value as printed", "Solution quality setup (Fig. 7)")+"): 100,000 independent climbers with the tuned code, error plotted only; the paper's \"first 63 inputs\" include instances without coordinates, which the GPU kernels cannot run. Ours climb from uniformly random tours as the paper's (GPU option start=random).",
		fmt.Sprintf("Ours: 2opt-climb, seed 1, %d climbs (option restarts) or %v, whichever comes first: %d of %d instances reached the time cap first (their climbs column is below %d). Gap: the best tour's exact TSPLIB length against the optimum (the engine polishes its best climb with an exact neighbour-list 2-opt pass on the CPU). CPU 2opt-climb (all cores) runs only without a GPU. Instances: the %d smallest (by DIMENSION) EUC_2D, CEIL_2D or ATT instances of the TSPLIB folder (the kernels compute distances from coordinates).", climbers, qT, capped, len(qNames), climbers, len(qNames)),
		s.machine())
	if len(qg) > 0 || len(qc) > 0 {
		series := []Series{{Name: "GPU 2opt-climb", X: qx, Y: qg}}
		if s.gc == nil {
			series = []Series{{Name: "CPU 2opt-climb", X: qx, Y: qc}}
		}
		if err := SavePlot(opt.OutDir, "oneil-fig7", "O'Neil & Burtscher Fig. 7: % above optimum against n", "cities", "% above optimum", true, false, series...); err != nil {
			return nil, err
		}
	}
	return q, nil
}

// smallestInstances returns the k smallest .tsp files of dir by DIMENSION whose distances the 2-opt kernels compute (EUC_2D, CEIL_2D, ATT), reading headers only.
func smallestInstances(dir string, k int) []string {
	files, _ := filepath.Glob(filepath.Join(dir, "*.tsp"))
	type inst struct {
		name string
		n    int
	}
	var all []inst
	for _, f := range files {
		h, err := tsplib.ReadHeader(f)
		if err == nil && h.Dimension > 0 && (h.Metric == "EUC_2D" || h.Metric == "CEIL_2D" || h.Metric == "ATT") {
			all = append(all, inst{strings.TrimSuffix(filepath.Base(f), ".tsp"), h.Dimension})
		}
	}
	slices.SortFunc(all, func(a, b inst) int { return cmp.Or(cmp.Compare(a.n, b.n), strings.Compare(a.name, b.name)) })
	var out []string
	for i := 0; i < len(all) && i < k; i++ {
		out = append(out, all[i].name)
	}
	return out
}
