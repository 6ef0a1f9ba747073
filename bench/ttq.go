package bench

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/tsplab/tsplab/internal/atomicfile"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/gen"
)

// TTQInstances are the ttq suite's instances: TSPLIB files by name, and
// "uniform-N" for `tsp gen --kind uniform --n N --seed 1`, generated in
// the process.
var TTQInstances = []string{"pr2392", "fnl4461", "usa13509", "d18512", "pla85900", "uniform-100000", "uniform-1000000"}

// ttqQuick is the --quick version's instances.
var ttqQuick = []string{"pr2392", "usa13509"}

// TTQThresholds are the gaps (percent) whose time to reach the ttq suite
// reports.
var TTQThresholds = []float64{5, 2, 1, 0.5, 0.2}

// BeardwoodConstant is the asymptotic constant of the optimal tour of
// uniform random points in a square: the optimum is about
// 0.7124·√(N·A) (Beardwood, Halton & Hammersley; the value from
// Johnson, McGeoch & Rothberg 1996, and Percus & Martin 1996).
const BeardwoodConstant = 0.7124

func init() {
	Register("ttq", "time to quality: GPU and CPU auto side by side on pr2392, fnl4461, usa13509, d18512, pla85900 and uniform 100,000 and 1,000,000 (best length over time, time to 5/2/1/0.5/0.2 %, PNG plot)", runTTQ)
}

// ttqBudget is the time per run of an instance of n cities: 20 s below
// 10,000 cities, 30 s up to 50,000, 60 s above (the floors of pla85900
// and the million-city instance are stated at 60 s).
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

