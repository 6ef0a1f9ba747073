package bench

import (
	"context"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// The papers as their texts give them, and the hardware of the figures shown (Luong et al.'s newest of four).
const (
	delevacqCite     = `A. Delévacq, P. Delisle and M. Krajecki, "Parallelization Strategies for Local Search Algorithms on Graphics Processing Units" (venue and year not printed)`
	delevacqHardware = "paper: NVIDIA Fermi C2050 (CUDA 4.1); the CPU of its sequential times is not named"
	luongCite        = `T. V. Luong, N. Melab and E.-G. Talbi, "GPU Computing for Parallel Local Search Metaheuristic Algorithms", IEEE Transactions on Computers (year not printed)`
	luongHardware    = "paper: Xeon E5620 (one core) + Tesla M2050 (448 GPU cores)"
)

// DelevacqInstances are Delévacq et al.'s five instances.
var DelevacqInstances = []string{"kroA100", "lin318", "rat783", "fl1577", "pcb3038"}

// LuongInstances are Luong et al.'s TSP instances (Table 6).
var LuongInstances = []string{"eil101", "d198", "pcb442", "rat783", "d1291", "pr2392", "fnl4461", "rl5915"}

var (
	delevacqNbSol   = []string{"1", "8", "64", "512", "2048"}            // the population sizes of their Tables 1 and 3
	delevacqParts   = []string{"table1", "table3"}                       // the tables --only takes
	delevacqFIModes = []string{"thread", "block-global", "block-shared"} // Table 1's GPU mappings, in its column order
)

const (
	luongIterations = 10000   // the tabu search's length in the paper's protocol
	delevacqFITotal = 1048576 // it_total of their first-improvement runs (Sect. 5.1)
	// delevacqTimingTrials of a Table 1 row's trials time the three GPU mappings and the sequential twin, which make the same moves every trial; the further ones run BG alone, for quality.
	delevacqTimingTrials = 2
	delevacqQualityOnCPU = 8 // the largest population whose quality trials run on the sequential twin (the same tours)
	delevacqCPUSample    = 4 // the searches of a population the sequential side runs: its time is their mean × nb_sol
)

func init() {
	Register("delevacq", "Delévacq et al. reproduced: kroA100 .. pcb3038, 20/10 trials, their iteration budgets (--scale), Table 1 (sequential first improvement) and Table 3 (ILS-RKBI_blocks population sweep nb_sol 1 .. 2048) beside their figures", runDelevacq)
	Register("luong", "Luong et al. reproduced: their 8 TSP instances, a tabu search of 10,000 iterations over the swap neighbourhood, 30 runs, time and acceleration over one core with and without thread control (--time caps the one-core reference, then extrapolated; --workers N runs N references beside the GPU runs)", runLuong)
}

// delevacqTrials is their trial count: 20 below 1000 cities, 10 above.
func delevacqTrials(n int) int {
	if n < 1000 {
		return 20
	}
	return 10
}

// delevacqPop is one trial of a population of nb_sol searches of it_lim kicks each: the best length, the GPU's wall time and the sequential time (estimated from the searches it ran).
type delevacqPop struct {
	best             int64
	gpu, cpu         time.Duration
	cpuRan           int
	gpuOK, cpuOK     bool
	gpuDevice, error string
}

// devicePopulation runs nb solutions of itLim kicks in one device launch into out.
func (r *repro) devicePopulation(out *delevacqPop, in *solver.Instance, nb, itLim, blocks int, seed uint64) {
	res, err := r.opt.GPU.ThreeOptPopulation(r.ctx, in, Population{Solutions: nb, Kicks: itLim, Blocks: blocks, Threads: 64, Seed: seed * 100003})
	out.gpuOK = err == nil && r.ctx.Err() == nil
	if err != nil {
		out.error = err.Error()
	}
	out.best, out.gpu, out.gpuDevice = res.Length, res.Elapsed, res.Device
}

// delevacqPopulation runs one trial: nb GPU searches at once (at most 2 per CPU core in flight) and up to delevacqCPUSample of the same searches one after the other on one core.
func (r *repro) delevacqPopulation(g, c solver.Engine, in *solver.Instance, nb, itLim, blocks int, seed uint64) delevacqPop {
	out := delevacqPop{best: -1}
	kicks := map[string]string{"kicks": fmt.Sprint(itLim)}
	if g != nil && r.opt.GPU != nil {
		r.devicePopulation(&out, in, nb, itLim, blocks, seed)
		g = nil
	}
	if g != nil {
		var mu sync.Mutex
		sem := make(chan struct{}, min(nb, 2*runtime.NumCPU()))
		var wg sync.WaitGroup
		st := time.Now()
		out.gpuOK = true
		for s := 0; s < nb; s++ {
			sem <- struct{}{}
			wg.Go(func() {
				defer func() { <-sem }()
				if r.ctx.Err() != nil {
					return
				}
				x, err := r.run(r.ctx, g, in, solver.Params{Seed: seed*100003 + uint64(s), Extra: kicks}.WithExtra("blocks", strconv.Itoa(blocks)).WithExtra("threads", "64"), nil)
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					out.gpuOK, out.error = false, err.Error()
					return
				}
				out.gpuDevice = x.Device
				if out.best < 0 || x.Length < out.best {
					out.best = x.Length
				}
			})
		}
		wg.Wait()
		out.gpu = time.Since(st)
		if r.ctx.Err() != nil {
			out.gpuOK = false
		}
	}
	if c != nil {
		var sum time.Duration
		for s := 0; s < min(nb, delevacqCPUSample); s++ {
			x, ok := r.solve(c, in, solver.Params{Seed: seed*100003 + uint64(s), Workers: 1, Extra: map[string]string{"pivot": "rkbi", "kicks": fmt.Sprint(itLim)}})
			if !ok {
				break
			}
			sum += x.Elapsed
			out.cpuRan++
		}
		if out.cpuRan > 0 {
			out.cpuOK = true
			out.cpu = time.Duration(float64(sum) / float64(out.cpuRan) * float64(nb))
		}
	}
	return out
}

