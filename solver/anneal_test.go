package solver

import (
	"strings"
	"testing"
	"time"
)

// pointList is a point list of n cities scaled by 10^exp, as the point
// reader builds one.
func pointList(n, exp int) *Instance {
	x, y := make([]float64, n), make([]float64, n)
	for i := range n {
		x[i], y[i] = float64(i%10)*1e5, float64(i/10)*1e5
	}
	in := NewCoordInstance("pts", Euc2D, x, y, nil)
	in.ScaleExp, in.Points = exp, &PointList{}
	return in
}

// The schedule's temperatures are given in the file's units and run in
// the instance's: a TSPLIB file keeps Lam et al.'s numbers exactly, a
// point list scales what it is given by 10^ScaleExp and the defaults by
// PointTempScale and PointTEndScale, and reports them back as given.
func TestScheduleInTheFilesUnits(t *testing.T) {
	tsp := NewCoordInstance("sq", Euc2D, []float64{0, 1, 1, 0}, []float64{0, 0, 1, 1}, nil)
	pts := pointList(50, 6)
	cases := []struct {
		name      string
		in        *Instance
		t0, tend  string
		wantT0    float64
		wantTEnd  float64
		reportT0  string
		reportEnd string
	}{
		{"tsplib defaults", tsp, "", "", DefaultT0, DefaultTEnd, "10000", "0.1"},
		{"tsplib given", tsp, "100", "1", 100, 1, "100", "1"},
		{"points defaults", pts, "", "", DefaultT0 * PointTempScale, DefaultTEnd * PointTEndScale, "0.5", "5e-05"},
		{"points given", pts, "0.25", "0.001", 0.25e6, 0.001e6, "0.25", "0.001"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := Params{Extra: map[string]string{}}
			if c.t0 != "" {
				p = p.WithExtra("t0", c.t0).WithExtra("tend", c.tend)
			}
			a, err := AnnealOf(c.in, p)
			if err != nil {
				t.Fatal(err)
			}
			if !near(a.T0, c.wantT0) || !near(a.TEnd, c.wantTEnd) {
				t.Errorf("T0 %g, TEnd %g, want %g, %g", a.T0, a.TEnd, c.wantT0, c.wantTEnd)
			}
			set := a.Settings(optEngine{name: "pspm", backend: BackendCPU})
			if t0, tend := fmtNum(set.T0), fmtNum(set.TEnd); t0 != c.reportT0 || tend != c.reportEnd {
				t.Errorf("reported t0 %q, tend %q, want %q, %q", t0, tend, c.reportT0, c.reportEnd)
			}
			rep := Params{Extra: map[string]string{"t0": fmtNum(set.T0), "tend": fmtNum(set.TEnd)}}
			run := (&ScheduleRun{T0: a.T0, TEnd: a.TEnd, TLast: a.TEnd}).InFileUnits(c.in)
			if r, _ := AnnealOf(c.in, rep); !near(r.T0, a.T0) || !near(run.T0*a.Unit, a.T0) {
				t.Errorf("reported values rerun at T0 %g, shown %g, want %g", r.T0, run.T0, a.T0)
			}
		})
	}
	if t0, tend := DefaultTemps(pts); !near(t0, 0.5) || !near(tend, 5e-5) {
		t.Errorf("point list's default temperatures %g, %g, want 0.5, 5e-05", t0, tend)
	}
	// A refusal names the values as given.
	_, err := AnnealOf(pts, Params{Extra: map[string]string{"t0": "0.001", "tend": "0.01"}})
	if err == nil || !strings.Contains(err.Error(), "0.001") || !strings.Contains(err.Error(), "0.01") {
		t.Errorf("t0 below tend: %v", err)
	}
}

func near(a, b float64) bool { return a == b || a > 0 && b > 0 && a/b > 1-1e-12 && a/b < 1+1e-12 }

func TestScheduleRunString(t *testing.T) {
	var nilRun *ScheduleRun
	if nilRun.String() != "" {
		t.Fatal("nil run: want empty")
	}
	r := &ScheduleRun{Fitted: true, T0: 10000, TEnd: 0.1, LamAlpha: 0.99, Alpha0: 0.99712, Alpha: 0.99694, Steps: 1220, TLast: 0.1003, Sweeps: 10, Descent: 12 * time.Millisecond}
	s := r.String()
	for _, w := range []string{"fitted", "0.99712 → 0.99694", "given 0.99", "1,220 steps of 10 sweeps", "T 1e+04 → 0.1003", "descent 12ms"} {
		if !strings.Contains(s, w) {
			t.Errorf("%q lacks %q", s, w)
		}
	}
	if s := (&ScheduleRun{T0: 10000, LamAlpha: 0.99, Alpha0: 0.99, Alpha: 0.99, Steps: 1146, Sweeps: 10, TLast: 0.1}).String(); !strings.HasPrefix(s, "as given: alpha 0.99") {
		t.Errorf("unfitted: %q", s)
	}
}
