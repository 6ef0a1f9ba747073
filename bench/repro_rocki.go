package bench

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/gen"
	"github.com/tsplab/tsplab/solver/neighbor"
)

// Rocki and Suda's paper as its text gives it, and its hardware for Table II.
const (
	rockiCite     = `K. Rocki and R. Suda, "High Performance GPU Accelerated Local Optimization in TSP", IPDPSW 2013 (IEEE), pp. 1788-1796`
	rockiHardware = "paper: GeForce GTX 680 (CUDA 5), CPU Intel Core i7-3960X"
)

// RockiInstances are the 27 instances of Rocki and Suda's Table II, in its order.
var RockiInstances = []string{"berlin52", "kroE100", "ch130", "ch150", "kroA200", "ts225", "pr299", "pr439", "rat783", "vm1084",
	"pr2392", "pcb3038", "fl3795", "fnl4461", "rl5934", "pla7397", "usa13509", "d15112", "d18512", "sw24978",
	"pla33810", "pla85900", "sra104815", "usa115475", "ara238025", "lra498378", "lrb744710"}

const (
	rockiCPUDescentMax = 1002 // the largest n whose CPU descent runs (a sequential full-neighbourhood descent grows like n^3)
	// rockiCPUMoves and rockiCPUParMoves bound a timed CPU pass on one core and on all: a larger pass is timed over its first rows and scaled.
	rockiCPUMoves    = 2e7
	rockiCPUParMoves = 2e8
)

func init() {
	Register("rocki", "Rocki & Suda reproduced: Table II, time of one full 2-opt pass, checks/s and time from a greedy tour to the first local minimum, berlin52 .. pla85900, GPU beside one CPU core", runRocki)
}

// cpuTwoOptPass evaluates the 2-opt moves of rows i < rows of the tour with coordinates x, y (in tour order) in float64, as the GPU kernel prices them, and returns the best move and the moves evaluated.
func cpuTwoOptPass(x, y []float64, rows int) (best float64, bi, bj int, moves int64) {
	return cpuTwoOptRows(x, y, 0, 1, rows)
}

// cpuTwoOptRows is cpuTwoOptPass over rows from, from+step, ... < rows.
func cpuTwoOptRows(x, y []float64, from, step, rows int) (best float64, bi, bj int, moves int64) {
	n := len(x)
	d := func(a, b int) float64 { dx, dy := x[a]-x[b], y[a]-y[b]; return math.Sqrt(dx*dx + dy*dy) }
	for i := from; i < rows && i < n-2; i += step {
		i1 := i + 1
		dii := d(i, i1)
		jEnd := n
		if i == 0 {
			jEnd = n - 1
		}
		for j := i + 2; j < jEnd; j++ {
			j1 := j + 1
			if j1 == n {
				j1 = 0
			}
			delta := d(i, j) + d(i1, j1) - dii - d(j, j1)
			if delta < best {
				best, bi, bj = delta, i, j
			}
		}
		moves += int64(jEnd - i - 2)
	}
	return
}

// tourCoords returns the coordinates of t's cities in tour order.
func tourCoords(in *solver.Instance, t []int) (x, y []float64) {
	x, y = make([]float64, len(t)), make([]float64, len(t))
	for k, c := range t {
		x[k], y[k] = in.X[c], in.Y[c]
	}
	return
}

// cpuDescent is best-improvement 2-opt with full passes on one core until no move improves or limit passes: the sequential twin of the GPU descent.
func cpuDescent(in *solver.Instance, t []int, limit time.Duration) (passes, moves int64, elapsed time.Duration, done bool) {
	start := time.Now()
	x, y := tourCoords(in, t)
	n := len(t)
	for time.Since(start) < limit {
		best, i, j, m := cpuTwoOptPass(x, y, n)
		passes++
		moves += m
		if best > -1e-7 {
			return passes, moves, time.Since(start), true
		}
		for a, b := i+1, j; a < b; a, b = a+1, b-1 {
			x[a], x[b] = x[b], x[a]
			y[a], y[b] = y[b], y[a]
			t[a], t[b] = t[b], t[a]
		}
	}
	return passes, moves, time.Since(start), false
}

// rockiLoad loads a Table II instance, or generates a uniform one of the size in the name's digits when the TSPLIB folder lacks it.
func (r *repro) rockiLoad(name string) (in *solver.Instance, generated bool, err error) {
	in, err = r.load(name)
	if err == nil {
		return in, false, nil
	}
	if _, serr := os.Stat(filepath.Join(r.opt.TSPLIBDir, name+".tsp")); serr == nil {
		return nil, false, err // present but unreadable: say so
	}
	digits := strings.TrimLeftFunc(name, func(c rune) bool { return c < '0' || c > '9' })
	n, aerr := strconv.Atoi(digits)
	if aerr != nil || n < 5 {
		return nil, false, err
	}
	g, gerr := gen.Generate("uniform", n, 1)
	if gerr != nil {
		return nil, false, gerr
	}
	g.Name = name + " (generated)"
	return g, true, nil
}

