package bench

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/tsplab/tsplab/internal/atomicfile"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/gen"
)

// TTQInstances are the ttq suite's instances: TSPLIB files by name, "uniform-N" for `tsp gen --kind uniform --n N --seed 1`, and DIMACS TSP Challenge names (C100k.1 is `tsp gen --kind portcgen --n 100000 --seed 1000001`), generated in the process; --instances also takes E1M.0, E10M.0 and the challenge's other E and C instances.
var TTQInstances = []string{"pr2392", "fnl4461", "usa13509", "d18512", "pla85900", "uniform-100000", "C100k.1", "uniform-1000000"}

// ttqQuick is the --quick version's instances.
var ttqQuick = []string{"pr2392", "usa13509"}

// TTQThresholds are the gaps (percent) whose time to reach the ttq suite reports.
var TTQThresholds = []float64{5, 2, 1, 0.5, 0.2}

// TTQAt are the times (seconds from the start) at which the ttq suite reports each run's gap, where they are within its budget.
var TTQAt = []float64{10, 20, 30, 60}

// ttqParts are the engines --only can pick in the ttq suite.
var ttqParts = []string{"gpu", "cpu", "lkh"}

// BeardwoodConstant makes 0.7124·√(N·A) the optimal tour of N uniform random points in area A (Beardwood, Halton & Hammersley; the value from Johnson, McGeoch & Rothberg 1996, and Percus & Martin 1996).
const BeardwoodConstant = 0.7124

func init() {
	Register("ttq", "time to quality: GPU and CPU auto side by side on pr2392, fnl4461, usa13509, d18512, pla85900, uniform 100,000, DIMACS C100k.1 and uniform 1,000,000 (DIMACS E1M.0, E10M.0 etc. by --instances; best length over time, time to 5/2/1/0.5/0.2 %, gap at 10/20/30/60 s, PNG plot; --runs N: seeds 1..N and their mean; --peer-lkh PATH: an LKH-3 binary beside them; --only gpu,cpu,lkh)", runTTQ)
}

// ttqBudget is the time per run of an instance of n cities: 20 s below 10,000 cities, 30 s up to 50,000, 60 s above (where pla85900's and the million cities' floors are stated).
func ttqBudget(opt Options, n int) time.Duration {
	if opt.Time > 0 {
		return opt.Time
	}
	if opt.Quick {
		return 3 * time.Second
	}
	switch {
	case n < 10000:
		return 20 * time.Second
	case n <= 50000:
		return 30 * time.Second
	}
	return 60 * time.Second
}

// ttqPoint is one point of a best-so-far curve.
type ttqPoint struct {
	t   time.Duration
	len int64
}

// ttqInstance loads the suite's instance name: "uniform-N" is generated (uniform, seed 1), a DIMACS TSP Challenge name (E1M.0, C100k.1) by the challenge's generator, any other name read from the TSPLIB folder.
func (r *repro) ttqInstance(name string) (in *solver.Instance, uniform bool, err error) {
	if d, ok := gen.ParseDIMACS(name); ok {
		in, err = d.Generate()
		return in, d.Kind == "portgen", err
	}
	rest, ok := strings.CutPrefix(name, "uniform-")
	if !ok {
		in, err = r.load(name)
		return in, false, err
	}
	var n int
	if _, err := fmt.Sscan(rest, &n); err != nil {
		return nil, false, fmt.Errorf("ttq suite: instance %q: want uniform-N", name)
	}
	in, err = gen.Generate("uniform", n, 1)
	return in, true, err
}

// ttqReach is, for each of TTQThresholds, the first snapshot time (in seconds) whose gap is within it, NaN when none is.
func ttqReach(pts []ttqPoint, gap func(int64) float64) []float64 {
	reach := make([]float64, len(TTQThresholds))
	for i, th := range TTQThresholds {
		reach[i] = math.NaN()
		for _, p := range pts {
			if gap(p.len) <= th {
				reach[i] = p.t.Seconds()
				break
			}
		}
	}
	return reach
}

// ttqAt is, for each of TTQAt, the best length of pts at that time: 0 with no tour yet, -1 past the budget d; at d itself the run's last point, which may come a moment after d.
func ttqAt(pts []ttqPoint, d time.Duration) []int64 {
	out := make([]int64, len(TTQAt))
	for i, sec := range TTQAt {
		at := time.Duration(sec * float64(time.Second))
		if at > d {
			out[i] = -1
			continue
		}
		for _, p := range pts {
			if p.t <= at || at == d {
				out[i] = p.len
			}
		}
	}
	return out
}