// delevacqFIRow is one Table 1 row of ours: cells as text.
type delevacqFIRow struct {
	trials         int
	seq, freq, gap string
	gpu, speed     [3]string
}

// delevacqFI runs the trials of one population size (the timing trials first) until over says the suite's time is spent.
func (r *repro) delevacqFI(in *solver.Instance, nb, itLim, trials int, over func() bool) delevacqFIRow {
	row := delevacqFIRow{seq: "n/a", freq: "n/a", gap: "n/a", gpu: [3]string{"n/a", "n/a", "n/a"}, speed: [3]string{"n/a", "n/a", "n/a"}}
	if r.opt.GPU == nil {
		row.seq = "not in this build"
		return row
	}
	var s delevacqFISums
	for k := 0; k < trials && r.ctx.Err() == nil; k++ {
		if k > 0 && over() {
			break
		}
		row.trials++
		seed := uint64(k + 1)
		if k >= delevacqTimingTrials {
			r.delevacqFIQuality(in, nb, itLim, seed, &s)
			continue
		}
		r.delevacqFITiming(in, nb, itLim, seed, k == 0, &row, &s)
	}
	s.fill(&row)
	return row
}

// delevacqFISums are one Table 1 row's sums over its trials: the GPU time of each mapping, the sequential time of the population, and the quality of the trials' best tours.
type delevacqFISums struct {
	gT [3]float64
	gN [3]int
	sT float64
	sN int
	q  delevacqSum
}

// delevacqSum sums trials: their time in seconds, freq (1 at the optimum) and Δavg (% above it).
type delevacqSum struct {
	secs, freq, gap float64
	n               int
}

func (s *delevacqSum) add(secs float64, l int64, in *solver.Instance) {
	g, _ := gapOf(l, in)
	s.secs += secs
	if in.Optimum > 0 && l <= in.Optimum {
		s.freq++
	}
	s.gap += g
	s.n++
}

// mean is the means over the trials (0 without any).
func (s delevacqSum) mean() (secs, freq, gap float64) {
	d := float64(max(s.n, 1))
	return s.secs / d, s.freq / d, s.gap / d
}

// fill writes the means into row's cells (those without trials keep theirs).
func (s *delevacqFISums) fill(row *delevacqFIRow) {
	if s.sN > 0 {
		row.seq = fmt.Sprintf("%.3f", s.sT/float64(s.sN))
	}
	for i := range delevacqFIModes {
		if s.gN[i] > 0 {
			g := s.gT[i] / float64(s.gN[i])
			row.gpu[i] = fmt.Sprintf("%.3f", g)
			if s.sN > 0 {
				row.speed[i] = fmt.Sprintf("%.2f", s.sT/float64(s.sN)/g)
			}
		}
	}
	if _, fr, gp := s.q.mean(); s.q.n > 0 {
		row.freq, row.gap = fmt.Sprintf("%.2f", fr), fmt.Sprintf("%.3f", gp)
	}
}

// delevacqFITiming runs one timing trial: the population in each GPU mapping (BG's best tour for quality) and up to delevacqCPUSample of its searches on one core, scaled to the whole population.
func (r *repro) delevacqFITiming(in *solver.Instance, nb, itLim int, seed uint64, first bool, row *delevacqFIRow, s *delevacqFISums) {
	for i, m := range delevacqFIModes {
		res, err := r.opt.GPU.FIPopulation(in, Population{Solutions: nb, Kicks: itLim, Mode: m, Seed: seed})
		if err != nil {
			if first {
				r.logf("%s nb_sol %d %s: %v", in.Name, nb, m, err)
				if strings.Contains(err.Error(), "shared memory") {
					row.gpu[i] = "- (tour over 48 KiB of shared memory)"
				}
			}
			continue
		}
		r.device = res.Device
		s.gT[i] += res.Elapsed.Seconds()
		s.gN[i]++
		if m == "block-global" {
			s.q.add(0, res.Length, in)
		}
	}
	cnt := min(nb, delevacqCPUSample)
	if res, err := r.opt.GPU.FISequential(in, 0, cnt, Population{Kicks: itLim, Seed: seed}); err == nil {
		s.sT += res.Elapsed.Seconds() * float64(nb) / float64(cnt)
		s.sN++
	}
}