// fmtDur writes a measured time in µs, ms or s, "n/a" for a time not measured (0).
func fmtDur(d time.Duration) string {
	switch {
	case d <= 0:
		return "n/a"
	case d < time.Millisecond:
		return fmt.Sprintf("%.0f µs", float64(d)/float64(time.Microsecond))
	case d < time.Second:
		return fmt.Sprintf("%.3f ms", float64(d)/float64(time.Millisecond))
	default:
		return fmt.Sprintf("%.3f s", d.Seconds())
	}
}

// rockiGPUCols are one instance's GPU columns of Table II.
type rockiGPUCols struct {
	kern, h2d, d2h time.Duration // one pass: kernel, copies (0: not run)
	rate           float64       // checks per second of the kernel (0: not run)
	desc, optLen   string        // time to the first minimum and its length
}

// rockiGPU times one full pass of the GPU kernel over greedy (m moves) and descends from greedy to the first 2-opt minimum on the GPU.
func (r *repro) rockiGPU(name string, in *solver.Instance, greedy []int, m int64) rockiGPUCols {
	g := rockiGPUCols{desc: "n/a", optLen: "n/a"}
	if r.opt.GPU != nil {
		if pt, err := r.opt.GPU.OnePass(in, greedy, 5); err == nil {
			g.kern, g.h2d, g.d2h, r.device = pt.Kernel, pt.Upload, pt.Download, pt.Device
		} else {
			r.device = "GPU unavailable: " + err.Error()
		}
	}
	if g.kern > 0 {
		g.rate = float64(m) / g.kern.Seconds()
	}
	if r.opt.GPU == nil || g.kern == 0 {
		return g
	}
	if d, err := r.opt.GPU.TwoOptDescent(in, append([]int(nil), greedy...)); err == nil {
		g.desc = fmt.Sprintf("%s (%d passes)", fmtDur(d.Elapsed), d.Passes)
		g.optLen = fmt.Sprint(solver.TourLength(in, d.Tour))
	} else {
		r.logf("%s: GPU descent: %v", name, err)
	}
	return g
}

// cpuParallelRate is the checks per second of the same pass on every core (rows dealt out in turn), the stand-in for the paper's parallel CPU code of Fig. 10.
func cpuParallelRate(x, y []float64) float64 {
	w, rows := runtime.NumCPU(), passRows(len(x), rockiCPUParMoves)
	var moves atomic.Int64
	el := bestOf3(func() {
		moves.Store(0)
		var wg sync.WaitGroup
		for g := 0; g < w; g++ {
			wg.Go(func() {
				_, _, _, m := cpuTwoOptRows(x, y, g, w, rows)
				moves.Add(m)
			})
		}
		wg.Wait()
	})
	return float64(moves.Load()) / max(el.Seconds(), 1e-9)
}

// passRows is how many of a pass's n rows are timed: halved until rows × n is at most moves.
func passRows(n int, moves float64) int {
	rows := n
	for rows > 1 && float64(int64(rows)*int64(n)) > moves {
		rows /= 2
	}
	return rows
}

// bestOf3 times f, best of up to 3 runs while they take under 0.5 s in all (one run is noisy at microseconds).
func bestOf3(f func()) time.Duration {
	var best time.Duration
	for k, spent := 0, time.Duration(0); k < 3 && (k == 0 || spent < 500*time.Millisecond); k++ {
		st := time.Now()
		f()
		d := time.Since(st)
		spent += d
		if k == 0 || d < best {
			best = d
		}
	}
	return best
}

// rockiCPU is the one-core side: the same full pass in float64 (past rockiCPUMoves scaled from its first rows) and, for small instances, the descent to the first minimum within limit.
func rockiCPU(in *solver.Instance, greedy []int, m int64, limit time.Duration) (pass string, rate float64, descent string) {
	n := in.N
	x, y := tourCoords(in, greedy)
	rows := passRows(n, rockiCPUMoves)
	var cm int64
	el := bestOf3(func() { _, _, _, cm = cpuTwoOptPass(x, y, rows) })
	rate = float64(cm) / max(el.Seconds(), 1e-9)
	pass = fmtDur(time.Duration(float64(m) / rate * float64(time.Second)))
	if rows < n {
		pass += " (scaled)"
	}
	descent = fmt.Sprintf("not run (n > %d)", rockiCPUDescentMax)
	if n <= rockiCPUDescentMax {
		p, _, del, done := cpuDescent(in, append([]int(nil), greedy...), limit)
		descent = fmt.Sprintf("%s (%d passes)", fmtDur(del), p)
		if !done {
			descent = fmt.Sprintf("> %s (%d passes, stopped)", fmtDur(del), p)
		}
	}
	return pass, rate, descent
}