// fmtAt is a length of ttqAt as the table writes its gap: "" past the budget, "—" with no tour yet.
func fmtAt(l int64, gap func(int64) float64, hasRef bool) string {
	switch {
	case l < 0:
		return ""
	case l == 0:
		return "—"
	case !hasRef:
		return "n/a"
	}
	return fmt.Sprintf("%.3f", gap(l))
}

// fmtReach is a time to a threshold as the table writes it: "—" when it was not reached.
func fmtReach(sec float64) string {
	if math.IsNaN(sec) {
		return "—"
	}
	return fmt.Sprintf("%.2f", sec)
}

// ttqReference returns the length gaps are measured against and its name: the optimum when known, else a DIMACS TSP Challenge instance's best known length, else for a generated uniform instance the Beardwood estimate over the bounding box.
func ttqReference(in *solver.Instance, uniform bool) (float64, string) {
	if in.Optimum > 0 {
		return float64(in.Optimum), "optimum"
	}
	if d, ok := gen.ParseDIMACS(in.Name); ok && d.BestKnown > 0 && !in.HasOptimum() {
		return float64(d.BestKnown), "best known"
	}
	if uniform && in.HasCoords() && in.N > 0 {
		x0, x1, y0, y1 := in.X[0], in.X[0], in.Y[0], in.Y[0]
		for i := 1; i < in.N; i++ {
			x0, x1 = math.Min(x0, in.X[i]), math.Max(x1, in.X[i])
			y0, y1 = math.Min(y0, in.Y[i]), math.Max(y1, in.Y[i])
		}
		return BeardwoodConstant * math.Sqrt(float64(in.N)*(x1-x0)*(y1-y0)), "0.7124·√(N·A)"
	}
	return 0, ""
}

// ttqRun runs e on in for d and returns the best length over time: every snapshot's tour lengths (current and best) folded into a running minimum, then the exact final length.
func (r *repro) ttqRun(ctx context.Context, e solver.Engine, in *solver.Instance, d time.Duration, workers int, seed uint64, extra map[string]string) ([]ttqPoint, solver.Result, error) {
	var pts []ttqPoint // written by the pipeline's one goroutine, read after the run
	best := int64(math.MaxInt64)
	record := func(s solver.Snapshot) {
		l := best
		if s.Best != nil && s.BestLength > 0 {
			l = min(l, s.BestLength)
		}
		if s.Tour != nil && s.Length > 0 {
			l = min(l, s.Length)
		}
		if l < best {
			best = l
			pts = append(pts, ttqPoint{s.Elapsed, l})
		}
	}
	t0 := time.Now()
	res, err := r.run(ctx, e, in, solver.Params{TimeLimit: d, Seed: seed, Workers: workers, Extra: extra}, record)
	el := time.Since(t0)
	if err != nil {
		return nil, res, err
	}
	if len(pts) == 0 || res.Length < pts[len(pts)-1].len {
		pts = append(pts, ttqPoint{el, res.Length})
	}
	return pts, res, nil
}

func runTTQ(ctx context.Context, opt Options, out io.Writer) error {
	r, err := newRepro(ctx, "ttq", opt)
	if err != nil {
		return err
	}
	names := r.instances(TTQInstances, ttqQuick)
	runs := max(opt.Runs, 1)
	lkh, err := r.ttqPeer()
	if err != nil {
		return err
	}
	tb := &Table{Title: ttqTitle(opt, lkh, runs), Header: ttqHeader(), file: "ttq"}
	curves := &Table{Header: []string{"instance", "engine", "elapsed_s", "best_length", "gap_percent"}}
	for _, name := range names {
		if err := r.ttqOneInstance(ctx, opt, name, lkh, runs, tb, curves); err != nil {
			return err
		}
	}
	tb.Notes = append(tb.Notes, ttqNotes(r, lkh, runs)...)
	if opt.OutDir != "" {
		if err := saveCSV(filepath.Join(opt.OutDir, "ttq-curves.csv"), curves); err != nil {
			return err
		}
	}
	return r.finish(out, nil, tb)
}

// ttqWants reports whether the suite runs part: all parts when --only is empty.
func ttqWants(opt Options, part string) bool {
	return len(opt.Only) == 0 || slices.Contains(opt.Only, part)
}

