package bench

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// GPUEvalRate measures the GPU 2-opt evaluation kernel alone (moves
// evaluated per second for n random cities, over passes timed launches;
// passes <= 0 lets the GPU package choose them from its batch size).
// Package gpu sets it in builds with CUDA; it is nil otherwise.
var GPUEvalRate func(n, passes int, seed uint64) (movesPerSec float64, device string, err error)

// LamInstances are Lam et al.'s 20 TSPLIB instances, in the order of their
// Table 2.
var LamInstances = []string{"rd100", "eil101", "bier127", "ch150", "kroA150", "pr152", "u159", "rat195", "ts225", "tsp225",
	"gil262", "pr264", "a280", "pr299", "lin318", "rd400", "fl417", "pr439", "pcb442", "d493"}

// climbInstances are the instances of the 2opt-climb comparison.
var climbInstances = []string{"a280", "pcb442", "d493", "rat783"}

// evalSizes are the city counts of the 2-opt evaluation rate table.
var evalSizes = []int{1000, 2000, 5000, 10000, 20000, 50000, 100000}

func init() {
	Register("gpu", "GPU engines: 2-opt evaluation rate (n 1,000..100,000), PSPM speed and error on Lam et al.'s 20 instances beside CPU sspm/pssm, GPU vs CPU 2opt-climb", runGPU)
}

// gpuRow is one row of the gpu suite's table.
type gpuRow struct {
	measure, inst         string
	gEng, cEng            string
	gRate, cRate          float64
	gGap, cGap            float64
	gTime, cTime          float64
	hasGPU, hasCPU, isGap bool
	target, paper         string
}

func fmtRate(v float64, ok bool) string {
	if !ok {
		return "n/a"
	}
	return fmt.Sprintf("%.3g", v)
}

func fmtGap(v float64, ok bool) string {
	if !ok {
		return "n/a"
	}
	return fmt.Sprintf("%.3f", v)
}