// delevacqFIQuality runs one quality trial on the population's cheapest exact copy: the sequential twin for small populations, else the BG launch.
func (r *repro) delevacqFIQuality(in *solver.Instance, nb, itLim int, seed uint64, s *delevacqFISums) {
	if nb <= delevacqQualityOnCPU {
		if res, err := r.opt.GPU.FISequential(in, 0, nb, Population{Kicks: itLim, Seed: seed}); err == nil {
			s.q.add(0, res.Length, in)
		}
	} else if res, err := r.opt.GPU.FIPopulation(in, Population{Solutions: nb, Kicks: itLim, Mode: "block-global", Seed: seed}); err == nil {
		r.device = res.Device
		s.q.add(0, res.Length, in)
	}
}

// delevacqCount parses a printed count ("1, 120, 000"), 0 when absent.
func delevacqCount(s string) int64 {
	v, ok := paperFloat(s)
	if !ok {
		return 0
	}
	return int64(v)
}

// runDelevacq reproduces Delévacq et al.'s Tables 1 and 3 instance by instance beside the paper's figures.
func runDelevacq(ctx context.Context, opt Options, out io.Writer) error {
	r, err := newRepro(ctx, "delevacq", opt)
	if err != nil {
		return err
	}
	d, err := newDelevacqSuite(r, opt)
	if err != nil {
		return err
	}
	err = r.each(d.names, nil, func(name string, in *solver.Instance) error {
		trials := r.runs(delevacqTrials(in.N))
		d.table1(name, in, trials)
		d.table3(name, in, trials)
		return nil
	})
	stop := r.stopped(err)
	if err != nil && stop == nil {
		return err
	}
	d.addNotes()
	var tables []*Table
	for i, t := range []*Table{d.t1, d.t3} {
		if d.want(delevacqParts[i]) {
			tables = append(tables, t)
		}
	}
	return r.finish(out, stop, tables...)
}

// delevacqSuite is one run of the delevacq suite: its options, the papers' tables, the two tables being filled and the engines they run.
type delevacqSuite struct {
	r              *repro
	names          []string
	scale          float64  // factor on the paper's iteration budgets
	nbs            []string // Table 3's population sizes
	start          time.Time
	p1, p2, p3, pp *paperTable // the paper's Tables 1, 2, 3 and its RKBI budgets
	t1, t3         *Table
	gRK, cIL       solver.Engine // GPU and CPU 3opt-ils (nil: not available)
	skipped        int           // Table 3 rows not run for the suite's time budget
}

// newDelevacqSuite reads the options (an unknown --only part is an error naming it), the papers' tables and the engines.
func newDelevacqSuite(r *repro, opt Options) (*delevacqSuite, error) {
	d := &delevacqSuite{r: r}
	for _, o := range opt.Only {
		if !slices.Contains(delevacqParts, o) && !(strings.HasPrefix(o, "nb") && slices.Contains(delevacqNbSol, o[2:])) {
			return nil, fmt.Errorf("delevacq suite: --only %s: want some of %s, or population sizes nb1, nb8, nb64, nb512, nb2048", o, strings.Join(delevacqParts, ", "))
		}
	}
	d.names = r.instances(DelevacqInstances, []string{"kroA100"})
	d.scale = opt.Scale
	if d.scale <= 0 {
		d.scale = 1
	}
	if opt.Quick && opt.Scale <= 0 {
		d.scale = 1.0 / 2000
	}
	d.nbs = delevacqNbSol
	if opt.Quick {
		d.nbs = []string{"1", "8"}
	}
	d.start = time.Now()
	d.p1 = r.papers.table("delevacq-table1.csv")
	d.p2 = r.papers.table("delevacq-table2.csv")
	d.p3 = r.papers.table("delevacq-table3.csv")
	d.pp = r.papers.table("delevacq-text-rkbi-params.csv")
	d.t1 = &Table{Title: "Delévacq et al. Table 1: first-improvement ILS populations (don't-look bits, fixed radius, 40 candidates) on the GPU as FI_thread (T), FI_block global (BG) and shared (BS), against the same searches on one core", file: "delevacq-table1",
		Header: []string{"instance", "nb_sol", "trials", "it_lim (run)", "sequential s (1 core)", "GPU s T", "GPU s BG", "GPU s BS", "speedup T", "speedup BG", "speedup BS", "paper speedup T (C2050)", "paper BG (C2050)", "paper BS (C2050)",
			"freq", "paper freq (C2050)", "Δavg %", "paper Δavg % (C2050)", "CPU engine 3opt-ils FI, 1 core (nb_sol = 1)"}}
	d.t3 = &Table{Title: "Delévacq et al. Table 3: ILS-RKBI_blocks, a population of nb_sol searches of it_total/nb_sol kicks each, GPU against the sequential search", file: "delevacq-table3",
		Header: []string{"instance", "nb_sol", "trials", "it_total/k (paper)", "it_lim (run)", "blocks/solution (paper Table 2)", "GPU time s", "CPU time s (1 core)", "speedup", "paper speedup (C2050)", "GPU freq", "paper freq (C2050)", "GPU Δavg %", "paper Δavg % (C2050)"}}
	d.gRK = r.engine("3opt-ils", solver.BackendGPU)
	d.cIL = r.engine("3opt-ils", solver.BackendCPU)
	return d, nil
}

