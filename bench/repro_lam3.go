package bench

import (
	"cmp"
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// lamTrial is one trial of Table 3's throughput protocol: whole schedules, each with a new seed, until one reaches the threshold (the best of CPU SSPM's Table 2 runs).
type lamTrial struct {
	elapsed time.Duration // summed over the trial's runs
	runs    int           // schedules started
	reached bool          // a run reached the threshold
	failed  bool          // a run failed or the suite was stopped: the trial does not count
}

// lamRun runs one schedule with seed, stopped on a tour of at most target or after limit: the best length, the time, and false when the run failed.
type lamRun func(seed uint64, target int64, limit time.Duration) (length int64, elapsed time.Duration, ok bool)

// lamMaxRuns bounds the runs of one trial, for runs that end at once.
const lamMaxRuns = 100000

// lamTimeToThreshold is one trial from seed on: whole runs until one ends at or below thr or the summed time reaches limit (a run gets the time left).
func lamTimeToThreshold(run lamRun, thr int64, limit time.Duration, seed uint64) lamTrial {
	var t lamTrial
	for t.runs < lamMaxRuns {
		left := limit - t.elapsed
		if left <= 0 {
			break
		}
		l, el, ok := run(seed+uint64(t.runs), thr, left)
		t.runs++
		if !ok {
			t.failed = true
			break
		}
		t.elapsed += el
		if l <= thr {
			t.reached = true
			break
		}
	}
	return t
}

// lamTC is one implementation's throughput on one instance: its counted trials (failed ones left out).
type lamTC struct {
	n, reached int
	planned    int           // trials started, counted or not
	sum        time.Duration // the counted trials' time, reached or not
	runs       int           // schedules started over the counted trials
	limit      time.Duration // each trial's cap
}

// summarizeTC counts the trials that did not fail.
func summarizeTC(trials []lamTrial, limit time.Duration) lamTC {
	c := lamTC{limit: limit, planned: len(trials)}
	for _, t := range trials {
		if t.failed {
			continue
		}
		c.n++
		c.sum += t.elapsed
		c.runs += t.runs
		if t.reached {
			c.reached++
		}
	}
	return c
}

// exact reports whether every counted trial reached the threshold.
func (c lamTC) exact() bool { return c.n > 0 && c.reached == c.n }

// tc is TC in 10^-2 per second, the trials over their summed time: exact when every trial reached the threshold, else an upper bound.
func (c lamTC) tc() (float64, bool) {
	if c.n == 0 || c.sum <= 0 {
		return 0, false
	}
	return 100 * float64(c.n) / c.sum.Seconds(), true
}

// mean is the mean time to the threshold: a lower bound unless exact.
func (c lamTC) mean() time.Duration {
	if c.n == 0 {
		return 0
	}
	return c.sum / time.Duration(c.n)
}

// cell is the TC cell: the value, "≤ value" with the trials that did not reach the threshold within the cap, or n/a; and how many counted when a stop cut some short.
func (c lamTC) cell() string {
	v, ok := c.tc()
	var cell string
	switch {
	case !ok:
		cell = "n/a"
	case c.exact():
		cell = fmt.Sprintf("%.2f", v)
	case c.reached == 0:
		cell = fmt.Sprintf("≤ %.2f (not reached within %s in any of %d trials)", v, fmtCap(c.limit), c.n)
	default:
		cell = fmt.Sprintf("≤ %.2f (%d of %d trials reached it; %d not within %s)", v, c.reached, c.n, c.n-c.reached, fmtCap(c.limit))
	}
	if c.n < c.planned {
		cell += fmt.Sprintf(" [%d of %d trials counted: the others were cut by the stop]", c.n, c.planned)
	}
	return cell
}

// fmtCap writes a trial's cap as seconds.
func fmtCap(d time.Duration) string { return fmt.Sprintf("%.3g s", d.Seconds()) }

// speedupCell is GPU TC over CPU SSPM TC: exact when both are, "≥" when only the SSPM figure is a bound, n/a when the GPU's is.
func speedupCell(gpu, sspm lamTC) string {
	g, okG := gpu.tc()
	c, okC := sspm.tc()
	if !okG || !okC || c == 0 || !gpu.exact() {
		return "n/a"
	}
	if !sspm.exact() {
		return fmt.Sprintf("≥ %.1f", g/c)
	}
	return fmt.Sprintf("%.1f", g/c)
}

// lamPool runs Table 3's runs, CPU runs on a core each and GPU runs one at a time; a free slot goes to the waiting run of the lowest priority number (the instance's place in the list), so a stopped run leaves its first rows whole.
type lamPool struct {
	cpu, gpu *lamSlots
}

func newLamPool(cores int) *lamPool {
	return &lamPool{cpu: newLamSlots(max(1, cores)), gpu: newLamSlots(1)}
}

// do runs f on a core of the pool, or alone on the GPU, once no run of a lower priority number waits.
func (p *lamPool) do(gpu bool, prio int, f func()) {
	l := p.cpu
	if gpu {
		l = p.gpu
	}
	l.acquire(prio)
	defer l.release()
	f()
}

// lamSlots is a counting semaphore that serves the lowest priority number first.
type lamSlots struct {
	mu   sync.Mutex
	cond *sync.Cond
	free int
	wait map[int]int // waiters by priority
}

func newLamSlots(n int) *lamSlots {
	l := &lamSlots{free: n, wait: map[int]int{}}
	l.cond = sync.NewCond(&l.mu)
	return l
}

func (l *lamSlots) acquire(prio int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.wait[prio]++
	for l.free == 0 || l.lowerWaits(prio) {
		l.cond.Wait()
	}
	if l.wait[prio]--; l.wait[prio] == 0 {
		delete(l.wait, prio)
	}
	l.free--
	l.cond.Broadcast() // a slot may still be free for the next in line
}

// lowerWaits reports whether a waiter of a lower number than prio waits.
func (l *lamSlots) lowerWaits(prio int) bool {
	for p := range l.wait {
		if p < prio {
			return true
		}
	}
	return false
}

func (l *lamSlots) release() {
	l.mu.Lock()
	l.free++
	l.cond.Broadcast()
	l.mu.Unlock()
}

// table3Cores is the number of CPU runs Table 3 runs at once: --workers, else all cores but one (left to the GPU's host side).
func (s *lamSuite) table3Cores() int {
	return cmp.Or(s.opt.Workers, max(1, runtime.NumCPU()-1))
}

// table3Cap is a trial's cap: --time, else a minute (Quick: a second).
func (s *lamSuite) table3Cap() time.Duration {
	return s.budget(time.Minute, time.Second)
}

// pssmCap is CPU PSSM's cap per trial: pssmFactor times CPU SSPM's mean time to the threshold when that is shorter than the cap.
func (s *lamSuite) pssmCap(sspm lamTC) time.Duration {
	limit := s.table3Cap()
	if sspm.n == 0 || sspm.mean() <= 0 {
		return limit
	}
	return min(limit, time.Duration(s.pssmFactor()*float64(sspm.mean())))
}

// pssmFactor is 5 (the paper stopped CPU PSSM at 5x SSPM's time), times --scale when given.
func (s *lamSuite) pssmFactor() float64 { return 5 * cmp.Or(s.opt.Scale, 1) }

// lamT3In is one instance of Table 3 and CPU SSPM's runs of Table 2 (none when Table 2 did not run: Table 3 then runs them).
type lamT3In struct {
	name  string
	in    *solver.Instance
	sspm  lamRuns
	prior *lamT3Prior // the row of --prior: its SSPM and GPU columns are kept
}

// lamT3Out is what Table 3 measured on one instance.
type lamT3Out struct {
	thr     int64
	haveThr bool
	sspmN   int           // SSPM runs behind the threshold
	sspmT   time.Duration // their mean time
	tc      [3]lamTC      // by lamSSPM, lamPSSM, lamPSPM
	conv    [3]float64    // mean SEC at GPU PSPM's time to the threshold
	convN   [3]int
	convAt  time.Duration
	pssmCap time.Duration // CPU PSSM's cap per trial
	prior   *lamT3Prior   // the columns kept from --prior, if any
}

// params3 is implementation impl's parameters in Table 3: Table 2's, on one core.
func (s *lamSuite) params3(impl int, seed uint64) solver.Params {
	p := s.params(impl, seed)
	if impl != lamPSPM {
		p.Workers = 1
	}
	return p
}

// solve3 runs one of Table 3's runs: false also when the suite was stopped during it (its tour is neither a trial's end nor a full convergence run).
func (s *lamSuite) solve3(impl int, in *solver.Instance, p solver.Params) (solver.Result, bool) {
	x, ok := s.solve(s.eng[impl], in, p)
	if !ok || x.StopReason == solver.StopInterrupt || s.ctx.Err() != nil {
		return solver.Result{}, false
	}
	return x, true
}

// run3 is implementation impl's lamRun on in.
func (s *lamSuite) run3(impl int, in *solver.Instance) lamRun {
	return func(seed uint64, target int64, limit time.Duration) (int64, time.Duration, bool) {
		p := s.params3(impl, seed)
		p.Target, p.TimeLimit = target, limit
		x, ok := s.solve3(impl, in, p)
		return x.Length, x.Elapsed, ok
	}
}

// table3 measures every instance's Table 3 row, the instances side by side over the pool, and adds the rows in the list's order.
func (s *lamSuite) table3(ins []lamT3In) {
	pool := newLamPool(s.table3Cores())
	outs := make([]lamT3Out, len(ins))
	// the thresholds first, so that every instance's GPU trials can start as early as possible
	var wg sync.WaitGroup
	for i := range ins {
		wg.Go(func() { s.threshold3(pool, i, &ins[i]) })
	}
	wg.Wait()
	for i := range ins {
		wg.Go(func() { outs[i] = s.measure3(pool, i, ins[i]) })
	}
	wg.Wait()
	for i, x := range ins {
		s.addRow3(x, outs[i])
	}
}

// threshold3 runs CPU SSPM's whole-schedule runs (seeds 1 .. runs, as Table 2) when Table 2 did not.
func (s *lamSuite) threshold3(pool *lamPool, prio int, x *lamT3In) {
	if len(x.sspm) > 0 || x.prior != nil || s.eng[lamSSPM] == nil {
		return
	}
	res := make([]solver.Result, s.runs)
	ok := make([]bool, s.runs)
	var wg sync.WaitGroup
	for k := range s.runs {
		wg.Go(func() {
			pool.do(false, prio, func() { res[k], ok[k] = s.solve3(lamSSPM, x.in, s.params3(lamSSPM, uint64(k+1))) })
		})
	}
	wg.Wait()
	for k := range res {
		if ok[k] {
			x.sspm = append(x.sspm, res[k])
		}
	}
}

// lamTrialSeed is the first seed of trial k of implementation impl, apart from Table 2's seeds and each other's.
func lamTrialSeed(impl, k int) uint64 { return uint64(1_000_000*(impl+1) + 10_000*(k+1)) }

// lamTrials3 are an instance's Table 3 trials by implementation.
type lamTrials3 struct {
	s      *lamSuite
	pool   *lamPool
	prio   int
	x      lamT3In
	thr    int64
	trials [3][]lamTrial
	wg     sync.WaitGroup // every run of the instance
	done   [3]sync.WaitGroup
}

// start runs impl's trials, each capped by limit; done[impl] ends after them.
func (tr *lamTrials3) start(impl int, limit time.Duration) {
	s, x := tr.s, tr.x
	if s.eng[impl] == nil {
		return
	}
	tr.trials[impl] = make([]lamTrial, s.runs)
	for k := range s.runs {
		tr.done[impl].Add(1)
		tr.wg.Go(func() {
			defer tr.done[impl].Done()
			tr.pool.do(impl == lamPSPM, tr.prio, func() {
				tr.trials[impl][k] = lamTimeToThreshold(s.run3(impl, x.in), tr.thr, limit, lamTrialSeed(impl, k))
			})
			t := tr.trials[impl][k]
			s.logf("%s: %s trial %d: %v after %d run(s), %.3f s", x.name, lamImplName[impl], k+1, map[bool]string{true: "reached", false: "not reached"}[t.reached], t.runs, t.elapsed.Seconds())
		})
	}
}

// measure3 runs the trials of every implementation on one instance, then the convergence runs at GPU PSPM's mean time to the threshold.
func (s *lamSuite) measure3(pool *lamPool, prio int, x lamT3In) lamT3Out {
	o, ok := lamThreshold3(x)
	if !ok {
		return o
	}
	limit := s.table3Cap()
	tr := &lamTrials3{s: s, pool: pool, prio: prio, x: x, thr: o.thr}
	if o.prior == nil {
		tr.start(lamPSPM, limit)
		tr.start(lamSSPM, limit)
	}
	// CPU PSSM's trials once SSPM's are done, capped by SSPM's mean time to the threshold
	tr.wg.Go(func() {
		tr.done[lamSSPM].Wait()
		if o.prior != nil {
			o.pssmCap = min(limit, time.Duration(s.pssmFactor()*float64(o.prior.sspmMean)))
		} else {
			o.tc[lamSSPM] = summarizeTC(tr.trials[lamSSPM], limit)
			o.pssmCap = s.pssmCap(o.tc[lamSSPM])
		}
		tr.start(lamPSSM, o.pssmCap)
	})
	tr.done[lamPSPM].Wait()
	at := time.Duration(0)
	if o.prior != nil {
		at = o.prior.convAt
	} else {
		o.tc[lamPSPM] = summarizeTC(tr.trials[lamPSPM], limit)
		at = o.tc[lamPSPM].mean()
	}
	var conv [3][]float64
	var convOK [3][]bool
	if at > 0 {
		o.convAt = at
		conv, convOK = s.startConv3(pool, prio, x, at, &tr.wg)
	}
	tr.wg.Wait()
	o.tc[lamPSSM] = summarizeTC(tr.trials[lamPSSM], o.pssmCap)
	o.meanConv(conv, convOK)
	s.log3(x, &o)
	return o
}

// lamThreshold3 starts one instance's Table 3 result with its threshold: from --prior, else the best of Table 2's SSPM runs; false when there is neither.
func lamThreshold3(x lamT3In) (o lamT3Out, ok bool) {
	if o.prior = x.prior; o.prior != nil {
		o.thr, o.haveThr = o.prior.thr, true
		return o, true
	}
	best, ok := x.sspm.best()
	if !ok {
		return o, false
	}
	o.thr, o.haveThr, o.sspmN = best.Length, true, len(x.sspm)
	m, _ := x.sspm.mean(lamSecs)
	o.sspmT = time.Duration(m * float64(time.Second))
	return o, true
}

// startConv3 starts the convergence runs of every implementation on x with time limit at, counted in wg, and returns the slices that they fill with their gaps and whether each run ended.
func (s *lamSuite) startConv3(pool *lamPool, prio int, x lamT3In, at time.Duration, wg *sync.WaitGroup) (conv [3][]float64, convOK [3][]bool) {
	for impl, eng := range s.eng {
		if eng == nil {
			continue
		}
		conv[impl], convOK[impl] = make([]float64, s.runs), make([]bool, s.runs)
		for k := range s.runs {
			wg.Go(func() {
				pool.do(impl == lamPSPM, prio, func() {
					p := s.params3(impl, uint64(200+k))
					p.TimeLimit = at
					if r, ok := s.solve3(impl, x.in, p); ok {
						conv[impl][k], _ = gapOf(r.Length, x.in)
						convOK[impl][k] = true
					}
				})
			})
		}
	}
	return conv, convOK
}

// meanConv sets each implementation's mean convergence gap and its number of runs from the runs that ended.
func (o *lamT3Out) meanConv(conv [3][]float64, convOK [3][]bool) {
	for impl := range conv {
		for k := range conv[impl] {
			if convOK[impl][k] {
				o.conv[impl] += conv[impl][k]
				o.convN[impl]++
			}
		}
		if o.convN[impl] > 0 {
			o.conv[impl] /= float64(o.convN[impl])
		}
	}
}

// log3 logs one instance's Table 3 result: its threshold, times to it and convergence gaps.
func (s *lamSuite) log3(x lamT3In, o *lamT3Out) {
	if o.prior != nil {
		s.logf("%s: threshold %d (--prior); TC %s (--prior) / %s / %s (--prior); SEC at %.3f s (--prior): %.2f / %.2f / %.2f", x.name, o.thr,
			o.prior.tcSSPM, o.tc[lamPSSM].cell(), o.prior.tcPSPM, o.convAt.Seconds(), o.conv[0], o.conv[1], o.conv[2])
		return
	}
	sses, _ := x.sspm.mean(lamMPS)
	s.logf("%s: threshold %d (best of %d SSPM runs, mean %.3f s, %.3g e6 moves/s); TC %s / %s / %s; SEC at %.3f s: %.2f / %.2f / %.2f", x.name, o.thr, o.sspmN, o.sspmT.Seconds(), sses,
		o.tc[lamSSPM].cell(), o.tc[lamPSSM].cell(), o.tc[lamPSPM].cell(), o.convAt.Seconds(), o.conv[0], o.conv[1], o.conv[2])
}

// lamImplName names the implementations in progress lines.
var lamImplName = [3]string{lamSSPM: "CPU SSPM", lamPSSM: "CPU PSSM", lamPSPM: "GPU PSPM"}

// addRow3 adds an instance's Table 3 row and its share of the average row.
func (s *lamSuite) addRow3(x lamT3In, o lamT3Out) {
	pt3 := s.pt3
	name := x.name
	thr := "n/a"
	if o.haveThr {
		thr = fmt.Sprint(o.thr)
	}
	for e := range o.tc {
		v, ok := o.tc[e].tc()
		bound := !o.tc[e].exact()
		if p := o.prior; p != nil && e != lamPSSM {
			v, ok, bound = p.sspmV, true, p.sspmBound
			if e == lamPSPM {
				v, bound = p.pspmV, p.pspmBound
			}
		}
		if ok {
			s.sumTC[e] += v
			s.cntTC[e]++
			s.boundTC[e] = s.boundTC[e] || bound
		}
	}
	var convCell, diffCell [3]string
	for e := range convCell {
		convCell[e] = valCell(o.conv[e], o.convN[e] > 0, "%.2f")
		if o.convN[e] > 0 {
			s.sumConv[e] += o.conv[e]
			s.cntConv[e]++
		}
	}
	for i, e := range []int{lamSSPM, lamPSSM} {
		diffCell[i] = valCell(o.conv[e]-o.conv[lamPSPM], o.convN[e] > 0 && o.convN[lamPSPM] > 0, "%.2f")
	}
	at := "n/a"
	if o.convAt > 0 {
		at = fmt.Sprintf("%.3f", o.convAt.Seconds())
		if !o.tc[lamPSPM].exact() {
			at = "≥ " + at
		}
	}
	sspmRuns := "n/a"
	if o.haveThr {
		sspmRuns = fmt.Sprintf("%d, %.3f s", o.sspmN, o.sspmT.Seconds())
	}
	tcSSPM, tcPSPM, speedup := o.tc[lamSSPM].cell(), o.tc[lamPSPM].cell(), speedupCell(o.tc[lamPSPM], o.tc[lamSSPM])
	if p := o.prior; p != nil {
		thr, sspmRuns, tcSSPM, tcPSPM, speedup, at = p.thrCell, p.sspmRuns, p.tcSSPM, p.tcPSPM, p.speedup, p.at
	}
	s.t3.AddRow(name, thr, sspmRuns,
		tcSSPM, pt3.cell("Throughput TC CPU SSPM (10^-2 solutions/s)", name),
		o.tc[lamPSSM].cell(), "not reported",
		tcPSPM, pt3.cell("Throughput TC GPU PSPM (10^-2 solutions/s)", name),
		speedup, pt3.cell("Throughput GPU speedup", name), at,
		convCell[lamSSPM], pt3.cell("Convergence SEC CPU SSPM (%)", name), convCell[lamPSSM], pt3.cell("Convergence SEC CPU PSSM (%)", name),
		convCell[lamPSPM], pt3.cell("Convergence SEC GPU PSPM (%)", name),
		diffCell[0], pt3.cell("GPU improvement over CPU SSPM (SEC difference)", name), diffCell[1], pt3.cell("GPU improvement over CPU PSSM (SEC difference)", name))
}

// averageRow3 adds Table 3's average row: TC means marked "≤" when any instance's TC is a bound.
func (s *lamSuite) averageRow3() {
	pt3 := s.pt3
	tcAvg := func(e int) string {
		return valCell(s.sumTC[e]/float64(s.cntTC[e]), s.cntTC[e] > 0, map[bool]string{true: "≤ ", false: ""}[s.boundTC[e]]+"%.2f")
	}
	conv := func(e int) (float64, bool) { return s.sumConv[e] / float64(max(s.cntConv[e], 1)), s.cntConv[e] > 0 }
	c0, ok0 := conv(lamSSPM)
	c1, ok1 := conv(lamPSSM)
	c2, ok2 := conv(lamPSPM)
	s.t3.AddRow("average", "", "", tcAvg(lamSSPM), pt3.cell("Throughput TC CPU SSPM (10^-2 solutions/s)", "average"),
		tcAvg(lamPSSM), "not reported",
		tcAvg(lamPSPM), pt3.cell("Throughput TC GPU PSPM (10^-2 solutions/s)", "average"), "", pt3.cell("Throughput GPU speedup", "average"), "",
		valCell(c0, ok0, "%.2f"), pt3.cell("Convergence SEC CPU SSPM (%)", "average"), valCell(c1, ok1, "%.2f"), pt3.cell("Convergence SEC CPU PSSM (%)", "average"),
		valCell(c2, ok2, "%.2f"), pt3.cell("Convergence SEC GPU PSPM (%)", "average"),
		valCell(c0-c2, ok0 && ok2, "%.2f"), pt3.cell("GPU improvement over CPU SSPM (SEC difference)", "average"),
		valCell(c1-c2, ok1 && ok2, "%.2f"), pt3.cell("GPU improvement over CPU PSSM (SEC difference)", "average"))
}

// table3Notes are Table 3's protocol notes: the threshold, the trials and their cap, the convergence runs, the cores.
func (s *lamSuite) table3Notes() []string {
	thrFrom := "Table 2's CPU SSPM runs of this invocation"
	if !s.wantTable("table2") {
		thrFrom = fmt.Sprintf("CPU SSPM's %d runs of Table 2 (seeds 1-%d, whole schedule), run for Table 3 alone", s.runs, s.runs)
	}
	notes := []string{
		fmt.Sprintf("Threshold: the best CPU SSPM tour of %s (the paper: the shortest path CPU SSPM found in its Sect. 5.2 runs); \"SSPM runs, mean time\" gives their count and mean schedule time.", thrFrom),
		fmt.Sprintf("TC (time to beat the threshold, %d trials per implementation, TC = trials / their summed time, in 10^-2 per second): a trial runs whole schedules, each with a new seed, until one ends at or below the threshold (the run stops there), its time the sum of its runs' times; a trial is capped at %s (--time). A trial that did not reach the threshold within the cap counts with the time it ran, so the TC of such an instance is an upper bound, written \"≤\" with the count of trials that did not reach it; the speedup is then a lower bound (\"≥\"). The paper reports no TC for CPU PSSM (it never reached the threshold within 5x SSPM's time); ours: its trials start once SSPM's are done and are capped at %gx CPU SSPM's mean time to the threshold on the instance (the paper's 5x, times --scale) when that is shorter than the cap above.", s.runs, fmtCap(s.table3Cap()), s.pssmFactor()),
		fmt.Sprintf("Convergence: every implementation runs %d times (new seeds) for GPU PSPM's mean time to the threshold on that instance (\"GPU mean time to threshold s\"; \"≥\" when some GPU trial did not reach it), its schedule cut there; SEC averaged over the runs. The SEC difference columns are CPU minus GPU, as the paper's improvement columns.", s.runs),
		fmt.Sprintf("Cores: every CPU run of Table 3 takes one core (CPU SSPM at Pm %d evaluates its moves on one core, the engine's choice below 64 moves per core; CPU PSSM's 12 searches share one core, where the paper gave them 12), and %d of them run at once on the host's cores (--workers), the instances side by side, a free core going to the instance earliest in the list; the GPU runs one at a time, beside them. A run cut short by a stop of the suite is not counted (the trial it belonged to neither).", s.threads(), s.table3Cores()),
		"GPU PSPM checks its time limit and target between batches of temperature steps, so its times include that granularity; every time is the engine's own (its set-up included).",
	}
	if n := s.priorNote(); n != "" {
		notes = append(notes, n)
	}
	return notes
}

// lamT3Prior is an instance's row of an earlier Table 3 result (--prior): its threshold and its CPU SSPM and GPU PSPM columns, kept as they were.
type lamT3Prior struct {
	thr                  int64
	thrCell, sspmRuns    string
	tcSSPM, tcPSPM       string // the TC cells as written
	speedup, at          string
	sspmV, pspmV         float64 // their values (10^-2 /s)
	sspmBound, pspmBound bool    // "≤": an upper bound
	sspmMean, convAt     time.Duration
}

// lamT3PriorColumns are the columns a prior row needs, by header name.
var lamT3PriorColumns = []string{"instance", "threshold (SSPM best)", "SSPM runs, mean time", "TC CPU SSPM", "TC GPU PSPM", "GPU speedup", "GPU mean time to threshold s"}

// lamT3PriorRow reads one lam-table3.csv row: the instance's name and its prior (nil for the average rows).
func lamT3PriorRow(col map[string]int, rec []string) (string, *lamT3Prior, error) {
	cell := func(name string) string {
		if i := col[name]; i < len(rec) {
			return strings.TrimSpace(rec[i])
		}
		return ""
	}
	name := cell("instance")
	thr, err := strconv.ParseInt(cell("threshold (SSPM best)"), 10, 64)
	if err != nil {
		return name, nil, nil
	}
	p := &lamT3Prior{thr: thr, thrCell: cell("threshold (SSPM best)"), sspmRuns: cell("SSPM runs, mean time"),
		tcSSPM: cell("TC CPU SSPM"), tcPSPM: cell("TC GPU PSPM"), speedup: cell("GPU speedup"), at: cell("GPU mean time to threshold s")}
	var ok bool
	if p.sspmV, p.sspmBound, ok = lamBoundValue(p.tcSSPM, "≤"); !ok || p.sspmV <= 0 {
		return name, nil, fmt.Errorf("TC CPU SSPM %q is not a measured TC", p.tcSSPM)
	}
	if p.pspmV, p.pspmBound, ok = lamBoundValue(p.tcPSPM, "≤"); !ok || p.pspmV <= 0 {
		return name, nil, fmt.Errorf("TC GPU PSPM %q is not a measured TC", p.tcPSPM)
	}
	at, _, ok := lamBoundValue(p.at, "≥")
	if !ok || at <= 0 {
		return name, nil, fmt.Errorf("GPU mean time to threshold %q is not a time", p.at)
	}
	p.convAt = time.Duration(at * float64(time.Second))
	// TC = 100 / mean time in seconds: the mean comes back from the printed TC, to its rounding
	p.sspmMean = time.Duration(100 / p.sspmV * float64(time.Second))
	return name, p, nil
}

// readLamT3Prior reads the rows of an earlier lam-table3.csv whose threshold, CPU SSPM TC and GPU PSPM mean time were measured; errors name the file, the line and the cell.
func readLamT3Prior(path string) (map[string]*lamT3Prior, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--prior: %w", err)
	}
	defer f.Close()
	cr := csv.NewReader(f)
	cr.FieldsPerRecord = -1
	recs, err := cr.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("--prior %s: %w", path, err)
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("--prior %s: empty file", path)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		if _, dup := col[h]; !dup {
			col[h] = i
		}
	}
	for _, c := range lamT3PriorColumns {
		if _, ok := col[c]; !ok {
			return nil, fmt.Errorf("--prior %s: line 1: no column %q (want a lam-table3.csv)", path, c)
		}
	}
	out := map[string]*lamT3Prior{}
	for li, rec := range recs[1:] {
		name, p, err := lamT3PriorRow(col, rec)
		if err != nil {
			return nil, fmt.Errorf("--prior %s: line %d (%s): %v", path, li+2, name, err)
		}
		if p != nil {
			out[name] = p
		}
	}
	if len(out) == 0 {
		return nil, errors.New("--prior " + path + ": no row with a threshold")
	}
	return out, nil
}

