package app

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"github.com/tsplab/tsplab/solver/bound"
	"github.com/tsplab/tsplab/solver/instfile"
	"github.com/tsplab/tsplab/solver/report"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// TestTitleAndSVGPathFromTheRecord: the canvas's title of a run and the
// pen plotter's SVG path are the run's record (Pane.record): the title is
// the record's Title of each route, the SVG path the record's tour, open
// (no Z) for a path. A path opened with Open tour… exports, before any
// run, through the record too: its tour file and report say it is a path
// from its first city to its last, with no gap to a tour's optimum.
func TestTitleAndSVGPathFromTheRecord(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	file := openLine(t, ap, loads)
	p := ap.Single
	dir := t.TempDir()
	svgPath := func(name string) string {
		out := filepath.Join(dir, name)
		if _, err := ap.ExportFile(out, ExportSVGPath, 400, 0); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(out)
		return string(b)
	}
	for _, r := range []string{RouteOpen, RouteTour} {
		p.SetSettings(fakeSettings(100 * time.Millisecond))
		pickRoute(p, r)
		test.Tap(p.controls.run)
		settle(t, p)
		rep, in, err := p.record(true)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := p.View.Scene().Title, rep.Title(in); got != want {
			t.Errorf("%s: the canvas's title %q, the record's %q", r, got, want)
		}
		svg := svgPath(r + ".svg")
		if closed := strings.Contains(svg, "Z"); closed == rep.IsPath() {
			t.Errorf("%s: the SVG path closed %v, the record a path %v", r, closed, rep.IsPath())
		}
	}

	// A path opened before any run: a fresh instance, its path file.
	ap.Open(file)
	waitLoad(t, loads)
	pathFile := writeFile(t, filepath.Dir(file), "p.tour", "NAME : line\nCOMMENT : "+tsplib.PathNote("", "")+"\nTYPE : TOUR\nDIMENSION : 10\nTOUR_SECTION\n2 7 4 9 1 6 10 3 8 5\n-1\nEOF\n")
	if err := ap.OpenStartTour(pathFile); err != nil {
		t.Fatal(err)
	}
	if svg := svgPath("opened.svg"); strings.Contains(svg, "Z") {
		t.Error("the opened path's SVG path is closed")
	}
	out := filepath.Join(dir, "opened.tour")
	if _, err := ap.ExportFile(out, ExportTour, 0, 0); err != nil {
		t.Fatalf("the opened path does not export as a tour file: %v", err)
	}
	if _, isPath, err := instfile.ReadRoute(out, p.Instance()); err != nil || !isPath {
		t.Errorf("the opened path's tour file reads back as a path %v (%v)", isPath, err)
	}
	if b, _ := os.ReadFile(out); !strings.Contains(string(b), "from 2 to 5") {
		t.Errorf("the opened path's file does not name its ends 2 and 5:\n%s", b)
	}
	rep, _, err := p.record(false)
	if err != nil || rep.GapPercent != nil || rep.Length != 90 {
		t.Errorf("the opened path's record: length %v, gap %v, %v; want 90 and no gap", rep.Length, rep.GapPercent, err)
	}
}

// TestFinishedRunNumbersFromTheRecord: what a pane shows of a finished
// run (its length, best, gap, moves and time) is the run's record, in the
// words of tsp solve's summary, and stays it when a lower bound arrives
// after the run: in compare mode the other pane's bound reaches a pane
// whose run was an open path, which has no gap to a tour's bound.
func TestFinishedRunNumbersFromTheRecord(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	ap.SetCompare(true)
	in := uniformInts("u200", 200, 9)
	path, tour := ap.Left, ap.Right
	for _, p := range []*Pane{path, tour} {
		p.SetInstance(in, nil)
		p.SetSettings(fakeSettings(time.Second))
	}
	pickRoute(path, RouteOpen)
	pickRoute(tour, RouteTour)
	for _, p := range []*Pane{path, tour} {
		if err := p.RunFor(100 * time.Millisecond); err != nil {
			t.Fatal(err)
		}
	}
	settle(t, path)
	settle(t, tour)
	check := func(when string, p *Pane) report.Report {
		t.Helper()
		rep, rin, err := p.record(true)
		if err != nil {
			t.Fatalf("%s: pane %s: %v", when, p.Name, err)
		}
		num := func(k string) string { return p.numbers.value[k].Text }
		want := map[string]string{
			"Length":  rin.HumanLength(rep.LengthScaled),
			"Best":    rin.HumanLength(rep.LengthScaled),
			"Moves":   FormatCount(float64(rep.MovesEvaluated)),
			"Moves/s": FormatCount(rep.MovesPerSecond),
			"Elapsed": fmt.Sprintf("%.1f s", rep.ElapsedSeconds),
		}
		for k, v := range want {
			if num(k) != v {
				t.Errorf("%s: pane %s's %s shows %q, its record %q", when, p.Name, k, num(k), v)
			}
		}
		switch g := num("Gap"); {
		case rep.GapPercent == nil && strings.Contains(g, "%"):
			t.Errorf("%s: pane %s's Gap shows %q, its record no gap", when, p.Name, g)
		case rep.GapPercent != nil && !strings.HasPrefix(g, fmt.Sprintf("at most %.2f %%", *rep.GapPercent)):
			t.Errorf("%s: pane %s's Gap shows %q, its record %.2f %% above the %s", when, p.Name, g, *rep.GapPercent, rep.GapAbove)
		}
		if got := p.View.Scene().Title; got != rep.Title(rin) {
			t.Errorf("%s: pane %s's title %q, its record's %q", when, p.Name, got, rep.Title(rin))
		}
		// the status and the details say what the summary of tsp solve
		// and its --verbose lines say
		if s := Drawable(report.Summary(rep.Account)); !strings.Contains(p.Status(), s) {
			t.Errorf("%s: pane %s's status %q lacks its record's %q", when, p.Name, p.Status(), s)
		}
		if got, want := strings.Join(p.details.Lines(), "\n"), Drawable(strings.Join(report.Lines(rin, rep.Account), "\n")); !strings.Contains(got, want) {
			t.Errorf("%s: pane %s's details %q, its record's %q", when, p.Name, got, want)
		}
		return rep
	}
	for _, p := range []*Pane{path, tour} {
		check("after the run", p)
	}
	if rep, _, _ := path.record(true); report.Summary(rep.Account) == "" {
		t.Error("the path's record does not say it is a path")
	}
	// a bound proven beside the tour's run, after both ended
	_, l := tour.Runner.Best()
	tour.OnBound(in, bound.Result{Bound: l * 9 / 10})
	if rep := check("after the bound", tour); rep.GapAbove != "lower_bound" {
		t.Errorf("the tour's record has no gap above the bound: %+v", rep.GapAbove)
	}
	if rep := check("after the bound", path); rep.GapPercent != nil {
		t.Errorf("the path's record has a gap %v", *rep.GapPercent)
	}
}