// want is whether --only asks for the table part ("table1", "table3").
func (d *delevacqSuite) want(part string) bool { return d.r.wants(part, isTable) }

// wantNB is whether --only asks for the population size nb ("8").
func (d *delevacqSuite) wantNB(nb string) bool { return d.r.wants("nb"+nb, isTable) }

// overBudget is whether the suite's --time budget is spent.
func (d *delevacqSuite) overBudget() bool {
	return d.r.opt.Time > 0 && time.Since(d.start) > d.r.opt.Time
}

// scaled is an iteration budget of the paper times --scale, at least 1.
func (d *delevacqSuite) scaled(v int64) int64 {
	return max(1, int64(math.Round(float64(v)*d.scale)))
}

// table1 adds an instance's Table 1 rows, one per population size, and the CPU engine's first-improvement ILS beside nb_sol = 1.
func (d *delevacqSuite) table1(name string, in *solver.Instance, trials int) {
	fiTotal := d.scaled(delevacqFITotal)
	ref := d.fiReference(in, trials, fiTotal)
	for _, nb := range delevacqNbSol {
		if !d.want("table1") || d.r.ctx.Err() != nil {
			break
		}
		if !d.wantNB(nb) {
			continue
		}
		nbv, _ := strconv.Atoi(nb)
		itLim := int(max(1, fiTotal/int64(nbv)))
		fi := d.r.delevacqFI(in, nbv, itLim, trials, d.overBudget)
		p1 := d.p1
		row := []any{name, nb, fi.trials, itLim, fi.seq, fi.gpu[0], fi.gpu[1], fi.gpu[2], fi.speed[0], fi.speed[1], fi.speed[2],
			p1.cell("Speedup ILS-FI_thread (T)", name, nb), p1.cell("Speedup ILS-FI_block^global (BG)", name, nb), p1.cell("Speedup ILS-FI_block^shared (BS)", name, nb),
			fi.freq, p1.cell("freq (frequency of finding the known optimum)", name, nb), fi.gap, p1.cell("Δavg (average % deviation from optimum)", name, nb)}
		if nb == "1" {
			row = append(row, ref)
		} else {
			row = append(row, "")
		}
		d.t1.AddRow(row...)
	}
}

// fiReference runs the CPU engine's first-improvement ILS (40 candidates, fiTotal kicks, one core) trials times while the budget lasts and returns its cell ("" when no trial ran).
func (d *delevacqSuite) fiReference(in *solver.Instance, trials int, fiTotal int64) string {
	var s delevacqSum
	for k := 0; k < trials && !d.overBudget() && d.want("table1"); k++ {
		if x, ok := d.r.solve(d.cIL, in, solver.Params{Seed: uint64(k + 1), Workers: 1, Extra: map[string]string{"pivot": "first", "neighbors": "40", "kicks": fmt.Sprint(fiTotal)}}); ok {
			s.add(x.Elapsed.Seconds(), x.Length, in)
		}
	}
	if s.n == 0 {
		return ""
	}
	t, fr, g := s.mean()
	return fmt.Sprintf("%.3f s, freq %.2f, Δavg %.3f (%d kicks)", t, fr, g, fiTotal)
}

// table3 adds an instance's Table 3 rows: the RKBI population sweep over the sizes wanted, until the run is stopped.
func (d *delevacqSuite) table3(name string, in *solver.Instance, trials int) {
	itTotal := delevacqCount(d.pp.cell("it_total (as printed)", name))
	budget := d.pp.cell("it_total (as printed)", name) + " / " + d.pp.cell("k = evaluated neighbours (as printed)", name)
	for _, nb := range d.nbs {
		if !d.want("table3") {
			break
		}
		if !d.wantNB(nb) {
			continue
		}
		if !d.table3Row(name, in, nb, trials, itTotal, budget) {
			break
		}
	}
}