// lamBoundValue reads a cell "v", "mark v" or "mark v (...)": the value and whether it carries the mark.
func lamBoundValue(s, mark string) (float64, bool, bool) {
	s = strings.TrimSpace(s)
	bound := strings.HasPrefix(s, mark)
	s = strings.TrimSpace(strings.TrimPrefix(s, mark))
	if i := strings.IndexAny(s, " ["); i >= 0 {
		s = s[:i]
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, false, false
	}
	return v, bound, true
}

// attachPrior gives each instance its row of --prior, when given; an instance without one runs whole.
func (s *lamSuite) attachPrior(ins []lamT3In) error {
	if s.opt.Prior == "" {
		return nil
	}
	rows, err := readLamT3Prior(s.opt.Prior)
	if err != nil {
		return err
	}
	for i := range ins {
		if p, ok := rows[ins[i].name]; ok {
			ins[i].prior = p
			s.priorNames = append(s.priorNames, ins[i].name)
		} else {
			s.logf("%s: no row in --prior %s: run whole", ins[i].name, s.opt.Prior)
		}
	}
	return nil
}

// priorNote is Table 3's note on the rows whose columns came from --prior ("" when none did).
func (s *lamSuite) priorNote() string {
	if len(s.priorNames) == 0 {
		return ""
	}
	return fmt.Sprintf("Kept from --prior %s, not run here: the threshold, \"SSPM runs, mean time\", TC CPU SSPM, TC GPU PSPM, the GPU speedup and the GPU mean time to the threshold of %s. On those rows CPU PSSM's trials are capped at %gx CPU SSPM's mean time to the threshold read back from its printed TC (100 / TC s, to the TC's rounding), and the convergence runs last the printed GPU mean time.",
		s.opt.Prior, strings.Join(s.priorNames, ", "), s.pssmFactor())
}
