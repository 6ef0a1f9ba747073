package bench

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// LamInstances are Lam et al.'s 20 TSPLIB instances, in the order of their Table 2.
var LamInstances = []string{"rd100", "eil101", "bier127", "ch150", "kroA150", "pr152", "u159", "rat195", "ts225", "tsp225",
	"gil262", "pr264", "a280", "pr299", "lin318", "rd400", "fl417", "pr439", "pcb442", "d493"}

// climbInstances are the instances of the 2opt-climb comparison.
var climbInstances = []string{"a280", "pcb442", "d493", "rat783"}

// evalSizes are the city counts of the 2-opt evaluation rate table.
var evalSizes = []int{1000, 2000, 5000, 10000, 20000, 50000, 100000}

func init() {
	Register("gpu", "GPU engines: 2-opt evaluation rate (n 1,000..100,000), PSPM speed and error on Lam et al.'s 20 instances beside CPU sspm/pssm, GPU vs CPU 2opt-climb", runGPU)
}

// gpuSide is one side of a row of the gpu suite's table: an engine's moves/s, gap and time (ok: it ran).
type gpuSide struct {
	eng             string
	rate, gap, secs float64
	ok              bool
}

// gpuSuite is one run of the gpu suite and the table it fills.
type gpuSuite struct {
	*repro
	t *Table
}

func runGPU(ctx context.Context, opt Options, out io.Writer) error {
	s := &gpuSuite{
		repro: &repro{ctx: ctx, opt: opt, name: "gpu", device: "no GPU"},
		t: &Table{Title: "GPU engines beside the CPU (suite gpu)", file: "gpu",
			Header: []string{"measure", "case", "GPU engine", "GPU moves/s", "GPU gap %", "GPU s",
				"CPU engine", "CPU moves/s", "CPU gap %", "CPU s", "GPU/CPU moves/s", "target", "paper"}},
	}
	s.evalRates()
	cpuLimit, climbTime := s.budget(20*time.Second, 20*time.Second), s.budget(5*time.Second, 5*time.Second)
	if err := s.annealing(cpuLimit); err != nil {
		return err
	}
	if err := s.climbs(climbTime); err != nil {
		return err
	}
	s.t.Notes = append(s.t.Notes, s.machine(),
		"SA runs use Lam et al.'s Table 1 schedule (T0 10000, Tend 0.1, alpha 0.99, Sp 10 sweeps of N iterations per temperature, Se = k = 100); GPU pspm runs the whole schedule with blocks and threads from the occupancy API (threads 32), seed 1; CPU runs stop at the schedule's end or after "+cpuLimit.String()+".",
		"SSES = moves evaluated per second (Lam et al. Eq. 4); SEC = % above the optimum (Eq. 5), one run per instance.",
		"2-opt evaluation: whole neighbourhood (n(n-3)/2 moves) of a batch of random tours sized to fill the GPU, timed with CUDA events; float distances, each move's delta from 9 square roots per 8 moves.",
		fmt.Sprintf("2opt-climb: %v per engine per instance, every climb from a uniformly random tour on both (the GPU engine's option start=random; its default starts from randomized nearest-neighbour tours).", climbTime),
		"The 20 instances are Lam et al.'s own (their Table 2, rd100 .. d493).",
	)
	return s.finish(out, nil, s.t)
}

// add writes one row: the GPU side g, the CPU side c, their moves/s ratio, the target and the paper's figure.
func (s *gpuSuite) add(measure, inst string, g, c gpuSide, target, paper string) {
	secs := func(x gpuSide) string { return valCell(x.secs, x.ok && x.secs > 0, "%.2f") }
	s.t.AddRow(measure, inst, g.eng, valCell(g.rate, g.ok, "%.3g"), valCell(g.gap, g.ok, "%.3f"), secs(g),
		c.eng, valCell(c.rate, c.ok, "%.3g"), valCell(c.gap, c.ok, "%.3f"), secs(c), valCell(g.rate/c.rate, g.ok && c.ok && c.rate > 0, "%.1fx"), target, paper)
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
		if err != nil {
			s.t.Notes = append(s.t.Notes, fmt.Sprintf("2-opt evaluation rate: %v", err))
			return
		}
		s.device = kr.Device
		s.logf("2-opt eval n=%d: %.4g moves/s", n, kr.MovesPerSec)
		s.t.AddRow("2-opt evaluation (kernel only)", fmt.Sprintf("n=%d random", n), "twoopt_eval", valCell(kr.MovesPerSec, true, "%.3g"), "n/a", "n/a",
			"-", "n/a", "n/a", "n/a", "n/a", ">= 1.5e12", "O'Neil & Burtscher: 6e10 on a K40")
	}
}