// runRocki reproduces Rocki and Suda's Table II beside the paper's figures, saving the table and plots after every instance, so a stopped run keeps what it measured.
func runRocki(ctx context.Context, opt Options, out io.Writer) error {
	r, err := newRepro(ctx, "rocki", opt)
	if err != nil {
		return err
	}
	names := r.instances(RockiInstances, []string{"berlin52", "kroE100"})
	limit := r.budget(3*time.Second, 300*time.Millisecond)
	pt := r.papers.table("rocki-table2.csv")
	t := rockiTable()
	var pl rockiPlots
	if r.opt.GPU == nil {
		r.device = "GPU unavailable: this binary was built without CUDA (make gpu)"
	}
	for _, name := range names {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		in, generated, err := r.rockiLoad(name)
		if err != nil {
			return err
		}
		if !in.HasCoords() {
			r.logf("%s: no coordinates, skipped", name)
			continue
		}
		r.rockiRow(t, &pl, pt, name, in, generated, limit)
		if opt.OutDir != "" {
			if err := t.Save(opt.OutDir, "rocki"); err != nil {
				return err
			}
			if err := pl.save(opt.OutDir); err != nil {
				return err
			}
		}
	}
	if err := pl.save(opt.OutDir); err != nil {
		return err
	}
	t.Notes = append(t.Notes, r.rockiNotes(limit)...)
	return r.finish(out, nil, t)
}

// rockiTable is the suite's empty Table II: our columns beside the paper's.
func rockiTable() *Table {
	return &Table{Title: "Rocki & Suda Table II: one full 2-opt pass (kernel, copies, total, checks/s) and the first 2-opt minimum from a greedy (multiple fragment) tour", file: "rocki",
		Header: []string{"instance", "n", "GPU kernel, full pass", "paper (GTX 680)", "host to device", "paper (GTX 680, PCIe 3.0)", "device to host", "paper (GTX 680)", "GPU total", "paper (GTX 680)",
			"checks/s (millions)", "paper (GTX 680)", "time to first minimum (GPU)", "paper (GTX 680)", "initial length", "paper", "optimized length", "paper (GTX 680)",
			"CPU pass, 1 core", "CPU checks/s (millions)", "GPU/CPU pass", "CPU time to first minimum (1 core)",
			"CPU checks/s, all cores (millions)", "GPU/CPU all cores (Fig. 10)"}}
}

// rockiRow measures one instance from its greedy tour on the GPU, one core and every core, and adds its row beside the paper's cells and its points to pl.
func (r *repro) rockiRow(t *Table, pl *rockiPlots, pt *paperTable, name string, in *solver.Instance, generated bool, limit time.Duration) {
	n := in.N
	m := int64(n) * int64(n-3) / 2
	nb := neighbor.Nearest(in, 10)
	greedy := construct.Greedy(in, nb)
	initLen := solver.TourLength(in, greedy)

	g := r.rockiGPU(name, in, greedy, m)
	cPass, cRate, cDesc := rockiCPU(in, greedy, m, limit)
	gx, gyy := tourCoords(in, greedy)
	aRate := cpuParallelRate(gx, gyy)
	speed, aSpeed := "n/a", "n/a"
	if g.rate > 0 {
		speed = fmt.Sprintf("%.0fx", g.rate/cRate)
		aSpeed = fmt.Sprintf("%.1fx", g.rate/aRate)
	}
	total := time.Duration(0)
	if g.kern > 0 {
		total = g.kern + g.h2d + g.d2h
	}
	label := name
	if generated {
		label = name + " (generated uniform, same n)"
	}
	t.AddRow(label, n, fmtDur(g.kern), pt.cell("GPU kernel time full 2-opt", name), fmtDur(g.h2d), pt.cell("Host to device copy time", name),
		fmtDur(g.d2h), pt.cell("Device to host copy time", name), fmtDur(total), pt.cell("GPU total time", name),
		valCell(g.rate/1e6, g.rate > 0, "%.2f"), pt.cell("2-opt checks/s (Millions)", name), g.desc, pt.cell("Time to first minimum (2-opt from MF)", name),
		initLen, pt.cell("Initial Length", name), g.optLen, pt.cell("Optimized Length", name),
		cPass, fmt.Sprintf("%.2f", cRate/1e6), speed, cDesc, fmt.Sprintf("%.2f", aRate/1e6), aSpeed)
	r.logf("%s: GPU kernel %s (%.3g checks/s), CPU %.3g checks/s, descent %s", name, fmtDur(g.kern), g.rate, cRate, g.desc)
	pl.add(n, g.rate, cRate, aRate, pt.cell("2-opt checks/s (Millions)", name))
}

