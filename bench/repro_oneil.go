package bench

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/tsplab/tsplab/solver"
)

const oneilCite = `M. A. O'Neil and M. Burtscher, "Rethinking the parallelization of random-restart hill climbing: a case study in optimizing a 2-opt TSP solver for GPU execution", GPGPU-8 (8th Workshop on General Purpose Processing using GPUs), ACM, 2015`

// oneilSizes are the prefixes of d18512 the oneil suite measures.
var oneilSizes = []int{1000, 2000, 5000, 10000, 18512}

func init() {
	Register("oneil", "O'Neil & Burtscher reproduced: 2-opt moves/s against n (the first n cities of d18512), GPU 2opt-climb and kernel beside CPU 2opt-climb", runOneil)
}

// prefixInstance is the instance made of in's first n cities.
func prefixInstance(in *solver.Instance, n int) *solver.Instance {
	if n >= in.N {
		return in
	}
	return solver.NewCoordInstance(fmt.Sprintf("%s[:%d]", in.Name, n), in.Metric, in.X[:n], in.Y[:n], nil)
}

func runOneil(ctx context.Context, opt Options, out io.Writer) error {
	r, err := newRepro(ctx, "oneil", opt)
	if err != nil {
		return err
	}
	src := "d18512"
	if len(opt.Instances) > 0 {
		src = opt.Instances[0]
	}
	sizes := oneilSizes
	if opt.Quick {
		sizes = []int{200, 500}
	}
	T := r.budget(2*time.Second, 200*time.Millisecond)
	runs := r.runs(1)
	base, err := r.load(src)
	if err != nil {
		return err
	}
	gc := r.engine("2opt-climb", solver.BackendGPU)
	cc := r.engine("2opt-climb", solver.BackendCPU)
	t := &Table{Title: "O'Neil & Burtscher: 2-opt moves evaluated per second against n",
		Header: []string{"cities", "GPU 2opt-climb moves/s", "GPU kernel only moves/s", "CPU 2opt-climb moves/s", "GPU/CPU", "GPU climbs", "CPU climbs", "paper GPU moves/s", "paper GPU/CPU"}}
	var xs, gy, ky, cy []float64
	for _, n := range sizes {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		in := prefixInstance(base, n)
		n = in.N
		var gr, cr float64
		var gcl, ccl int64
		var okg, okc bool
		for k := 0; k < runs; k++ {
			if x, ok := r.solve(gc, in, solver.Params{Seed: uint64(k + 1), TimeLimit: T}); ok {
				gr += x.MovesPerSecond() / float64(runs)
				gcl += x.Steps
				okg = true
			}
			if x, ok := r.solve(cc, in, solver.Params{Seed: uint64(k + 1), TimeLimit: T}); ok {
				cr += x.MovesPerSecond() / float64(runs)
				ccl += x.Steps
				okc = true
			}
		}
		kr := 0.0
		if GPUEvalRate != nil && gc != nil {
			if v, dev, err := GPUEvalRate(n, 0, 1); err == nil {
				kr, r.device = v, dev
			} else {
				r.logf("kernel rate n=%d: %v", n, err)
			}
		}
		ratio := "n/a"
		if okg && okc && cr > 0 {
			ratio = fmt.Sprintf("%.1fx", gr/cr)
		}
		cl := func(ok bool, v int64) string {
			if !ok {
				return "n/a"
			}
			return fmt.Sprint(v)
		}
		t.AddRow(in.Name, fmtG(gr), fmtG(kr), fmtG(cr), ratio, cl(okg, gcl), cl(okc, ccl), NotFound, NotFound)
		r.logf("n=%d: GPU %.3g, kernel %.3g, CPU %.3g moves/s", n, gr, kr, cr)
		xs = append(xs, float64(n))
		gy, ky, cy = append(gy, gr), append(ky, kr), append(cy, cr)
	}
	t.AddRow("best over n", fmtG(maxF(gy)), fmtG(maxF(ky)), fmtG(maxF(cy)), "", "", "", "6e10 (up to; one K40)", "up to 8x (OpenMP, 20 cores)")
	if err := SavePlot(opt.OutDir, "oneil-moves", "2-opt moves/s against n (first n cities of "+src+")", "cities", "moves evaluated per second", true, true,
		Series{Name: "GPU 2opt-climb", X: xs, Y: gy}, Series{Name: "GPU kernel only", X: xs, Y: ky}, Series{Name: "CPU 2opt-climb", X: xs, Y: cy}); err != nil {
		return err
	}
	t.Notes = append(t.Notes, "Paper: "+oneilCite+"; its figures: up to 60 billion 2-opt moves per second on one K40 and up to 8x over an OpenMP code on 20 CPU cores (abstract); per-n figures "+NotFound+".",
		r.machine(),
		fmt.Sprintf("Each engine runs %v per size, %d run(s) (scaled: a run count, never the sizes); moves/s of the engines include restarts, copies and the exact re-check on the CPU.", T, runs),
		"Kernel only: the 2-opt evaluation kernel timed with CUDA events over random cities of the same n (the gpu suite's figure).",
		"Cities: the first n cities of "+src+", as in the paper's scaling study.")
	return r.finish([]*Table{t}, []string{"oneil"}, out)
}

func maxF(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		m = max(m, x)
	}
	return m
}