// table3Row adds the Table 3 row of population size nb (or why it did not run); it returns false when the run was stopped before any trial ended.
func (d *delevacqSuite) table3Row(name string, in *solver.Instance, nb string, trials int, itTotal int64, budget string) bool {
	nbv, _ := strconv.Atoi(nb)
	blocks := int(delevacqCount(d.p2.cell("blocks per solution at nb_sol="+nb, name)))
	if nb != "1" {
		blocks = int(delevacqCount(d.p2.cell("nb_sol="+nb, name)))
	}
	p3 := d.p3
	row := []any{name, nb}
	if itTotal == 0 || blocks == 0 || d.overBudget() {
		why := "not run: no it_total or blocks for it in the papers' tables"
		if d.overBudget() {
			why = "not run (suite time budget spent)"
			d.skipped++
		}
		d.t3.AddRow(append(row, 0, budget, why, "", "", "", "", p3.cell("Speedup ILS-RKBI_blocks", name, nb), "",
			p3.cell("freq (frequency of finding the known optimum)", name, nb), "", p3.cell("Δavg (average % deviation from optimum)", name, nb))...)
		return true
	}
	itLim := int(max(1, d.scaled(itTotal)/int64(nbv)))
	pops := d.populations(name, in, nb, trials, itLim, blocks)
	if len(pops) == 0 && d.r.ctx.Err() != nil {
		return false
	}
	m := delevacqMean(pops, in)
	d.t3.AddRow(append(row, len(pops), budget, itLim, blocks, valCell(m.gpu, m.gpuOK, "%.3f"), valCell(m.cpu, m.cpuOK, "%.3f"), ratioCell(m.cpu, m.gpu, m.cpuOK, m.gpuOK), p3.cell("Speedup ILS-RKBI_blocks", name, nb),
		valCell(m.freq, m.gpuOK, "%.2f"), p3.cell("freq (frequency of finding the known optimum)", name, nb), valCell(m.gap, m.gpuOK, "%.3f"),
		p3.cell("Δavg (average % deviation from optimum)", name, nb))...)
	d.r.logf("%s nb_sol %s: it_lim %d, GPU %.3f s, CPU %.3f s, Δavg %.3f", name, nb, itLim, m.gpu, m.cpu, m.gap)
	return true
}

// populations runs up to trials trials of the RKBI population while the budget lasts; a trial the stop interrupted counts for nothing.
func (d *delevacqSuite) populations(name string, in *solver.Instance, nb string, trials, itLim, blocks int) []delevacqPop {
	r := d.r
	nbv, _ := strconv.Atoi(nb)
	var pops []delevacqPop
	for k := 0; k < trials; k++ {
		if k > 0 && d.overBudget() {
			break
		}
		pop := r.delevacqPopulation(d.gRK, d.cIL, in, nbv, itLim, blocks, uint64(k+1))
		if r.ctx.Err() != nil {
			break
		}
		if pop.gpuDevice != "" {
			r.device = pop.gpuDevice
		}
		if pop.error != "" {
			r.logf("%s nb_sol %s: %s", name, nb, pop.error)
		}
		pops = append(pops, pop)
	}
	return pops
}

// delevacqMeans are a Table 3 row's means: the GPU's time, freq and Δavg over the trials whose GPU side ran, the CPU's time over those whose CPU side ran.
type delevacqMeans struct {
	gpu, cpu, freq, gap float64
	gpuOK, cpuOK        bool
}

// delevacqMean averages the trials pops of a population on in.
func delevacqMean(pops []delevacqPop, in *solver.Instance) delevacqMeans {
	var g, c delevacqSum
	for _, p := range pops {
		if p.gpuOK {
			g.add(p.gpu.Seconds(), p.best, in)
		}
		if p.cpuOK {
			c.add(p.cpu.Seconds(), 0, in)
		}
	}
	m := delevacqMeans{gpuOK: g.n > 0, cpuOK: c.n > 0}
	m.gpu, m.freq, m.gap = g.mean()
	m.cpu, _, _ = c.mean()
	return m
}