func runGPU(ctx context.Context, opt Options, out io.Writer) error {
	logf := func(format string, a ...any) {
		if opt.Log != nil {
			fmt.Fprintf(opt.Log, format+"\n", a...)
		}
	}
	t := &Table{
		Title: "GPU engines beside the CPU (suite gpu)",
		Header: []string{"measure", "case", "GPU engine", "GPU moves/s", "GPU gap %", "GPU s",
			"CPU engine", "CPU moves/s", "CPU gap %", "CPU s", "GPU/CPU moves/s", "target", "paper"},
	}
	device := "no GPU"
	add := func(r gpuRow) {
		ratio := "n/a"
		if r.hasGPU && r.hasCPU && r.cRate > 0 {
			ratio = fmt.Sprintf("%.1fx", r.gRate/r.cRate)
		}
		gt, ct := "n/a", "n/a"
		if r.hasGPU && r.gTime > 0 {
			gt = fmt.Sprintf("%.2f", r.gTime)
		}
		if r.hasCPU && r.cTime > 0 {
			ct = fmt.Sprintf("%.2f", r.cTime)
		}
		t.AddRow(r.measure, r.inst, r.gEng, fmtRate(r.gRate, r.hasGPU), fmtGap(r.gGap, r.hasGPU && r.isGap), gt,
			r.cEng, fmtRate(r.cRate, r.hasCPU), fmtGap(r.cGap, r.hasCPU && r.isGap), ct, ratio, r.target, r.paper)
	}

	// 1. The 2-opt evaluation kernel alone.
	sizes := evalSizes
	if opt.Quick {
		sizes = []int{1000, 10000}
	}
	if GPUEvalRate == nil {
		t.Notes = append(t.Notes, "2-opt evaluation rate: this binary was built without CUDA (make gpu)")
	} else {
		for _, n := range sizes {
			passes := max(3, int(2e11/(float64(n)*float64(n)/2)/4))
			rate, dev, err := GPUEvalRate(n, passes, 1)
			if err != nil {
				t.Notes = append(t.Notes, fmt.Sprintf("2-opt evaluation rate: %v", err))
				break
			}
			device = dev
			logf("2-opt eval n=%d: %.4g moves/s", n, rate)
			add(gpuRow{measure: "2-opt evaluation (kernel only)", inst: fmt.Sprintf("n=%d random", n), gEng: "twoopt_eval",
				gRate: rate, hasGPU: true, cEng: "-", target: ">= 1.5e12", paper: "O'Neil & Burtscher: 6e10 on a K40"})
		}
	}

	load := func(name string) (*solver.Instance, error) {
		return tsplib.Load(filepath.Join(opt.TSPLIBDir, name+".tsp"), opt.TSPLIBDir)
	}
	lookup := func(algo, backend string) solver.Engine {
		e, err := solver.Lookup(algo, backend)
		if err != nil || e.Available() != nil {
			return nil
		}
		return e
	}
	run := func(e solver.Engine, in *solver.Instance, p solver.Params) (solver.Result, float64, bool) {
		if e == nil {
			return solver.Result{}, 0, false
		}
		r, err := e.Solve(ctx, in, p, nil)
		if err != nil {
			logf("%s/%s on %s: %v", e.Name(), e.Backend(), in.Name, err)
			return solver.Result{}, 0, false
		}
		if e.Backend() == solver.BackendGPU {
			device = r.Device
		}
		gap, _ := solver.GapPercent(r.Length, in.Optimum)
		return r, gap, true
	}

	// 2. PSPM under Lam et al.'s schedule (Table 1 defaults) on their 20
	// instances, beside CPU SSPM and PSSM on all cores.
	gp := lookup("pspm", solver.BackendGPU)
	cs := lookup("sspm", solver.BackendCPU)
	cp := lookup("pssm", solver.BackendCPU)
	insts := LamInstances
	if opt.Quick {
		insts = insts[:3]
	}
	if len(opt.Instances) > 0 {
		insts = opt.Instances
	}
	cpuLimit := opt.Time
	if cpuLimit <= 0 {
		cpuLimit = 20 * time.Second
	}
	var sumG, sumS, sumP, rateG, rateS, rateP float64
	var nG, nS, nP int
	for _, name := range insts {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		in, err := load(name)
		if err != nil {
			t.Notes = append(t.Notes, fmt.Sprintf("%s: %v", name, err))
			continue
		}
		rg, gg, okg := run(gp, in, solver.Params{Seed: 1})
		rs, gs, oks := run(cs, in, solver.Params{Seed: 1, Workers: opt.Workers, TimeLimit: cpuLimit})
		rp, gpp, okp := run(cp, in, solver.Params{Seed: 1, Workers: opt.Workers, TimeLimit: cpuLimit})
		if okg {
			sumG += gg
			rateG += rg.MovesPerSecond()
			nG++
		}
		if oks {
			sumS += gs
			rateS += rs.MovesPerSecond()
			nS++
		}
		if okp {
			sumP += gpp
			rateP += rp.MovesPerSecond()
			nP++
		}
		logf("%s: pspm %.3f%% %.3g/s, sspm %.3f%%, pssm %.3f%%", name, gg, rg.MovesPerSecond(), gs, gpp)
		inst := fmt.Sprintf("%s (n=%d)", name, in.N)
		add(gpuRow{measure: "SA vs CPU SSPM", inst: inst, gEng: "pspm", cEng: "sspm", gRate: rg.MovesPerSecond(), cRate: rs.MovesPerSecond(),
			gGap: gg, cGap: gs, gTime: rg.Elapsed.Seconds(), cTime: rs.Elapsed.Seconds(), hasGPU: okg, hasCPU: oks, isGap: true})
		add(gpuRow{measure: "SA vs CPU PSSM", inst: inst, gEng: "pspm", cEng: "pssm", gRate: rg.MovesPerSecond(), cRate: rp.MovesPerSecond(),
			gGap: gg, cGap: gpp, gTime: rg.Elapsed.Seconds(), cTime: rp.Elapsed.Seconds(), hasGPU: okg, hasCPU: okp, isGap: true})
	}
	mean := func(s float64, k int) float64 {
		if k == 0 {
			return 0
		}
		return s / float64(k)
	}
	add(gpuRow{measure: "PSPM SSES (Eq. 4) and mean SEC (Eq. 5)", inst: fmt.Sprintf("mean of %d instances", len(insts)), gEng: "pspm", cEng: "sspm",
		gRate: mean(rateG, nG), cRate: mean(rateS, nS), gGap: mean(sumG, nG), cGap: mean(sumS, nS), hasGPU: nG > 0, hasCPU: nS > 0, isGap: true,
		target: ">= 2e11 moves/s, <= 1.5%", paper: "Lam et al.: 4.57e8 moves/s, 2.2% (Tesla C2050); 99x over SSPM"})
	add(gpuRow{measure: "PSPM SSES (Eq. 4) and mean SEC (Eq. 5)", inst: fmt.Sprintf("mean of %d instances", len(insts)), gEng: "pspm", cEng: "pssm",
		gRate: mean(rateG, nG), cRate: mean(rateP, nP), gGap: mean(sumG, nG), cGap: mean(sumP, nP), hasGPU: nG > 0, hasCPU: nP > 0, isGap: true,
		target: ">= 2e11 moves/s, <= 1.5%", paper: "Lam et al.: 38.7x over PSSM"})

	// 3. 2opt-climb, GPU against CPU, equal time.
	climbTime := opt.Time
	if climbTime <= 0 {
		climbTime = 5 * time.Second
	}
	gc := lookup("2opt-climb", solver.BackendGPU)
	cc := lookup("2opt-climb", solver.BackendCPU)
	cinsts := climbInstances
	if opt.Quick {
		cinsts = cinsts[:1]
	}
	for _, name := range cinsts {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		in, err := load(name)
		if err != nil {
			t.Notes = append(t.Notes, fmt.Sprintf("%s: %v", name, err))
			continue
		}
		p := solver.Params{Seed: 1, TimeLimit: climbTime, Workers: opt.Workers}
		rg, gg, okg := run(gc, in, p)
		rc, gc2, okc := run(cc, in, p)
		add(gpuRow{measure: "2opt-climb, equal time", inst: fmt.Sprintf("%s (n=%d)", name, in.N), gEng: "2opt-climb", cEng: "2opt-climb",
			gRate: rg.MovesPerSecond(), cRate: rc.MovesPerSecond(), gGap: gg, cGap: gc2, gTime: rg.Elapsed.Seconds(), cTime: rc.Elapsed.Seconds(),
			hasGPU: okg, hasCPU: okc, isGap: true, paper: "O'Neil & Burtscher: GPU climber"})
	}

	t.Notes = append(t.Notes,
		"GPU: "+device+"; CPU: "+HostCPU()+" (CPU engines on all cores unless --workers).",
		"SA runs use Lam et al.'s Table 1 schedule (T0 10000, Tend 0.1, alpha 0.99, Sp 10 sweeps of N iterations per temperature, Se = k = 100); GPU pspm runs the whole schedule with blocks and threads from the occupancy API (threads 32), seed 1; CPU runs stop at the schedule's end or after "+cpuLimit.String()+".",
		"SSES = moves evaluated per second (Lam et al. Eq. 4); SEC = % above the optimum (Eq. 5), one run per instance.",
		"2-opt evaluation: whole neighbourhood (n(n-3)/2 moves) of a batch of random tours sized to fill the GPU, timed with CUDA events; float distances, each move's delta from 9 square roots per 8 moves.",
		fmt.Sprintf("2opt-climb: %v per engine per instance.", climbTime),
		"The 20 instances are Lam et al.'s own (their Table 2, rd100 .. d493).",
	)
	if opt.OutDir != "" {
		if err := t.Save(opt.OutDir, "gpu"); err != nil {
			return err
		}
	}
	return t.Markdown(out)
}
