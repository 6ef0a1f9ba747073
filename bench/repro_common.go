package bench

import (
	"context"
	"errors"
	"fmt"
	"image/color"
	"io"
	"maps"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/tsplab/tsplab/internal/atomicfile"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// repro is what the reproduction suites share: options, progress lines,
// instance loading, engine lookup and the GPU's description.
type repro struct {
	ctx    context.Context
	opt    Options
	name   string
	device string // the GPU, from a Result, or why there is none
	err    error  // the last engine error, for the tables
	papers *papers
	logMu  sync.Mutex // progress lines may come from several goroutines
	mu     sync.Mutex // guards device and err, which runs in parallel write
}

func newRepro(ctx context.Context, name string, opt Options) (*repro, error) {
	if opt.TSPLIBDir == "" {
		return nil, fmt.Errorf("%s suite: no TSPLIB folder (set TSPLIB_DIR or pass --tsplib)", name)
	}
	r := &repro{ctx: ctx, opt: opt, name: name, device: "not used yet", papers: newPapers(opt.PapersDir)}
	return r, nil
}

func (r *repro) logf(format string, a ...any) {
	if r.opt.Log != nil {
		r.logMu.Lock()
		defer r.logMu.Unlock()
		fmt.Fprintf(r.opt.Log, r.name+": "+format+"\n", a...)
	}
}

// load reads an instance of the suite's list from the TSPLIB folder.
func (r *repro) load(name string) (*solver.Instance, error) {
	return tsplib.Load(filepath.Join(r.opt.TSPLIBDir, name+".tsp"), r.opt.TSPLIBDir)
}

// engine returns the engine for (algo, backend) or nil; for the GPU the
// reason it is missing becomes the suite's device line.
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

// solve runs e (nil: not available) and records the GPU's name.
func (r *repro) solve(e solver.Engine, in *solver.Instance, p solver.Params) (solver.Result, bool) {
	if e == nil || r.ctx.Err() != nil {
		return solver.Result{}, false
	}
	if p.Workers == 0 {
		p.Workers = r.opt.Workers
	}
	if extra := r.extraFor(e); extra != nil {
		// the suite's options over the call's own, in a map of its own
		if p.Extra != nil {
			merged := maps.Clone(p.Extra)
			maps.Copy(merged, extra)
			extra = merged
		}
		p.Extra = extra
	}
	res, err := e.Solve(r.ctx, in, p, nil)
	if err != nil {
		r.logf("%s/%s on %s: %v", e.Name(), e.Backend(), in.Name, err)
		r.mu.Lock()
		r.err = err
		r.mu.Unlock()
		return solver.Result{}, false
	}
	if e.Backend() == solver.BackendGPU {
		r.mu.Lock()
		r.device = res.Device
		r.mu.Unlock()
	}
	return res, true
}

// each loads the named instances in turn and calls fn with each name and
// instance. It stops at ctx's end and at the first error of fn or of a
// load; with skip set, an instance that does not load goes to skip
// instead and the loop goes on.
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

// runs is the number of runs per configuration: opt.Runs, else def
// (Quick: 1).
func (r *repro) runs(def int) int {
	if r.opt.Runs > 0 {
		return r.opt.Runs
	}
	if r.opt.Quick {
		return 1
	}
	return def
}

// budget is the time per run: opt.Time, else def (Quick: quick).
func (r *repro) budget(def, quick time.Duration) time.Duration {
	if r.opt.Time > 0 {
		return r.opt.Time
	}
	if r.opt.Quick {
		return quick
	}
	return def
}

// instances returns opt.Instances, else list (Quick: quick).
func (r *repro) instances(list, quick []string) []string {
	if len(r.opt.Instances) > 0 {
		return r.opt.Instances
	}
	if r.opt.Quick {
		return quick
	}
	return list
}

// stopped returns the run's context error when err comes from the run
// being stopped (Ctrl-C, a caller's time limit), else nil: a suite then
// still writes the rows it measured, says so, and returns the error.
func (r *repro) stopped(err error) error {
	if err == nil && r.ctx.Err() == nil {
		return nil
	}
	if e := r.ctx.Err(); e != nil && (err == nil || errors.Is(err, e)) {
		return e
	}
	return nil
}

// stopNote is the notes line of a stopped run (none when stop is nil).
func (r *repro) stopNote(stop error) []string {
	if stop == nil {
		return nil
	}
	return []string{fmt.Sprintf("Stopped before the end (%v): the rows are those measured until then; a row cut short counts only its finished runs, and later rows are missing or empty.", stop)}
}

// machine is the notes line naming the GPU and the CPU.
func (r *repro) machine() string {
	return fmt.Sprintf("GPU: %s; CPU: %s (CPU engines on all cores unless --workers).", r.device, HostCPU())
}

// finish saves the tables (one markdown and CSV file each) and prints them;
// every table gets the line saying where its paper column came from.
func (r *repro) finish(tables []*Table, bases []string, out interface{ Write([]byte) (int, error) }) error {
	note := r.papers.note()
	for _, t := range tables {
		t.Notes = append(t.Notes, note)
	}
	if r.opt.OutDir != "" {
		for i, t := range tables {
			if err := t.Save(r.opt.OutDir, bases[i]); err != nil {
				return err
			}
		}
	}
	for i, t := range tables {
		if i > 0 {
			fmt.Fprintln(out)
		}
		if err := t.Markdown(out); err != nil {
			return err
		}
	}
	return nil
}

// gapOf returns the percent above the optimum, or "n/a".
func gapOf(length int64, in *solver.Instance) (float64, string) {
	g, ok := solver.GapPercent(length, in.Optimum)
	if !ok {
		return 0, "n/a"
	}
	return g, fmt.Sprintf("%.2f", g)
}

func fmtG(v float64) string {
	if v == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.3g", v)
}

func fmtSec(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }

// Series is one line of a plot: a name and its (x, y) points.
type Series struct {
	Name string
	X, Y []float64
}

// SavePlot draws series as lines with points into dir/base.png (log-scaled
// axes when asked), for the suites' figures, and writes the points drawn
// beside it as dir/base.csv (series, x, y). Series with no points are left
// out; with none at all nothing is written.
func SavePlot(dir, base, title, xLabel, yLabel string, logX, logY bool, series ...Series) error {
	if dir == "" {
		return nil
	}
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
	colors := []color.RGBA{{R: 0x1f, G: 0x77, B: 0xb4, A: 255}, {R: 0xd6, G: 0x27, B: 0x28, A: 255}, {R: 0x2c, G: 0xa0, B: 0x2c, A: 255}, {R: 0xff, G: 0x7f, B: 0x0e, A: 255}}
	drawn := 0
	data := &Table{Header: []string{"series", xLabel, yLabel}}
	for i, s := range series {
		var pts plotter.XYs
		for k := range s.X {
			if k < len(s.Y) && (!logX || s.X[k] > 0) && (!logY || s.Y[k] > 0) {
				pts = append(pts, plotter.XY{X: s.X[k], Y: s.Y[k]})
			}
		}
		if len(pts) == 0 {
			continue
		}
		for _, pt := range pts {
			data.AddRow(s.Name, strconv.FormatFloat(pt.X, 'g', -1, 64), strconv.FormatFloat(pt.Y, 'g', 6, 64))
		}
		l, sc, err := plotter.NewLinePoints(pts)
		if err != nil {
			return err
		}
		l.Color = colors[i%len(colors)]
		sc.Color = colors[i%len(colors)]
		p.Add(l, sc)
		p.Legend.Add(s.Name, l, sc)
		drawn++
	}
	if drawn == 0 {
		return nil
	}
	// A log axis over one value would be padded to ±1 around it, below
	// zero: give it a factor of two either side instead.
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

// extraFor returns the suite's engine options (Options.Extra) that e
// takes, nil when none.
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