// addNotes writes both tables' notes: the paper, this machine, the trials and budgets, and how each table's searches ran.
func (d *delevacqSuite) addNotes() {
	r, opt := d.r, d.r.opt
	scaleNote := "the paper's budgets"
	if d.scale != 1 {
		scaleNote = fmt.Sprintf("the paper's it_total × %g (--scale; the full budgets take hours per instance on one core), it_lim = that / nb_sol, at least 1", d.scale)
	}
	common := []string{"Paper: " + delevacqCite + "; " + delevacqHardware + ".", r.machine(),
		fmt.Sprintf("Trials: 20 below 1000 cities, 10 above (the paper's) unless --runs (the trials column says how many ran). Iteration budgets: %s. freq: share of trials ending at the known optimum; Δavg: mean %% above it.", scaleNote),
		"Instances: the paper's five (kroA100, lin318, rat783, fl1577, pcb3038)."}
	if opt.Time > 0 {
		common = append(common, fmt.Sprintf("Suite time budget %v (--time): rows not started by then say so (%d).", opt.Time, d.skipped))
	}
	d.t1.Notes = append(d.t1.Notes, common...)
	d.t1.Notes = append(d.t1.Notes, fmt.Sprintf("Search: nb_sol independent ILS of it_lim = it_total / nb_sol kicks each (it_total = %d: their 1,048,576 × scale), from the nearest-neighbour tour; local search 2-opt over 40 candidates (fixed radius, both tour neighbours, don't-look bits, first improvement), double-bridge kicks, accept if shorter. GPU (one launch for the population): T = a thread per solution, BG = a block of 64 threads per solution evaluating a city's candidates together, tour in global memory, BS = the same with tour, positions and don't-look bits in shared memory (9 bytes a city, refused above 48 KiB as the paper's BS is for pcb3038). GPU time: uploads, kernel and read-back. Sequential: the same searches on one core (the same moves in the same order; up to %d of each population run, their mean time × nb_sol); speedup = sequential / GPU time. Times: the first %d trials of a row run all three mappings and the sequential twin (the same moves every trial, so their times vary little); every trial, up to the trials column, gives the population's best tour for freq and Δavg: from the BG launch in the timing trials, then from the sequential twin for nb_sol <= %d and the BG launch above (the three mappings and the twin make the same moves and end at the same tours). Our local search is 2-opt where the paper's is 3-opt. Last column: this project's CPU 3opt-ils (3-opt with Or-opt, first improvement, 40 candidates) with it_total kicks on one core, for reference.", d.scaled(delevacqFITotal), delevacqCPUSample, delevacqTimingTrials, delevacqQualityOnCPU))
	d.t3.Notes = append(d.t3.Notes, common...)
	gpuHow := "run at once on their own CUDA streams (at most two per CPU core in flight)"
	if r.opt.GPU != nil {
		gpuHow = "all in the same launches, as the paper's population: an evaluation grid of blocks per solution × nb_sol, then one replacement block per solution that also ends the local search (6 rounds without an improving sample), accepts the local minimum or goes back to the best, and kicks, so the iterated local search runs on the device and the host only queues rounds and reads the counters every 32 rounds"
	}
	d.t3.Notes = append(d.t3.Notes, fmt.Sprintf("GPU: a population of nb_sol independent 3opt-ils searches (ILS-RKBI_blocks: threads sample 3-opt reconnections, blocks reduce, random-k-best replacement, double-bridge kicks), each with the paper's blocks per solution (Table 2) × 64 threads and it_lim kicks, from the greedy tour, "+gpuHow+"; time = wall time of the whole population (set-up included), quality = its best tour. Sequential: the same searches (CPU 3opt-ils, 1 core, random-k-best pivoting, it_lim kicks) one after the other; up to %d of each population are run and their mean time × nb_sol is the population's time. Speedup = sequential time / GPU time, as the paper defines it. The paper's k (evaluated neighbours) is shown; our GPU round samples 4 × blocks × 64 reconnections.", delevacqCPUSample))
}

// luongRef is the one-core reference of one instance: the time of the whole search (measured, or extrapolated from a capped run), the iterations timed and the time per iteration.
type luongRef struct {
	secs, perIt float64
	timed       int64
	ok          bool
}

// luongCPU times the tabu search on one core: the whole search, or with a cap, the iterations that fit (two when fewer did), extrapolated as a one-iteration run (the setup) plus iters-1 times the mean of the further iterations.
// It may run beside other searches, so it calls the engine itself (no shared state but the log).
func (r *repro) luongCPU(c solver.Engine, in *solver.Instance, iters int, capT time.Duration) luongRef {
	if c == nil {
		return luongRef{}
	}
	solve := func(it int, limit time.Duration) (solver.Result, bool) {
		x, err := r.run(r.ctx, c, in, solver.Params{Seed: 1, Workers: 1, TimeLimit: limit, Extra: map[string]string{"tabu": fmt.Sprint(it)}}, nil)
		if err != nil {
			r.logf("%s/%s on %s: %v", c.Name(), c.Backend(), in.Name, err)
			return x, false
		}
		return x, true
	}
	x, ok := solve(iters, capT)
	if ok && x.Steps < 2 && capT > 0 {
		// the setup took (nearly) the whole cap, and one iteration cannot be
		// told from the setup: two iterations without the cap give the time of one
		x, ok = solve(min(2, iters), 0)
	}
	if !ok || x.Steps == 0 {
		return luongRef{}
	}
	if x.Steps >= int64(iters) {
		return luongRef{secs: x.Elapsed.Seconds(), perIt: x.Elapsed.Seconds() / float64(iters), timed: x.Steps, ok: true}
	}
	one, ok1 := solve(1, 0)
	if !ok1 || x.Steps < 2 {
		per := x.Elapsed.Seconds() / float64(x.Steps)
		return luongRef{secs: per * float64(iters), perIt: per, timed: x.Steps, ok: true}
	}
	per := max(x.Elapsed-one.Elapsed, 0).Seconds() / float64(x.Steps-1)
	return luongRef{secs: one.Elapsed.Seconds() + per*float64(iters-1), perIt: per, timed: x.Steps, ok: true}
}