// ttqPeer checks --only and returns the LKH-3 binary to run, or "" when the suite runs no LKH-3.
func (r *repro) ttqPeer() (string, error) {
	opt := r.opt
	if err := r.checkOnly(ttqParts...); err != nil {
		return "", err
	}
	var lkh string
	if opt.PeerLKH != "" && ttqWants(opt, "lkh") {
		var err error
		if lkh, err = lkhBinary(opt.PeerLKH); err != nil {
			return "", err
		}
	} else if slices.Contains(opt.Only, "lkh") {
		return "", fmt.Errorf("ttq suite: --only lkh needs --peer-lkh PATH")
	}
	return lkh, nil
}

// ttqTitle is the suite table's title, naming the engines that run and the number of runs.
func ttqTitle(opt Options, lkh string, runs int) string {
	var who []string
	if ttqWants(opt, solver.BackendGPU) {
		who = append(who, "auto on the GPU")
	}
	if ttqWants(opt, solver.BackendCPU) {
		who = append(who, "auto on the CPU")
	}
	if lkh != "" {
		who = append(who, "LKH-3 on one core")
	}
	if len(who) > 1 {
		who = append(who[:len(who)-2], who[len(who)-2]+" and "+who[len(who)-1])
	}
	title := fmt.Sprintf("Time to quality: %s, same host, one run each (seed 1)", strings.Join(who, ", "))
	if runs > 1 {
		title = fmt.Sprintf("Time to quality: %s, same host, %d runs each (seeds 1–%d) and their mean", strings.Join(who, ", "), runs, runs)
	}
	return title
}

// ttqEngine is one engine's rows, curves and mean on one instance, filled seed by seed in ttqOrder, then written grouped by engine.
type ttqEngine struct {
	part, label  string
	ok           bool // available
	run          func(seed uint64) ([]ttqPoint, solver.Result, error)
	rows, curves [][]any
	series       []Series
	mean         ttqMean
}

// ttqCase is one instance as the suite measures it: its name and size, its reference length and the run budget.
type ttqCase struct {
	name    string
	n       int
	ref     float64
	refName string
	d       time.Duration
	gap     func(l int64) float64
}

