package app

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/bound"
	"github.com/tsplab/tsplab/solver/instfile"
	"github.com/tsplab/tsplab/solver/report"
	"github.com/tsplab/tsplab/solver/session"
)

// An instance without a known optimum gets a lower bound beside a run
// (the pipeline's): the gap line and the plot's line show it, and the
// run's gap is then a proven "at most" above it.
func TestPaneShowsLowerBound(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	p := ap.Single
	in := uniformInts("u400", 400, 3)
	p.SetInstance(in, nil)
	if p.bound.value != 0 {
		t.Fatalf("a bound %d before any run", p.bound.value)
	}
	p.SetSettings(fakeSettings(3 * time.Second))
	if err := p.RunFor(0); err != nil {
		t.Fatal(err)
	}
	pump(t, "the lower bound", func() bool { return p.bound.value > 0 })
	p.Stop() // the bound is there: the rest of the run adds nothing to check
	settle(t, p)
	lb := p.bound.value
	_, length := p.Runner.Best()
	if length < lb {
		t.Fatalf("a tour of length %d below the bound %d", length, lb)
	}
	if v := p.numbers.value["Gap"].Text; !strings.HasPrefix(v, "at most ") || !strings.Contains(v, "above the lower bound") {
		t.Errorf("Gap shows %q", v)
	}
	// the pane's gap is the run record's
	rep, _, err := p.record(true)
	if err != nil || rep.GapAbove != "lower_bound" || rep.GapPercent == nil {
		t.Fatalf("record %+v, %v", rep, err)
	}
	if v, want := p.numbers.value["Gap"].Text, fmt.Sprintf("at most %.2f %%", *rep.GapPercent); !strings.HasPrefix(v, want) {
		t.Errorf("Gap shows %q, the record %q", v, want)
	}
}

// A run starts from the best bound earlier runs proved on the same
// distances (the user's cache): the Gap line shows it at once, says where
// it came from and that it is still converging.
func TestPaneStartsFromTheCachedBound(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	t.Setenv(session.CacheDirEnv, t.TempDir())
	waitLoad(t, loads)
	p := ap.Single
	in := uniformInts("u300", 300, 5)
	full, err := bound.Compute(context.Background(), in, bound.Options{Thorough: true})
	if err != nil {
		t.Fatal(err)
	}
	// a bound a longer ascent proved (planted a little above this one's,
	// so that the run's own never replaces it)
	kept := full.Bound + 1
	session.StoreBound(in, bound.Result{Bound: kept, Stopped: true})
	p.SetInstance(in, nil)
	p.SetSettings(fakeSettings(2 * time.Second))
	if err := p.RunFor(0); err != nil {
		t.Fatal(err)
	}
	pump(t, "the cached bound", func() bool { return p.bound.value > 0 })
	p.Stop() // the bound is there: the rest of the run adds nothing to check
	settle(t, p)
	if p.bound.value != kept {
		t.Fatalf("bound %d, want the cached %d", p.bound.value, kept)
	}
	if v := p.numbers.value["Gap"].Text; !strings.Contains(v, "above the lower bound, proven by an earlier run, still converging") {
		t.Errorf("Gap shows %q", v)
	}
	rep, _, err := p.record(true)
	if err != nil || rep.LowerBoundScaled == nil || *rep.LowerBoundScaled != kept || rep.BoundSource != report.BoundCache || !rep.BoundConverging {
		t.Errorf("the run's record: %v, bound %v from %q, converging %v", err, rep.LowerBoundScaled, rep.BoundSource, rep.BoundConverging)
	}
}

// A bound of 0 (all cities on one point) has no ratio: the gap line says
// so instead of a division by zero.
func TestBoundGapZeroBound(t *testing.T) {
	for _, l := range []int64{0, 7} {
		if g := boundGap(l, 0); strings.Contains(g, "NaN") || strings.Contains(g, "Inf") {
			t.Errorf("boundGap(%d, 0) = %q", l, g)
		}
	}
	if g := boundGap(110, 100); g != "at most 10.00 % (above the lower bound)" {
		t.Errorf("boundGap(110, 100) = %q", g)
	}
}

// In compare mode both panes show one instance, so the higher bound either
// run proves holds for both: the two gaps are measured from the same bound,
// and a lower one arriving later does not replace it.
func TestCompareSharesTheBound(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	in := solver.NewCoordInstance("sq", solver.Euc2D, []float64{0, 0, 10, 10}, []float64{0, 10, 10, 0}, nil)
	for _, p := range []*Pane{ap.Left, ap.Right} {
		p.SetInstance(in, nil)
	}
	ap.Left.OnBound(in, bound.Result{Bound: 38})
	if ap.Left.bound.value != 38 || ap.Right.bound.value != 38 {
		t.Fatalf("bounds %d and %d after A proved 38", ap.Left.bound.value, ap.Right.bound.value)
	}
	ap.Right.OnBound(in, bound.Result{Bound: 30})
	if ap.Left.bound.value != 38 || ap.Right.bound.value != 38 {
		t.Errorf("a lower bound replaced the higher one: %d and %d", ap.Left.bound.value, ap.Right.bound.value)
	}
	ap.Right.OnBound(in, bound.Result{Bound: 40})
	if ap.Left.bound.value != 40 || ap.Right.bound.value != 40 {
		t.Errorf("bounds %d and %d after B proved 40", ap.Left.bound.value, ap.Right.bound.value)
	}
}

// The Temperature readout and the schedule line of a point list are in
// the file's units, as t0, tend and tsp solve's schedule are, not in the
// scaled integers the engine computes in.
func TestTemperatureInTheFilesUnits(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	p := ap.Single
	var csv strings.Builder
	csv.WriteString("x,y\n")
	rng := rand.New(rand.NewPCG(8, 8))
	for range 60 {
		fmt.Fprintf(&csv, "%.3f,%.3f\n", rng.Float64()*100, rng.Float64()*100)
	}
	in, err := instfile.ParsePoints(strings.NewReader(csv.String()), "holes.csv")
	if err != nil {
		t.Fatal(err)
	}
	if in.ScaleExp == 0 {
		t.Fatal("the point list is not scaled: the test shows nothing")
	}
	p.SetInstance(in, nil)
	s := fakeSettings(300 * time.Millisecond)
	s.Algorithm = "annealfake"
	p.SetSettings(s)
	if err := p.RunFor(0); err != nil {
		t.Fatal(err)
	}
	settle(t, p)
	pr := p.Runner.Last()
	if pr.Temperature <= 0 {
		t.Fatal("no temperature")
	}
	unit := math.Pow10(in.ScaleExp)
	if want := fmt.Sprintf("%.4g (step %d)", pr.Temperature/unit, pr.Steps); p.numbers.value["Temperature"].Text != want {
		t.Errorf("Temperature shows %q, want %q", p.numbers.value["Temperature"].Text, want)
	}
	res, _ := p.Runner.Result()
	if want := Drawable(res.Schedule.InFileUnits(in).String()); !strings.Contains(p.numbers.schedule.Text, want) {
		t.Errorf("schedule shows %q, want %q", p.numbers.schedule.Text, want)
	}
}

// uniformInts is n cities at integer points of a 5,000 × 5,000 square,
// drawn from the seed.
func uniformInts(name string, n int, seed uint64) *solver.Instance {
	rng := rand.New(rand.NewPCG(seed, seed))
	x, y := make([]float64, n), make([]float64, n)
	for i := range x {
		x[i], y[i] = float64(rng.IntN(5000)), float64(rng.IntN(5000))
	}
	return solver.NewCoordInstance(name, solver.Euc2D, x, y, nil)
}