// luongPaperCPU is the paper's one-core time deduced from a printed cell "a×b" (GPU time a at acceleration b: a·b seconds).
func luongPaperCPU(cell string) string {
	a, b, ok := strings.Cut(cell, "×")
	if !ok {
		return PaperNA
	}
	x, err1 := strconv.ParseFloat(a, 64)
	y, err2 := strconv.ParseFloat(b, 64)
	if err1 != nil || err2 != nil {
		return PaperNA
	}
	return fmt.Sprintf("%.3g", x*y)
}

// runLuong reproduces Luong et al.'s Tables 6 and 7 instance by instance beside the paper's cells, and plots the times against n.
func runLuong(ctx context.Context, opt Options, out io.Writer) error {
	r, err := newRepro(ctx, "luong", opt)
	if err != nil {
		return err
	}
	names := r.instances(LuongInstances, []string{"eil101"})
	iters := luongIterations
	if r.opt.Quick {
		iters = 200
	}
	runs := r.runs(30)
	p6 := r.papers.table("luong-table6-tsp.csv")
	p7 := r.papers.table("luong-table7-tsp-threadcontrol.csv")
	t := luongTable(iters)
	g := r.engine("swap-climb", solver.BackendGPU)
	c := r.engine("swap-climb", solver.BackendCPU)
	var rows []*luongRow
	if err := r.each(names, nil, func(name string, in *solver.Instance) error {
		rows = append(rows, &luongRow{name: name, in: in})
		return nil
	}); err != nil {
		return err
	}
	r.luongMeasure(g, c, rows, iters, runs)
	stop := r.stopped(r.ctx.Err())
	var xs, gy, ny, cy []float64
	for _, x := range rows {
		cs, ts, ns := r.luongAddRow(t, x, iters, p6, p7)
		xs = append(xs, float64(x.in.N))
		gy, ny, cy = append(gy, ts), append(ny, ns), append(cy, cs)
	}
	if err := SavePlot(opt.OutDir, "luong-time", fmt.Sprintf("swap-neighbourhood tabu search, %d iterations: time against n", iters), "cities", "seconds", true, true,
		Series{Name: "GPU, thread control", X: xs, Y: gy}, Series{Name: "GPU, 256 threads/block, a thread per neighbour", X: xs, Y: ny}, Series{Name: "CPU, 1 core", X: xs, Y: cy}); err != nil {
		return err
	}
	t.Notes = append(t.Notes, r.luongNotes(iters, runs)...)
	return r.finish(out, stop, t)
}

// luongTable is the suite's empty table for a search of iters iterations.
func luongTable(iters int) *Table {
	return &Table{Title: fmt.Sprintf("Luong et al. Tables 6-7: tabu search of %d iterations over the swap neighbourhood, time (s) and acceleration over one CPU core", iters), file: "luong",
		Header: []string{"instance", "n", "neighbours", "GPU runs (tc / 256)", "CPU 1 core s", "CPU: iterations timed, ms per iteration", "GPU s, thread control", "acceleration", "threads/block × moves/thread chosen",
			"GPU s, 256 threads/block, a thread per neighbour", "acceleration",
			"paper GPU, 256 threads/block (Table 6; Tesla M2050 + Xeon E5620 core)", "paper GPUTex (Table 6; M2050)", "paper GPUTex with thread control (Table 7; M2050)", "paper 1 core s (Table 7 cell a×b: a·b)", "GPU mean best (% above opt.)"}}
}

// luongRow is one instance's measurements: the GPU runs with thread control (gt) and in the paper's Table 6 configuration (gn), and the one-core reference.
type luongRow struct {
	name   string
	in     *solver.Instance
	gt, gn lamRuns
	ref    luongRef
}

// luongMeasure runs every row's GPU searches and one-core reference: one reference at a time after the GPU runs of its instance, or with --workers N, N at a time beside them, largest instance first.
func (r *repro) luongMeasure(g, c solver.Engine, rows []*luongRow, iters, runs int) {
	cpuCap, beside := r.opt.Time, r.opt.Workers
	tabu := func(per string) map[string]string { return map[string]string{"tabu": fmt.Sprint(iters), "per": per} }
	var wg sync.WaitGroup
	if beside > 0 {
		order := slices.Clone(rows)
		slices.SortStableFunc(order, func(a, b *luongRow) int { return b.in.N - a.in.N })
		queue := make(chan *luongRow, len(order))
		for _, x := range order {
			queue <- x
		}
		close(queue)
		for range min(beside, len(order)) {
			wg.Go(func() {
				for x := range queue {
					x.ref = r.luongCPU(c, x.in, iters, cpuCap)
				}
			})
		}
	}
	for _, x := range rows {
		// thread control (per=0: tuned in waves of launches), then the paper's Table 6 configuration
		x.gt = r.seeds(g, x.in, runs, solver.Params{Extra: tabu("0")})
		x.gn = r.seeds(g, x.in, runs, solver.Params{Extra: tabu("1")}.WithExtra("threads", "256"))
		if beside == 0 {
			x.ref = r.luongCPU(c, x.in, iters, cpuCap)
		}
	}
	wg.Wait()
}