// note records an instance that did not load as a note of the table.
func (s *gpuSuite) note(name string, err error) {
	s.t.Notes = append(s.t.Notes, fmt.Sprintf("%s: %v", name, err))
}

// run solves in with e (nil: not available) and returns its side of a row.
func (s *gpuSuite) run(eng string, e solver.Engine, in *solver.Instance, p solver.Params) gpuSide {
	r, ok := s.solve(e, in, p)
	x := gpuSide{eng: eng, rate: r.MovesPerSecond(), secs: r.Elapsed.Seconds(), ok: ok}
	if ok {
		x.gap, _ = solver.GapPercent(r.Length, in.Optimum)
	}
	return x
}

// annealing runs PSPM under Lam et al.'s schedule (Table 1 defaults) on their 20 instances, beside CPU SSPM and PSSM on all cores (stopped after cpuLimit).
func (s *gpuSuite) annealing(cpuLimit time.Duration) error {
	gp := s.engine("pspm", solver.BackendGPU)
	cs := s.engine("sspm", solver.BackendCPU)
	cp := s.engine("pssm", solver.BackendCPU)
	insts := s.instances(LamInstances, LamInstances[:3])
	var sides [3][]gpuSide // pspm, sspm, pssm
	err := s.each(insts, s.note, func(name string, in *solver.Instance) error {
		g := s.run("pspm", gp, in, solver.Params{Seed: 1})
		ss := s.run("sspm", cs, in, solver.Params{Seed: 1, TimeLimit: cpuLimit})
		sp := s.run("pssm", cp, in, solver.Params{Seed: 1, TimeLimit: cpuLimit})
		for i, x := range []gpuSide{g, ss, sp} {
			if x.ok {
				sides[i] = append(sides[i], x)
			}
		}
		s.logf("%s: pspm %.3f%% %.3g/s, sspm %.3f%%, pssm %.3f%%", name, g.gap, g.rate, ss.gap, sp.gap)
		inst := fmt.Sprintf("%s (n=%d)", name, in.N)
		s.add("SA vs CPU SSPM", inst, g, ss, "", "")
		s.add("SA vs CPU PSSM", inst, g, sp, "", "")
		return nil
	})
	if err != nil {
		return err
	}
	// mean is an engine's side of the summary rows: its mean gap and rate.
	mean := func(eng string, xs []gpuSide) gpuSide {
		m := gpuSide{eng: eng, ok: len(xs) > 0}
		for _, x := range xs {
			m.gap += x.gap
			m.rate += x.rate
		}
		m.gap, m.rate = m.gap/float64(max(len(xs), 1)), m.rate/float64(max(len(xs), 1))
		return m
	}
	g := mean("pspm", sides[0])
	for i, paper := range []string{"Lam et al.: 4.57e8 moves/s, 2.2% (Tesla C2050); 99x over SSPM", "Lam et al.: 38.7x over PSSM"} {
		c := mean([]string{"sspm", "pssm"}[i], sides[i+1])
		s.add("PSPM SSES (Eq. 4) and mean SEC (Eq. 5)", fmt.Sprintf("mean of %d instances", len(insts)), g, c, ">= 2e11 moves/s, <= 1.5%", paper)
	}
	return nil
}

// climbs runs 2opt-climb on the GPU and on the CPU for the same time, both from uniformly random tours (the CPU engine's only starts).
func (s *gpuSuite) climbs(climbTime time.Duration) error {
	gc := s.engine("2opt-climb", solver.BackendGPU)
	cc := s.engine("2opt-climb", solver.BackendCPU)
	cinsts := climbInstances
	if s.opt.Quick {
		cinsts = cinsts[:1]
	}
	return s.each(cinsts, s.note, func(name string, in *solver.Instance) error {
		p := solver.Params{Seed: 1, TimeLimit: climbTime}
		g, c := s.run("2opt-climb", gc, in, randomStarts(p)), s.run("2opt-climb", cc, in, p)
		s.add("2opt-climb, equal time", fmt.Sprintf("%s (n=%d)", name, in.N), g, c, "", "O'Neil & Burtscher: GPU climber")
		return nil
	})
}
