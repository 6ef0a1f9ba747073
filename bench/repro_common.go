package bench

import (
	"context"
	"errors"
	"fmt"
	"image/color"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/tsplab/tsplab/internal/atomicfile"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/session"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// repro is what the suites share: options, progress lines, instance loading, engine lookup and the GPU's description.
type repro struct {
	ctx    context.Context
	opt    Options
	name   string
	device string // the GPU, from a Result, or why there is none
	papers *papers
	mu     sync.Mutex // guards the log and device, which runs in parallel write
	// pl runs the suite's runs, keeping the last whole ascent for the next run on the instance
	pl session.Pipeline
}

// run runs e on in with p through the pipeline as a suite measures it: no bound beside it, the whole budget, snapshots to on.
func (r *repro) run(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, on func(solver.Snapshot)) (solver.Result, error) {
	plan, err := r.pl.Prepare(e, in, p)
	if err != nil {
		return solver.Result{}, err
	}
	out, err := plan.Run(ctx, session.Request{NoOptimumStop: true, OnSnapshot: on})
	return out.Result, err
}

func newRepro(ctx context.Context, name string, opt Options) (*repro, error) {
	if opt.TSPLIBDir == "" {
		return nil, fmt.Errorf("%s suite: no TSPLIB folder (set TSPLIB_DIR or pass --tsplib)", name)
	}
	return &repro{ctx: ctx, opt: opt, name: name, device: "not used yet", papers: newPapers(opt.PapersDir)}, nil
}

func (r *repro) logf(format string, a ...any) {
	if r.opt.Log != nil {
		r.mu.Lock()
		defer r.mu.Unlock()
		fmt.Fprintf(r.opt.Log, r.name+": "+format+"\n", a...)
	}
}

// load reads an instance of the suite's list from the TSPLIB folder.
func (r *repro) load(name string) (*solver.Instance, error) {
	return tsplib.Load(filepath.Join(r.opt.TSPLIBDir, name+".tsp"), r.opt.TSPLIBDir)
}

// engine returns the engine for (algo, backend) or nil; for the GPU the reason it is missing becomes the device line.
func (r *repro) engine(algo, backend string) solver.Engine {
	e, err := solver.Lookup(algo, backend)
	if err == nil {
		err = e.Available()
	}
	if err != nil {
		if backend == solver.BackendGPU && !strings.HasPrefix(r.device, "NVIDIA") {
			r.device = "GPU unavailable: " + err.Error()
		}
		return nil
	}
	return e
}

// solve runs e (nil: not available) with the suite's engine options over p's own and records the GPU's name.
func (r *repro) solve(e solver.Engine, in *solver.Instance, p solver.Params) (solver.Result, bool) {
	if e == nil || r.ctx.Err() != nil {
		return solver.Result{}, false
	}
	if p.Workers == 0 {
		p.Workers = r.opt.Workers
	}
	if extra := r.extraFor(e); extra != nil {
		p.Extra = maps.Clone(p.Extra)
		if p.Extra == nil {
			p.Extra = extra
		}
		maps.Copy(p.Extra, extra)
	}
	res, err := r.run(r.ctx, e, in, p, nil)
	if err != nil {
		r.logf("%s/%s on %s: %v", e.Name(), e.Backend(), in.Name, err)
		return solver.Result{}, false
	}
	if e.Backend() == solver.BackendGPU {
		r.mu.Lock()
		r.device = res.Device
		r.mu.Unlock()
	}
	return res, true
}

// extraFor returns the suite's engine options (Options.Extra) that e takes, nil when none.
func (r *repro) extraFor(e solver.Engine) map[string]string {
	var extra map[string]string
	opts := solver.OptionsFor(e.Name(), e.Backend())
	for k, v := range r.opt.Extra {
		if _, ok := opts.Lookup(k); ok {
			if extra == nil {
				extra = map[string]string{}
			}
			extra[k] = v
		}
	}
	return extra
}

// seeds runs e on in with seeds 1..runs, stopping at the first run that fails.
func (r *repro) seeds(e solver.Engine, in *solver.Instance, runs int, p solver.Params) lamRuns {
	var out lamRuns
	for k := 0; k < runs; k++ {
		p.Seed = uint64(k + 1)
		x, ok := r.solve(e, in, p)
		if !ok {
			break
		}
		out = append(out, x)
	}
	return out
}

// each loads the named instances in turn and calls fn with each; it stops at ctx's end and at the first error, unless skip takes an instance that does not load.
func (r *repro) each(names []string, skip func(name string, err error), fn func(name string, in *solver.Instance) error) error {
	for _, name := range names {
		if err := r.ctx.Err(); err != nil {
			return err
		}
		in, err := r.load(name)
		if err != nil && skip != nil {
			skip(name, err)
			continue
		}
		if err == nil {
			err = fn(name, in)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// pick is set when given, else quick under --quick, else def.
func pick[T any](r *repro, set T, given bool, def, quick T) T {
	switch {
	case given:
		return set
	case r.opt.Quick:
		return quick
	}
	return def
}

// runs is the number of runs per configuration: opt.Runs, else def (Quick: 1).
func (r *repro) runs(def int) int { return pick(r, r.opt.Runs, r.opt.Runs > 0, def, 1) }

// budget is the time per run: opt.Time, else def (Quick: quick).
func (r *repro) budget(def, quick time.Duration) time.Duration {
	return pick(r, r.opt.Time, r.opt.Time > 0, def, quick)
}

// instances returns opt.Instances, else list (Quick: quick).
func (r *repro) instances(list, quick []string) []string {
	return pick(r, r.opt.Instances, len(r.opt.Instances) > 0, list, quick)
}

// checkOnly fails on an --only part that is not one of parts.
func (r *repro) checkOnly(parts ...string) error {
	for _, o := range r.opt.Only {
		if !slices.Contains(parts, o) {
			return fmt.Errorf("%s suite: --only %s: want some of %s", r.name, o, strings.Join(parts, ", "))
		}
	}
	return nil
}

// wants reports whether --only selects part: every part of a kind when --only names none of that kind.
func (r *repro) wants(part string, kind func(string) bool) bool {
	named := false
	for _, o := range r.opt.Only {
		if kind(o) == kind(part) {
			named = true
			if o == part {
				return true
			}
		}
	}
	return !named
}

// isTable is the kind of the --only parts that name tables ("table2").
func isTable(part string) bool { return strings.HasPrefix(part, "table") }

// stopped returns the run's context error when err comes from the run being stopped (Ctrl-C, a caller's time limit), else nil.
func (r *repro) stopped(err error) error {
	if e := r.ctx.Err(); e != nil && (err == nil || errors.Is(err, e)) {
		return e
	}
	return nil
}

// machine is the notes line naming the GPU and the CPU.
func (r *repro) machine() string {
	return fmt.Sprintf("GPU: %s; CPU: %s (CPU engines on all cores unless --workers).", r.device, HostCPU())
}

// finish notes a stop and where the paper columns came from, saves the tables under their file names and prints them; it returns stop.
func (r *repro) finish(out io.Writer, stop error, tables ...*Table) error {
	note := r.papers.note()
	for _, t := range tables {
		if stop != nil {
			t.Notes = append(t.Notes, fmt.Sprintf("Stopped before the end (%v): the rows are those measured until then; a row cut short counts only its finished runs, and later rows are missing or empty.", stop))
		}
		if note != "" {
			t.Notes = append(t.Notes, note)
		}
	}
	rep := newReport(r.name, r.opt.Shard, tables)
	if r.opt.OutDir != "" {
		if err := rep.Save(r.opt.OutDir); err != nil {
			return errors.Join(err, stop)
		}
	}
	if r.opt.JSON != "" {
		if err := atomicfile.Write(r.opt.JSON, rep.WriteJSON); err != nil {
			return errors.Join(err, stop)
		}
	}
	if err := rep.Print(out); err != nil {
		return errors.Join(err, stop)
	}
	return stop
}

// gapOf returns the percent above the optimum, or "n/a".
func gapOf(length int64, in *solver.Instance) (float64, string) {
	g, ok := solver.GapPercent(length, in.Optimum)
	if !ok {
		return 0, "n/a"
	}
	return g, fmt.Sprintf("%.2f", g)
}

// valCell is v written with format as a table cell, "n/a" when it was not measured.
func valCell(v float64, ok bool, format string) string {
	if !ok {
		return "n/a"
	}
	return fmt.Sprintf(format, v)
}

// ratioCell is the ratio a/b as a table cell ("2.50x"), "n/a" when either side did not run or b is 0.
func ratioCell(a, b float64, okA, okB bool) string {
	return valCell(a/b, okA && okB && b != 0, "%.2fx")
}

func fmtSec(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }

// Series is one line of a plot: a name and its (x, y) points.
type Series struct {
	Name string
	X, Y []float64
}

// newPlot is an empty plot with title, labels and scales, the legend top left.
func newPlot(title, xLabel, yLabel string, logX, logY bool) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	if logX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	if logY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	p.Legend.Top = true
	p.Legend.Left = true
	return p
}

// SavePlot draws series as lines with points into dir/base.png (log axes when asked) and writes the points drawn as dir/base.csv; with no points nothing is written.
func SavePlot(dir, base, title, xLabel, yLabel string, logX, logY bool, series ...Series) error {
	if dir == "" {
		return nil
	}
	p := newPlot(title, xLabel, yLabel, logX, logY)
	colors := []color.RGBA{{R: 0x1f, G: 0x77, B: 0xb4, A: 255}, {R: 0xd6, G: 0x27, B: 0x28, A: 255}, {R: 0x2c, G: 0xa0, B: 0x2c, A: 255}, {R: 0xff, G: 0x7f, B: 0x0e, A: 255}}
	data := &Table{Header: []string{"series", xLabel, yLabel}}
	for i, s := range series {
		var pts plotter.XYs
		for k := range s.X {
			if k < len(s.Y) && (!logX || s.X[k] > 0) && (!logY || s.Y[k] > 0) {
				pts = append(pts, plotter.XY{X: s.X[k], Y: s.Y[k]})
				data.AddRow(s.Name, strconv.FormatFloat(s.X[k], 'g', -1, 64), strconv.FormatFloat(s.Y[k], 'g', 6, 64))
			}
		}
		if len(pts) == 0 {
			continue
		}
		l, sc, err := plotter.NewLinePoints(pts)
		if err != nil {
			return err
		}
		l.Color, sc.Color = colors[i%len(colors)], colors[i%len(colors)]
		p.Add(l, sc)
		p.Legend.Add(s.Name, l, sc)
	}
	if len(data.Rows) == 0 {
		return nil
	}
	// A log axis over one value would be padded to ±1 around it, below zero: a factor of two either side instead.
	if logX && p.X.Min == p.X.Max {
		p.X.Min, p.X.Max = p.X.Min/2, p.X.Max*2
	}
	if logY && p.Y.Min == p.Y.Max {
		p.Y.Min, p.Y.Max = p.Y.Min/2, p.Y.Max*2
	}
	wt, err := p.WriterTo(16*vg.Centimeter, 10*vg.Centimeter, "png")
	if err != nil {
		return errors.New("drawing plot " + base + ".png: " + err.Error())
	}
	if err := atomicfile.Write(filepath.Join(dir, base+".csv"), data.CSV); err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, base+".png"), func(w io.Writer) error {
		_, err := wt.WriteTo(w)
		return err
	})
}