// ttqInstance loads the suite's instance name: "uniform-N" is generated
// (uniform, seed 1), any other name read from the TSPLIB folder.
func (r *repro) ttqInstance(name string) (in *solver.Instance, uniform bool, err error) {
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

// ttqReach is, for each of TTQThresholds, the first snapshot time (in
// seconds) whose gap is within it, "—" when none is.
func ttqReach(pts []ttqPoint, gap func(int64) float64) []string {
	reach := make([]string, len(TTQThresholds))
	for i, th := range TTQThresholds {
		reach[i] = "—"
		for _, p := range pts {
			if gap(p.len) <= th {
				reach[i] = fmt.Sprintf("%.2f", p.t.Seconds())
				break
			}
		}
	}
	return reach
}

// ttqReference returns the length gaps are measured against and its name:
// the optimum when known, else for a generated uniform instance the
// Beardwood estimate over the bounding box.
func ttqReference(in *solver.Instance, uniform bool) (float64, string) {
	if in.Optimum > 0 {
		return float64(in.Optimum), "optimum"
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

// ttqRun runs e on in for d and returns the best length over time: every
// snapshot's tour lengths (current and best, both real tours) folded into
// a running minimum, then the exact final length.
func ttqRun(ctx context.Context, e solver.Engine, in *solver.Instance, d time.Duration, workers int) ([]ttqPoint, solver.Result, error) {
	snaps := solver.Latest()
	var pts []ttqPoint
	var mu sync.Mutex
	done := make(chan struct{})
	best := int64(math.MaxInt64)
	go func() {
		defer close(done)
		for s := range snaps {
			l := best
			if s.Best != nil && s.BestLength > 0 {
				l = min(l, s.BestLength)
			}
			if s.Tour != nil && s.Length > 0 {
				l = min(l, s.Length)
			}
			if l < best {
				best = l
				mu.Lock()
				pts = append(pts, ttqPoint{s.Elapsed, l})
				mu.Unlock()
			}
		}
	}()
	t0 := time.Now()
	res, err := e.Solve(ctx, in, solver.Params{TimeLimit: d, Seed: 1, Workers: workers}, snaps)
	el := time.Since(t0)
	close(snaps)
	<-done
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
	tb := &Table{
		Title: "Time to quality: auto on the GPU and on the CPU, same host, one run each (seed 1)",
		Header: []string{"instance", "n", "gap against", "engine", "time s", "first tour s", "length", "gap %",
			"to 5 %", "to 2 %", "to 1 %", "to 0.5 %", "to 0.2 %"},
	}
	curves := &Table{Header: []string{"instance", "engine", "elapsed_s", "best_length", "gap_percent"}}
	for _, name := range names {
		in, uniform, err := r.ttqInstance(name)
		if err != nil {
			return err
		}
		ref, refName := ttqReference(in, uniform)
		d := ttqBudget(opt, in.N)
		var series []Series
		for _, backend := range []string{solver.BackendGPU, solver.BackendCPU} {
			e := r.engine("auto", backend)
			label := "auto " + backend
			if e == nil {
				tb.AddRow(name, in.N, refName, label, "n/a", "", "", "unavailable", "", "", "", "", "")
				continue
			}
			r.logf("%s (%d cities): %s for %v", name, in.N, label, d)
			pts, res, err := ttqRun(ctx, e, in, d, opt.Workers)
			if err != nil {
				r.logf("%s on %s: %v", label, name, err)
				tb.AddRow(name, in.N, refName, label, "n/a", "", "", "error: "+err.Error(), "", "", "", "", "")
				continue
			}
			if backend == solver.BackendGPU {
				r.device = res.Device
			}
			gap := func(l int64) float64 {
				if ref <= 0 {
					return math.NaN()
				}
				return 100 * (float64(l) - ref) / ref
			}
			reach := ttqReach(pts, gap)
			var s Series
			s.Name = label
			for _, p := range pts {
				g := gap(p.len)
				curves.AddRow(name, label, fmt.Sprintf("%.3f", p.t.Seconds()), p.len, fmt.Sprintf("%.4f", g))
				s.X = append(s.X, math.Max(p.t.Seconds(), 1e-3))
				// log scale: the optimum itself is drawn at 0.001 %
				s.Y = append(s.Y, math.Max(g, 1e-3))
			}
			series = append(series, s)
			gs := "n/a"
			if ref > 0 {
				gs = fmt.Sprintf("%.3f", gap(res.Length))
			}
			row := []any{name, in.N, refName, label, fmtSec(res.Elapsed), fmt.Sprintf("%.2f", pts[0].t.Seconds()), res.Length, gs}
			for _, x := range reach {
				row = append(row, x)
			}
			tb.AddRow(row...)
			r.logf("%s %s: %d (%s %%) in %v", name, label, res.Length, gs, res.Elapsed.Round(time.Millisecond))
		}
		if opt.OutDir != "" && ref > 0 {
			if err := SavePlot(opt.OutDir, "ttq-"+name, fmt.Sprintf("%s: gap above %s against time", name, refName),
				"seconds since the start", "gap %", true, true, series...); err != nil {
				return err
			}
		}
	}
	tb.Notes = append(tb.Notes, r.machine(),
		"Times are wall clock from the engine's start, read from its snapshots (best length so far; both the current and the best tour of a snapshot count) and the exact final length; \"—\": not reached.",
		"Gaps: above the optimum where optima.csv knows it, else above 0.7124·√(N·A) (A: the bounding box) for the generated uniform instances.",
		"The plots draw gaps below 0.001 % (the optimum, or below the uniform estimate) at 0.001 %. Budgets: 20 s below 10,000 cities, 30 s up to 50,000, 60 s above (or --time); the curves are in ttq-curves.csv and ttq-INSTANCE.png.")
	if opt.OutDir != "" {
		if err := tb.Save(opt.OutDir, "ttq"); err != nil {
			return err
		}
		if err := saveCSV(filepath.Join(opt.OutDir, "ttq-curves.csv"), curves); err != nil {
			return err
		}
	}
	return tb.Markdown(out)
}

// saveCSV writes only the CSV of t (for long data tables no one reads as
// markdown), replaced whole as Table.Save writes its files.
func saveCSV(path string, t *Table) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(path, t.CSV)
}
