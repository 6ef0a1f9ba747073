package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/gen"
)

// reportTSPLIB are the TSPLIB instances timed at 10 s (ja9847, vm22775 where present).
var reportTSPLIB = []string{"pr2392", "fnl4461", "rl5915", "pla7397", "ja9847", "usa13509", "d18512", "vm22775"}

// reportLarge are the report's 100,000-city instances (mona-lisa100K where present).
var reportLarge = []string{"E100k.0", "pla85900", "mona-lisa100K"}

// present keeps the names that are generated or whose file is in the TSPLIB folder, logging the others.
func (rr *reportRun) present(names []string) []string {
	var out []string
	for _, n := range names {
		if _, ok := gen.ParseDIMACS(n); ok || strings.HasPrefix(n, "uniform-") {
			out = append(out, n)
			continue
		}
		if _, err := os.Stat(filepath.Join(rr.opt.TSPLIBDir, n+".tsp")); err != nil {
			rr.logf("%s: not in %s, skipped", n, rr.opt.TSPLIBDir)
			continue
		}
		out = append(out, n)
	}
	return out
}

// ttqCaseOf loads name and returns it with its case: the reference length and the gap above it.
func (rr *reportRun) ttqCaseOf(name string, d time.Duration) (*solver.Instance, ttqCase, error) {
	in, uniform, err := rr.ttqInstance(name)
	if err != nil {
		return nil, ttqCase{}, err
	}
	ref, refName := ttqReference(in, uniform)
	c := ttqCase{name: name, n: in.N, ref: ref, refName: refName, d: d}
	c.gap = func(l int64) float64 { return 100 * (float64(l) - ref) / ref }
	if ref <= 0 {
		return nil, c, fmt.Errorf("%s: no optimum or best known length to measure gaps against", name)
	}
	return in, c, nil
}

// ttqTSPLIB is GPU auto beside CPU auto (and LKH-3) in 10-s runs, seeds 1 to 3, in turns.
func (rr *reportRun) ttqTSPLIB() (*Table, error) {
	d, seeds, names := 10*time.Second, 3, reportTSPLIB
	if rr.opt.Quick {
		d, seeds, names = 2*time.Second, 1, names[:1]
	}
	lkh, err := rr.ttqPeer()
	if err != nil {
		return nil, err
	}
	seedList := fmt.Sprint(seedRange(seeds))
	t := &Table{Header: []string{"instance", "n",
		"GPU `auto`, gap % at " + fmtD(d) + ", seeds " + seedList, "CPU `auto`, the same"}}
	if lkh != "" {
		t.Header = append(t.Header, "LKH-3, one core, seed 1")
	}
	for _, name := range rr.present(names) {
		in, c, err := rr.ttqCaseOf(name, d)
		if err != nil {
			return nil, err
		}
		engines := rr.ttqEngines(rr.ctx, rr.opt, in, d, lkh)
		gaps := make([][]float64, len(engines))
		for seed := 1; seed <= seeds; seed++ {
			for _, i := range ttqOrder(seed, len(engines)) {
				x := engines[i]
				if !x.ok || (x.part == "lkh" && seed > 1) {
					continue
				}
				g, err := rr.ttqFinal(x, c, seed)
				if err != nil {
					return nil, err
				}
				gaps[i] = append(gaps[i], g)
			}
		}
		row := []any{name, in.N}
		for _, g := range gaps {
			row = append(row, seedsCell(g, "%.4f"))
		}
		t.AddRow(row...)
	}
	return t, nil
}

// ttqFinal runs engine x once with seed on case c and returns the gap of its final tour (NaN: no tour).
func (rr *reportRun) ttqFinal(x *ttqEngine, c ttqCase, seed int) (float64, error) {
	pts, res, err := x.run(uint64(seed))
	if rr.ctx.Err() != nil {
		return 0, rr.ctx.Err() // a run cut short measures nothing
	}
	if err != nil {
		return 0, fmt.Errorf("%s on %s, seed %d: %v", x.label, c.name, seed, err)
	}
	if x.part == solver.BackendGPU {
		rr.device = res.Device
	}
	if len(pts) == 0 || res.Length <= 0 {
		rr.logf("%s %s seed %d: no tour", c.name, x.label, seed)
		return nan, nil
	}
	rr.logf("%s %s seed %d: %d (%.4f %%) in %v", c.name, x.label, seed, res.Length, c.gap(res.Length), res.Elapsed.Round(time.Millisecond))
	return c.gap(res.Length), nil
}

// ttqLarge is GPU auto beside CPU auto on reportLarge: the best gap at 10, 30 and 60 s.
func (rr *reportRun) ttqLarge() (*Table, error) {
	d, at := 60*time.Second, []time.Duration{10 * time.Second, 30 * time.Second, 60 * time.Second}
	names := reportLarge
	if rr.opt.Quick {
		d, at, names = 5*time.Second, []time.Duration{2 * time.Second, 5 * time.Second}, names[:1]
	}
	t := &Table{Header: []string{"instance", "n", "gap against", "engine"}}
	for _, a := range at {
		t.Header = append(t.Header, "gap % at "+fmtD(a))
	}
	for k, name := range rr.present(names) {
		in, c, err := rr.ttqCaseOf(name, d)
		if err != nil {
			return nil, err
		}
		engines := rr.ttqEngines(rr.ctx, rr.opt, in, d, "")
		rows := make([][]any, len(engines))
		for _, i := range ttqOrder(k+1, len(engines)) {
			x := engines[i]
			rows[i] = []any{name, in.N, c.refName, strings.ToUpper(x.part) + " `auto`"}
			pts, err := rr.ttqCurve(x, c)
			if err != nil {
				return nil, err
			}
			for _, a := range at {
				rows[i] = append(rows[i], atCell(pts, a, d, c.gap))
			}
		}
		for _, row := range rows {
			t.AddRow(row...)
		}
	}
	return t, nil
}

// ttqCurve runs engine x with seed 1 on case c and returns its best-so-far curve (nil: unavailable).
func (rr *reportRun) ttqCurve(x *ttqEngine, c ttqCase) ([]ttqPoint, error) {
	if !x.ok {
		return nil, nil
	}
	pts, res, err := x.run(1)
	if rr.ctx.Err() != nil {
		return nil, rr.ctx.Err() // a run cut short measures nothing
	}
	if err != nil {
		return nil, fmt.Errorf("%s on %s: %v", x.label, c.name, err)
	}
	if x.part == solver.BackendGPU {
		rr.device = res.Device
	}
	rr.logf("%s %s: %d (%.4f %%) in %v", c.name, x.label, res.Length, c.gap(res.Length), res.Elapsed.Round(time.Millisecond))
	return pts, nil
}

// atCell is pts' best gap by time a, "—" without a tour then, "n/a" without a curve.
func atCell(pts []ttqPoint, a, d time.Duration, gap func(int64) float64) string {
	if pts == nil {
		return "n/a"
	}
	var l int64
	for _, p := range pts {
		if p.t <= a || a >= d {
			l = p.len
		}
	}
	if l == 0 {
		return "—"
	}
	return fmt.Sprintf("%.4f", gap(l))
}
