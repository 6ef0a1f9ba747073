package bench

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/tsplab/tsplab/solver"
)

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

// gpuSuite is one run of the gpu suite: the reproduction suites' shared
// state (options, loading, engines, the GPU's name) and the table it fills.
type gpuSuite struct {
	*repro
	t *Table
}

func runGPU(ctx context.Context, opt Options, out io.Writer) error {
	s := &gpuSuite{
		repro: &repro{ctx: ctx, opt: opt, name: "gpu", device: "no GPU"},
		t: &Table{
			Title: "GPU engines beside the CPU (suite gpu)",
			Header: []string{"measure", "case", "GPU engine", "GPU moves/s", "GPU gap %", "GPU s",
				"CPU engine", "CPU moves/s", "CPU gap %", "CPU s", "GPU/CPU moves/s", "target", "paper"},
		},
	}
	s.evalRates()
	cpuLimit := opt.Time
	if cpuLimit <= 0 {
		cpuLimit = 20 * time.Second
	}
	if err := s.annealing(cpuLimit); err != nil {
		return err
	}
	climbTime := opt.Time
	if climbTime <= 0 {
		climbTime = 5 * time.Second
	}
	if err := s.climbs(climbTime); err != nil {
		return err
	}
	s.t.Notes = append(s.t.Notes,
		"GPU: "+s.device+"; CPU: "+HostCPU()+" (CPU engines on all cores unless --workers).",
		"SA runs use Lam et al.'s Table 1 schedule (T0 10000, Tend 0.1, alpha 0.99, Sp 10 sweeps of N iterations per temperature, Se = k = 100); GPU pspm runs the whole schedule with blocks and threads from the occupancy API (threads 32), seed 1; CPU runs stop at the schedule's end or after "+cpuLimit.String()+".",
		"SSES = moves evaluated per second (Lam et al. Eq. 4); SEC = % above the optimum (Eq. 5), one run per instance.",
		"2-opt evaluation: whole neighbourhood (n(n-3)/2 moves) of a batch of random tours sized to fill the GPU, timed with CUDA events; float distances, each move's delta from 9 square roots per 8 moves.",
		fmt.Sprintf("2opt-climb: %v per engine per instance, every climb from a uniformly random tour on both (the GPU engine's option start=random; its default starts from randomized nearest-neighbour tours).", climbTime),
		"The 20 instances are Lam et al.'s own (their Table 2, rd100 .. d493).",
	)
	if opt.OutDir != "" {
		if err := s.t.Save(opt.OutDir, "gpu"); err != nil {
			return err
		}
	}
	return s.t.Markdown(out)
}

// add formats r as a table row.
func (s *gpuSuite) add(r gpuRow) {
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
	s.t.AddRow(r.measure, r.inst, r.gEng, fmtRate(r.gRate, r.hasGPU), fmtGap(r.gGap, r.hasGPU && r.isGap), gt,
		r.cEng, fmtRate(r.cRate, r.hasCPU), fmtGap(r.cGap, r.hasCPU && r.isGap), ct, ratio, r.target, r.paper)
}

// evalRates measures the 2-opt evaluation kernel alone.
func (s *gpuSuite) evalRates() {
	sizes := evalSizes
	if s.opt.Quick {
		sizes = []int{1000, 10000}
	}
	if s.opt.GPU == nil {
		s.t.Notes = append(s.t.Notes, "2-opt evaluation rate: this binary was built without CUDA (make gpu)")
		return
	}
	for _, n := range sizes {
		passes := max(3, int(2e11/(float64(n)*float64(n)/2)/4))
		kr, err := s.opt.GPU.EvalRate(n, passes, 1)
		rate, dev := kr.MovesPerSec, kr.Device
		if err != nil {
			s.t.Notes = append(s.t.Notes, fmt.Sprintf("2-opt evaluation rate: %v", err))
			return
		}
		s.device = dev
		s.logf("2-opt eval n=%d: %.4g moves/s", n, rate)
		s.add(gpuRow{measure: "2-opt evaluation (kernel only)", inst: fmt.Sprintf("n=%d random", n), gEng: "twoopt_eval",
			gRate: rate, hasGPU: true, cEng: "-", target: ">= 1.5e12", paper: "O'Neil & Burtscher: 6e10 on a K40"})
	}
}

// note records an instance that did not load as a note of the table.
func (s *gpuSuite) note(name string, err error) {
	s.t.Notes = append(s.t.Notes, fmt.Sprintf("%s: %v", name, err))
}

// run solves in with e (nil: not available) and returns the result and
// its percent above the optimum.
func (s *gpuSuite) run(e solver.Engine, in *solver.Instance, p solver.Params) (solver.Result, float64, bool) {
	r, ok := s.solve(e, in, p)
	if !ok {
		return r, 0, false
	}
	gap, _ := solver.GapPercent(r.Length, in.Optimum)
	return r, gap, true
}