// rockiPlots are the points of the suite's two figures, one per measured instance.
type rockiPlots struct {
	xs, gy, cy  []float64 // n; GPU and one-core checks/s
	px, py      []float64 // n; the paper's checks/s
	ax, ay      []float64 // n; all-cores checks/s
	sx, sy, asy []float64 // n; GPU over one core and over all cores
}

// add records one instance of n cities: the checks per second of the GPU (0: not run), one core and all cores, and the paper's printed millions.
func (p *rockiPlots) add(n int, gRate, cRate, aRate float64, paper string) {
	p.xs, p.gy, p.cy = append(p.xs, float64(n)), append(p.gy, gRate), append(p.cy, cRate)
	p.ax, p.ay = append(p.ax, float64(n)), append(p.ay, aRate)
	if gRate > 0 {
		p.sx, p.sy, p.asy = append(p.sx, float64(n)), append(p.sy, gRate/cRate), append(p.asy, gRate/aRate)
	}
	if v, ok := paperFloat(paper); ok {
		p.px, p.py = append(p.px, float64(n)), append(p.py, v*1e6)
	}
}

// save draws both figures from the points so far into dir (nothing when dir is empty).
func (p *rockiPlots) save(dir string) error {
	if err := SavePlot(dir, "rocki-checks", "2-opt checks per second against n (Rocki & Suda Table II)", "cities", "checks per second", true, true,
		Series{Name: "GPU kernel, one pass (ours)", X: p.xs, Y: p.gy}, Series{Name: "CPU, 1 core (ours)", X: p.xs, Y: p.cy}, Series{Name: "GTX 680 (paper)", X: p.px, Y: p.py},
		Series{Name: fmt.Sprintf("CPU, %d cores (ours)", runtime.NumCPU()), X: p.ax, Y: p.ay}); err != nil {
		return err
	}
	return SavePlot(dir, "rocki-fig10", "Rocki & Suda Fig. 10 (ours): speedup of one 2-opt pass, GPU over the CPU", "cities", "speedup", true, true,
		Series{Name: fmt.Sprintf("GPU / CPU, %d cores (parallel, as Fig. 10)", runtime.NumCPU()), X: p.sx, Y: p.asy},
		Series{Name: "GPU / CPU, 1 core", X: p.sx, Y: p.sy})
}

// rockiNotes are Table II's notes: the paper, this machine, and how each side was measured (limit: the CPU descent's cap).
func (r *repro) rockiNotes(limit time.Duration) []string {
	return []string{"Paper: " + rockiCite + "; " + rockiHardware + ". Its Fig. 10 (speedup over a parallel OpenCL CPU code on a Xeon E5-2690, 2 × 6 cores; abstract: about 5 to 45 times) keeps no values; rocki-fig10.png draws ours over the same pass on every core of this machine (rows dealt out to one goroutine per core, float64, best of up to 3) and over one core, rocki-checks.png our checks/s beside Table II's (CSVs beside them).",
		r.machine(),
		"GPU: the tour's points copied to the device, one launch of the 2-opt evaluation kernel over all n(n-3)/2 moves, the per-tile best moves copied back, each timed with the stream synchronized (median of 5 after a warm-up). Distances are computed from coordinates (no lookup table), as in the paper.",
		"Time to first minimum: from the greedy-edge (multiple fragment) tour, whole-neighbourhood passes on the GPU with many disjoint improving moves applied per pass (2opt-ils's local search) until no improving move survives the exact re-check, on every instance. Optimized length: that minimum's exact length.",
		fmt.Sprintf("CPU: one core, the same full pass in float64 (past %.0e moves timed over its first rows and scaled to the whole; best of up to 3 passes while they take under 0.5 s in all); all cores: the same, past %.0e moves; its time to first minimum applies the best move of each full pass (as a sequential code does), for n <= %d, stopped after %v.", float64(rockiCPUMoves), float64(rockiCPUParMoves), rockiCPUDescentMax, limit),
		"Instances: Table II's 27; those the TSPLIB folder lacks are uniform random instances of the same size, marked generated: their timing columns compare, their lengths do not."}
}
