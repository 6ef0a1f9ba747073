package bench

import (
	"context"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/neighbor"
)

const rockiCite = `K. Rocki and R. Suda, "Accelerating 2-opt and 3-opt local search using GPU in the travelling salesman problem", 12th IEEE/ACM International Symposium on Cluster, Cloud and Grid Computing (CCGrid), pp. 705-706, 2012`

// RockiInstances are the rocki suite's instances, berlin52 to pla85900
// (the paper's exact list was not at hand: this is the project's choice
// over the same range).
var RockiInstances = []string{"berlin52", "kroA100", "ch150", "kroA200", "a280", "pcb442", "rat783", "pr1002", "pr2392", "pcb3038",
	"fnl4461", "rl5915", "pla7397", "rl11849", "usa13509", "d18512", "pla33810", "pla85900"}

// rockiCPUDescentMax is the largest n whose CPU descent the suite runs
// (a sequential full-neighbourhood descent grows like n^3).
const rockiCPUDescentMax = 1002

func init() {
	Register("rocki", "Rocki & Suda reproduced: Table II, time of one full 2-opt pass, checks/s and time from a greedy tour to the first local minimum, berlin52 .. pla85900, GPU beside one CPU core", runRocki)
}

// cpuTwoOptPass evaluates the 2-opt moves of rows i < rows of the tour
// whose coordinates (in tour order) are x, y, sequentially in float64 as a
// plain CPU code does, and returns the best move and the moves evaluated.
func cpuTwoOptPass(x, y []float64, rows int) (best float64, bi, bj int, moves int64) {
	n := len(x)
	d := func(a, b int) float64 { dx, dy := x[a]-x[b], y[a]-y[b]; return math.Sqrt(dx*dx + dy*dy) }
	for i := 0; i < rows && i < n-2; i++ {
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

// cpuDescent is best-improvement 2-opt with full passes on one core until
// no move improves (or the time limit): the sequential counterpart of the
// GPU descent.
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

func runRocki(ctx context.Context, opt Options, out io.Writer) error {
	r, err := newRepro(ctx, "rocki", opt)
	if err != nil {
		return err
	}
	names := r.instances(RockiInstances, []string{"berlin52", "kroA100"})
	limit := r.budget(3*time.Second, 300*time.Millisecond)
	t := &Table{Title: "Rocki & Suda Table II: one full 2-opt pass, checks per second, and greedy to the first local minimum",
		Header: []string{"instance", "n", "moves per pass", "GPU pass ms (amortized)", "GPU checks/s", "CPU pass ms (1 core)", "CPU checks/s", "pass speedup",
			"GPU descent s (passes)", "CPU descent s (passes)", "greedy gap %", "2-opt minimum gap % (GPU)", "paper GPU pass", "paper speedup"}}
	var xs, gy, cy []float64
	if GPUEvalRate == nil || GPUTwoOptDescent == nil {
		r.device = "GPU unavailable: this binary was built without CUDA (make gpu)"
	}
	for _, name := range names {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		in, err := r.load(name)
		if err != nil {
			return err
		}
		if !in.HasCoords() {
			r.logf("%s: no coordinates, skipped", name)
			continue
		}
		n := in.N
		m := int64(n) * int64(n-3) / 2
		nb := neighbor.Nearest(in, 10)
		greedy := construct.Greedy(in, nb)
		_, gg := gapOf(solver.TourLength(in, greedy), in)

		// GPU: the evaluation kernel's rate gives the pass time; the
		// descent is the 2opt-ils local search from the greedy tour.
		gPass, gRate := "n/a", 0.0
		if GPUEvalRate != nil {
			if v, dev, err := GPUEvalRate(n, 0, 1); err == nil {
				gRate, r.device = v, dev
				gPass = fmt.Sprintf("%.4g", float64(m)/v*1000)
			} else {
				r.device = "GPU unavailable: " + err.Error()
			}
		}
		gDesc, gMin := "n/a", "n/a"
		if GPUTwoOptDescent != nil && gRate > 0 {
			if tr, passes, _, el, _, err := GPUTwoOptDescent(in, append([]int(nil), greedy...)); err == nil {
				gDesc = fmt.Sprintf("%.3f (%d)", el.Seconds(), passes)
				_, gMin = gapOf(solver.TourLength(in, tr), in)
			} else {
				r.logf("%s: GPU descent: %v", name, err)
			}
		}

		// CPU: one core, the same full pass in float64; past 2e8 moves the
		// pass is timed over its first rows and scaled to the whole.
		x, y := tourCoords(in, greedy)
		rows := n
		for rows > 1 && int64(rows)*int64(n) > 1e8 {
			rows /= 2
		}
		st := time.Now()
		_, _, _, cm := cpuTwoOptPass(x, y, rows)
		el := time.Since(st)
		cRate := float64(cm) / max(el.Seconds(), 1e-9)
		cPass := fmt.Sprintf("%.4g", float64(m)/cRate*1000)
		if rows < n {
			cPass += " (scaled)"
		}
		cDesc := "n/a (n > " + fmt.Sprint(rockiCPUDescentMax) + ")"
		if n <= rockiCPUDescentMax {
			p, _, del, done := cpuDescent(in, append([]int(nil), greedy...), limit)
			cDesc = fmt.Sprintf("%.3f (%d)", del.Seconds(), p)
			if !done {
				cDesc = fmt.Sprintf("> %.1f (%d, stopped)", del.Seconds(), p)
			}
		}
		speed := "n/a"
		if gRate > 0 {
			speed = fmt.Sprintf("%.0fx", gRate/cRate)
		}
		t.AddRow(name, n, m, gPass, fmtG(gRate), cPass, fmtG(cRate), speed, gDesc, cDesc, gg, gMin, NotFound, NotFound)
		r.logf("%s: GPU %.3g checks/s, CPU %.3g, descent GPU %s CPU %s", name, gRate, cRate, gDesc, cDesc)
		xs, gy, cy = append(xs, float64(n)), append(gy, gRate), append(cy, cRate)
	}
	t.AddRow("all", "", "", "", fmtG(maxF(gy)), "", fmtG(maxF(cy)), "", "", "", "", "", "n/a (not found); > 430 GFLOPS on a Tesla C2075", "about 100x for 2-opt (220x for 3-opt)")
	if err := SavePlot(opt.OutDir, "rocki-checks", "2-opt checks per second against n (Rocki & Suda Table II)", "cities", "checks per second", true, true,
		Series{Name: "GPU (kernel)", X: xs, Y: gy}, Series{Name: "CPU, 1 core", X: xs, Y: cy}); err != nil {
		return err
	}
	t.Notes = append(t.Notes, "Paper: "+rockiCite+"; its figures (abstract): the time to find the best 2-opt move about 100 times shorter than a sequential CPU code, more than 220-fold for 3-opt, over 430 GFLOPS on one Tesla C2075; its per-instance Table II figures "+NotFound+".",
		r.machine(),
		"GPU pass = n(n-3)/2 moves over the 2-opt evaluation kernel's rate (CUDA events, random cities of the same n, batched to fill the GPU for small n, so below about 4,000 cities it is a pass's share of a batched launch, not the latency of one pass). GPU descent: whole-neighbourhood passes from the greedy-edge tour, many disjoint improving moves applied per pass (2opt-ils's local search), until no improving move survives the exact re-check.",
		fmt.Sprintf("CPU: one core, the same full pass in float64 (scaled from its first rows past 5e7 moves); the CPU descent (one best move per pass, as in the paper's sequential code) runs for n <= %d and stops after %v (scaled: a time limit, never the instance list).", rockiCPUDescentMax, limit),
		"Instances: the project's choice from berlin52 to pla85900 (the paper's exact list was not at hand).")
	return r.finish([]*Table{t}, []string{"rocki"}, out)
}