// saMeans sums one engine's gaps and rates over the instances it ran.
type saMeans struct {
	gap, rate float64
	n         int
}

func (m *saMeans) add(r solver.Result, gap float64, ok bool) {
	if ok {
		m.gap += gap
		m.rate += r.MovesPerSecond()
		m.n++
	}
}

func (m saMeans) meanGap() float64  { return m.gap / float64(max(m.n, 1)) }
func (m saMeans) meanRate() float64 { return m.rate / float64(max(m.n, 1)) }

// annealing runs PSPM under Lam et al.'s schedule (Table 1 defaults) on
// their 20 instances, beside CPU SSPM and PSSM on all cores (stopped after
// cpuLimit).
func (s *gpuSuite) annealing(cpuLimit time.Duration) error {
	gp := s.engine("pspm", solver.BackendGPU)
	cs := s.engine("sspm", solver.BackendCPU)
	cp := s.engine("pssm", solver.BackendCPU)
	insts := LamInstances
	if s.opt.Quick {
		insts = insts[:3]
	}
	if len(s.opt.Instances) > 0 {
		insts = s.opt.Instances
	}
	var mg, ms, mp saMeans
	err := s.each(insts, s.note, func(name string, in *solver.Instance) error {
		rg, gg, okg := s.run(gp, in, solver.Params{Seed: 1})
		rs, gs, oks := s.run(cs, in, solver.Params{Seed: 1, TimeLimit: cpuLimit})
		rp, gpp, okp := s.run(cp, in, solver.Params{Seed: 1, TimeLimit: cpuLimit})
		mg.add(rg, gg, okg)
		ms.add(rs, gs, oks)
		mp.add(rp, gpp, okp)
		s.logf("%s: pspm %.3f%% %.3g/s, sspm %.3f%%, pssm %.3f%%", name, gg, rg.MovesPerSecond(), gs, gpp)
		inst := fmt.Sprintf("%s (n=%d)", name, in.N)
		s.add(gpuRow{measure: "SA vs CPU SSPM", inst: inst, gEng: "pspm", cEng: "sspm", gRate: rg.MovesPerSecond(), cRate: rs.MovesPerSecond(),
			gGap: gg, cGap: gs, gTime: rg.Elapsed.Seconds(), cTime: rs.Elapsed.Seconds(), hasGPU: okg, hasCPU: oks, isGap: true})
		s.add(gpuRow{measure: "SA vs CPU PSSM", inst: inst, gEng: "pspm", cEng: "pssm", gRate: rg.MovesPerSecond(), cRate: rp.MovesPerSecond(),
			gGap: gg, cGap: gpp, gTime: rg.Elapsed.Seconds(), cTime: rp.Elapsed.Seconds(), hasGPU: okg, hasCPU: okp, isGap: true})
		return nil
	})
	if err != nil {
		return err
	}
	for _, c := range []struct {
		eng   string
		m     saMeans
		paper string
	}{{"sspm", ms, "Lam et al.: 4.57e8 moves/s, 2.2% (Tesla C2050); 99x over SSPM"}, {"pssm", mp, "Lam et al.: 38.7x over PSSM"}} {
		s.add(gpuRow{measure: "PSPM SSES (Eq. 4) and mean SEC (Eq. 5)", inst: fmt.Sprintf("mean of %d instances", len(insts)), gEng: "pspm", cEng: c.eng,
			gRate: mg.meanRate(), cRate: c.m.meanRate(), gGap: mg.meanGap(), cGap: c.m.meanGap(), hasGPU: mg.n > 0, hasCPU: c.m.n > 0, isGap: true,
			target: ">= 2e11 moves/s, <= 1.5%", paper: c.paper})
	}
	return nil
}

// climbs runs 2opt-climb on the GPU and on the CPU for the same time,
// both from uniformly random tours (the CPU engine's only starts).
func (s *gpuSuite) climbs(climbTime time.Duration) error {
	gc := s.engine("2opt-climb", solver.BackendGPU)
	cc := s.engine("2opt-climb", solver.BackendCPU)
	cinsts := climbInstances
	if s.opt.Quick {
		cinsts = cinsts[:1]
	}
	return s.each(cinsts, s.note, func(name string, in *solver.Instance) error {
		p := solver.Params{Seed: 1, TimeLimit: climbTime}
		rg, gg, okg := s.run(gc, in, randomStarts(p))
		rc, gc2, okc := s.run(cc, in, p)
		s.add(gpuRow{measure: "2opt-climb, equal time", inst: fmt.Sprintf("%s (n=%d)", name, in.N), gEng: "2opt-climb", cEng: "2opt-climb",
			gRate: rg.MovesPerSecond(), cRate: rc.MovesPerSecond(), gGap: gg, cGap: gc2, gTime: rg.Elapsed.Seconds(), cTime: rc.Elapsed.Seconds(),
			hasGPU: okg, hasCPU: okc, isGap: true, paper: "O'Neil & Burtscher: GPU climber"})
		return nil
	})
}