// ttqOneInstance runs the wanted engines on one instance for every seed, adds their rows to tb and curves, and saves the instance's plot.
func (r *repro) ttqOneInstance(ctx context.Context, opt Options, name, lkh string, runs int, tb, curves *Table) error {
	in, uniform, err := r.ttqInstance(name)
	if err != nil {
		return err
	}
	ref, refName := ttqReference(in, uniform)
	d := ttqBudget(opt, in.N)
	c := ttqCase{name: name, n: in.N, ref: ref, refName: refName, d: d}
	c.gap = func(l int64) float64 {
		if ref <= 0 {
			return math.NaN()
		}
		return 100 * (float64(l) - ref) / ref
	}
	engines := r.ttqEngines(ctx, opt, in, d, lkh)
	for seed := 1; seed <= runs; seed++ {
		for _, i := range ttqOrder(seed, len(engines)) {
			x := engines[i]
			if !x.ok {
				continue
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			lbl := x.label
			if runs > 1 {
				lbl = fmt.Sprintf("%s, seed %d", x.label, seed)
			}
			if err := r.ttqSeed(ctx, x, c, lbl, seed); err != nil {
				return err
			}
		}
	}
	var series []Series
	for _, x := range engines {
		if !x.ok {
			tb.AddRow(ttqErrRow(name, in.N, refName, x.label, "unavailable")...)
			continue
		}
		for _, row := range x.rows {
			tb.AddRow(row...)
		}
		for _, cv := range x.curves {
			curves.AddRow(cv...)
		}
		series = append(series, x.series...)
		if runs > 1 && x.mean.n > 0 {
			tb.AddRow(x.mean.row(name, in.N, refName, fmt.Sprintf("%s, mean of %d", x.label, x.mean.n), c.gap, ref > 0)...)
		}
	}
	if opt.OutDir != "" && ref > 0 {
		if err := SavePlot(opt.OutDir, "ttq-"+name, fmt.Sprintf("%s: gap above %s against time", name, refName),
			"seconds since the start", "gap %", true, true, series...); err != nil {
			return err
		}
	}
	return nil
}

// ttqEngines lists the wanted engines for instance in with budget d, marking those this host lacks unavailable.
func (r *repro) ttqEngines(ctx context.Context, opt Options, in *solver.Instance, d time.Duration, lkh string) []*ttqEngine {
	var engines []*ttqEngine
	for _, b := range []string{solver.BackendGPU, solver.BackendCPU} {
		if !ttqWants(opt, b) {
			continue
		}
		x := &ttqEngine{part: b, label: "auto " + b}
		if e := r.engine("auto", b); e != nil {
			x.ok = true
			x.run = func(seed uint64) ([]ttqPoint, solver.Result, error) {
				return r.ttqRun(ctx, e, in, d, opt.Workers, seed, r.extraFor(e))
			}
		}
		engines = append(engines, x)
	}
	if lkh != "" {
		engines = append(engines, &ttqEngine{part: "lkh", label: LKHLabel, ok: true,
			run: func(seed uint64) ([]ttqPoint, solver.Result, error) {
				return ttqRunLKH(ctx, r, lkh, in, d, seed)
			}})
	}
	return engines
}

// ttqSeed runs engine x once with seed seed on case c and records its row, curve, series and share of the mean under label lbl.
func (r *repro) ttqSeed(ctx context.Context, x *ttqEngine, c ttqCase, lbl string, seed int) error {
	name, gap, ref := c.name, c.gap, c.ref
	r.logf("%s (%d cities): %s for %v", name, c.n, lbl, c.d)
	pts, res, err := x.run(uint64(seed))
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		r.logf("%s on %s: %v", lbl, name, err)
		x.rows = append(x.rows, ttqErrRow(name, c.n, c.refName, lbl, "error: "+err.Error()))
		return nil
	}
	if x.part == solver.BackendGPU {
		r.device = res.Device
	}
	reach := ttqReach(pts, gap)
	at := ttqAt(pts, c.d)
	var sr Series
	sr.Name = lbl
	for _, p := range pts {
		g := gap(p.len)
		x.curves = append(x.curves, []any{name, lbl, fmt.Sprintf("%.3f", p.t.Seconds()), p.len, fmt.Sprintf("%.4f", g)})
		sr.X = append(sr.X, math.Max(p.t.Seconds(), 1e-3))
		// log scale: the optimum itself is drawn at 0.001 %
		sr.Y = append(sr.Y, math.Max(g, 1e-3))
	}
	if len(pts) == 0 {
		// the peer can end its budget without a tour
		row := ttqErrRow(name, c.n, c.refName, lbl, "no tour")
		row[4] = fmtSec(res.Elapsed)
		x.rows = append(x.rows, row)
		x.mean.add(res, 0, reach, at)
		r.logf("%s %s: no tour in %v", name, lbl, res.Elapsed.Round(time.Millisecond))
		return nil
	}
	x.series = append(x.series, sr)
	gs := "n/a"
	if ref > 0 {
		gs = fmt.Sprintf("%.3f", gap(res.Length))
	}
	row := []any{name, c.n, c.refName, lbl, fmtSec(res.Elapsed), fmt.Sprintf("%.2f", pts[0].t.Seconds()), res.Length, gs}
	for _, v := range reach {
		row = append(row, fmtReach(v))
	}
	for _, l := range at {
		row = append(row, fmtAt(l, gap, ref > 0))
	}
	x.rows = append(x.rows, row)
	x.mean.add(res, pts[0].t, reach, at)
	r.logf("%s %s: %d (%s %%) in %v", name, lbl, res.Length, gs, res.Elapsed.Round(time.Millisecond))
	return nil
}

// ttqNotes are the suite table's notes: the machine, how times and gaps are read, and the peer and order notes that apply.
func ttqNotes(r *repro, lkh string, runs int) []string {
	notes := []string{r.machine(),
		"Times are wall clock from the engine's start, read from its snapshots (best length so far; both the current and the best tour of a snapshot count) and the exact final length; \"—\": not reached.",
		"Gaps: above the optimum where optima.csv knows it, above the best known length for DIMACS TSP Challenge instances (gen.BestKnownSource), else above 0.7124·√(N·A) (A: the bounding box) for the generated uniform instances.",
		"The plots draw gaps below 0.001 % (the optimum, or below the uniform estimate) at 0.001 %. Budgets: 20 s below 10,000 cities, 30 s up to 50,000, 60 s above (or --time); the curves are in ttq-curves.csv and ttq-INSTANCE.png.",
		"Gap at 10/20/30/60 s: of the best tour by then; blank past the run's budget."}
	if lkh != "" {
		notes = append(notes, lkhNote())
	}
	if runs > 1 {
		notes = append(notes, "Order: seed by seed, the engines taking turns to go first (seed 1 GPU then CPU, seed 2 CPU then GPU, …), so that neither always runs later in the process.")
	}
	return notes
}