// luongAddRow adds x's row beside the paper's cells, logs it, and returns the mean times in seconds of the reference and the two GPU variants.
func (r *repro) luongAddRow(t *Table, x *luongRow, iters int, p6, p7 *paperTable) (cs, ts, ns float64) {
	in := x.in
	m := int64(in.N) * int64(in.N-1) / 2
	ts, okt := x.gt.mean(lamSecs)
	ns, okn := x.gn.mean(lamSecs)
	cs, okc := x.ref.secs, x.ref.ok
	how := "n/a"
	if okc {
		how = fmt.Sprintf("%d (whole search), %.3g", x.ref.timed, 1e3*x.ref.perIt)
		if x.ref.timed < int64(iters) {
			how = fmt.Sprintf("%d of %d (time extrapolated), %.3g", x.ref.timed, iters, 1e3*x.ref.perIt)
		}
	}
	tpb := "n/a"
	if okt {
		tpb = fmt.Sprintf("%d × %d", x.gt[0].Settings.Threads, x.gt[0].Settings.Per)
	}
	gap := "n/a"
	if g, ok := x.gt.mean(func(x solver.Result) float64 { v, _ := gapOf(x.Length, in); return v }); ok && in.Optimum > 0 {
		gap = fmt.Sprintf("%.2f", g)
	}
	p7c := luongPaperCell(p7, x.name, "GPUTex")
	t.AddRow(x.name, in.N, m, fmt.Sprintf("%d / %d", len(x.gt), len(x.gn)), valCell(cs, okc, "%.3g"), how, valCell(ts, okt, "%.3g"), ratioCell(cs, ts, okc, okt), tpb, valCell(ns, okn, "%.3g"), ratioCell(cs, ns, okc, okn),
		luongPaperCell(p6, x.name, "GPU"), luongPaperCell(p6, x.name, "GPUTex"), p7c, luongPaperCPU(p7c), gap)
	r.logf("%s: %d tabu iterations: CPU %.3g s (%s), GPU %.3g s (tc %s, %d runs) %.3g s (256, %d runs)", x.name, iters, cs, how, ts, tpb, len(x.gt), ns, len(x.gn))
	return cs, ts, ns
}

// luongPaperCell is the paper's cell of an instance for the Tesla M2050 and the named version (GPU, GPUTex), PaperNA when missing.
func luongPaperCell(t *paperTable, name, version string) string {
	for _, row := range t.where("instance", name) {
		if len(row) > 5 && strings.Contains(row[2], "M2050") && row[4] == version {
			return row[5]
		}
	}
	return PaperNA
}

// luongNotes are the table's notes: the paper, this machine, the search on both sides, the runs and the one-core reference.
func (r *repro) luongNotes(iters, runs int) []string {
	cpuCap, beside := r.opt.Time, r.opt.Workers
	cpuNote := "one run of the whole search per instance"
	if cpuCap > 0 {
		cpuNote = fmt.Sprintf("one run per instance, stopped after %v (--time); where it stopped early (\"N of %d, time extrapolated\") the time of the whole search is not measured but extrapolated: a one-iteration run (setup: distances, start tour) plus %d - 1 times the mean time of the N - 1 further iterations of the stopped run (every iteration evaluates the whole neighbourhood, so iterations cost about the same)", cpuCap, iters, iters)
	}
	if beside > 0 {
		cpuNote += fmt.Sprintf("; the references ran %d at a time beside the GPU runs (--workers %d), largest instance first, each a single search on one core of the host", beside, beside)
	} else {
		cpuNote += "; the references ran one at a time, after the GPU runs of their instance"
	}
	return []string{"Paper: " + luongCite + "; " + luongHardware + "; paper cells as printed, \"a×b\" = GPU time a s at acceleration b over one core, \".\" = a failed run. Table 7's GPUTex column is the one with thread control; the paper's one-core time is deduced from it as a·b (the paper says it can be deduced so).",
		r.machine(),
		fmt.Sprintf("Search (both sides): swap-climb with tabu=%d: from a random tour, every iteration evaluates all n(n-1)/2 swaps and makes the best admissible one, improving or not; a swapped pair of positions stays tabu for max(10, n/10) iterations unless it gives a new best (aspiration). GPU: threads evaluate the neighbours and their admissibility (tabu state a byte per move), one block chooses and applies the move and keeps the best tour, the whole iteration on the device. Thread control (Luong et al.: launch configurations tried in waves) here tunes the block size and how many consecutive neighbours a thread takes (sharing the distances along a row of the move matrix); the other column is the paper's Table 6 configuration, 256 threads per block and one thread per neighbour. CPU: the same search on one core, the moves of a row priced from three rows of distances (matrix up to 1,000 cities, else computed from the coordinates). Times are whole searches (setup included), mean over the runs.", iters),
		fmt.Sprintf("Runs: %d per GPU variant and instance (the paper's 30 unless --runs; the runs column says how many ran). CPU: %s.", runs, cpuNote),
		"Instances: the paper's eight (Table 6). GPU mean best: quality, which the paper does not report. Plot: luong-time.png (CSV beside it)."}
}