// ttqOrder is the order in which the suite's n engines run seed seed: the list's for odd seeds, reversed for even ones, so that no engine always runs after the others.
func ttqOrder(seed, n int) []int {
	o := make([]int, n)
	for i := range o {
		o[i] = i
		if seed%2 == 0 {
			o[i] = n - 1 - i
		}
	}
	return o
}

// saveCSV writes only the CSV of t (a long data table no one reads as markdown), replaced whole as Table.Save writes its files.
func saveCSV(path string, t *Table) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(path, t.CSV)
}

// ttqMean sums an engine's runs on one instance for the mean row.
type ttqMean struct {
	n              int
	elapsed, first time.Duration
	length         float64
	reach          [][]float64 // each run's times to the thresholds (NaN: not reached)
	at             [][]int64   // each run's lengths at TTQAt (see ttqAt)
	tours          int         // runs with a tour, whose first tour and length the mean is of
}

func (m *ttqMean) add(res solver.Result, first time.Duration, reach []float64, at []int64) {
	m.n++
	m.elapsed += res.Elapsed
	if res.Length > 0 {
		m.tours++
		m.first += first
		m.length += float64(res.Length)
	}
	m.reach = append(m.reach, reach)
	m.at = append(m.at, at)
}

// row is the mean row: the mean time, first tour, length and its gap, and per threshold the mean time when every run reached it, else how many did ("— (k of n)").
func (m *ttqMean) row(name string, n int, refName, label string, gap func(int64) float64, hasRef bool) []any {
	if m.tours < m.n {
		row := ttqErrRow(name, n, refName, label, fmt.Sprintf("no tour in %d of %d", m.n-m.tours, m.n))
		row[4] = fmtSec(m.elapsed / time.Duration(m.n))
		return row
	}
	l := m.length / float64(m.n)
	gs := "n/a"
	if hasRef {
		gs = fmt.Sprintf("%.3f", gap(int64(math.Round(l))))
	}
	row := []any{name, n, refName, label, fmtSec(m.elapsed / time.Duration(m.n)), fmt.Sprintf("%.2f", (m.first / time.Duration(m.n)).Seconds()),
		fmt.Sprintf("%.0f", l), gs}
	for i := range TTQThresholds {
		sum, got := 0.0, 0
		for _, r := range m.reach {
			if !math.IsNaN(r[i]) {
				sum += r[i]
				got++
			}
		}
		row = append(row, meanOf(sum, got, m.n, "%.2f"))
	}
	for i := range TTQAt {
		sum, got, past := 0.0, 0, false
		for _, a := range m.at {
			switch {
			case a[i] < 0:
				past = true
			case a[i] > 0:
				sum += gap(a[i])
				got++
			}
		}
		switch {
		case past:
			row = append(row, "")
		case !hasRef:
			row = append(row, "n/a")
		default:
			row = append(row, meanOf(sum, got, m.n, "%.3f"))
		}
	}
	return row
}

// meanOf is the mean of got values summing to sum when all n runs gave one, else "—" or "— (got of n)".
func meanOf(sum float64, got, n int, format string) string {
	switch {
	case got == n:
		return fmt.Sprintf(format, sum/float64(got))
	case got == 0:
		return "—"
	}
	return fmt.Sprintf("— (%d of %d)", got, n)
}

// ttqHeader is the suite's table header: the run, its times to TTQThresholds, its gaps at TTQAt.
func ttqHeader() []string {
	h := []string{"instance", "n", "gap against", "engine", "time s", "first tour s", "length", "gap %"}
	for _, th := range TTQThresholds {
		h = append(h, fmt.Sprintf("to %g %%", th))
	}
	for _, sec := range TTQAt {
		h = append(h, fmt.Sprintf("gap %% at %g s", sec))
	}
	return h
}

// ttqErrRow is a row with no measurement: what stands in the gap column and the rest blank.
func ttqErrRow(name string, n int, refName, label, what string) []any {
	row := []any{name, n, refName, label, "n/a", "", "", what}
	for range len(TTQThresholds) + len(TTQAt) {
		row = append(row, "")
	}
	return row
}
