package app

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"github.com/tsplab/tsplab/canvas"
	"github.com/tsplab/tsplab/internal/fakeengine"
	"github.com/tsplab/tsplab/solver/instfile"
	"github.com/tsplab/tsplab/solver/route"
	"github.com/tsplab/tsplab/solver/session"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// lineFile writes ten cities on a line (x = 0, 10, …, 90 in a shuffled
// file order) to dir: its shortest open path is 90, its shortest tour 180.
func lineFile(t *testing.T, dir string) string {
	t.Helper()
	xs := []int{4, 0, 7, 2, 9, 5, 1, 8, 3, 6}
	var b strings.Builder
	b.WriteString("NAME: line\nTYPE: TSP\nDIMENSION: 10\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n")
	for i, x := range xs {
		b.WriteString(strings.Join([]string{itoa(i + 1), itoa(x * 10), "0"}, " ") + "\n")
	}
	b.WriteString("EOF\n")
	return writeFile(t, dir, "line.tsp", b.String())
}

func itoa(i int) string { return strconv.Itoa(i) }

// openLine opens lineFile in the app and waits for it.
func openLine(t *testing.T, ap *App, loads chan error) string {
	t.Helper()
	file := lineFile(t, t.TempDir())
	ap.Open(file)
	if err := waitLoad(t, loads); err != nil {
		t.Fatal(err)
	}
	pump(t, "line to load", func() bool { return ap.Single.Instance() != nil && ap.Single.Instance().Name == "line" })
	return file
}

// pickRoute chooses the Path menu's item for route as a user does.
func pickRoute(p *Pane, route string) { p.settings.route.menu.SetSelected(routeLabels[route]) }

func TestOpenPathRunDrawnAsPath(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	openLine(t, ap, loads)
	p := ap.Single
	p.SetSettings(fakeSettings(300 * time.Millisecond))
	pickRoute(p, RouteOpen)
	test.Tap(p.controls.run)
	if st := p.Runner.State(); st != session.Running {
		t.Fatalf("after tapping Run the state is %v (%s)", st, p.Status())
	}
	if got := fakeengine.LastParams(); got.Start != nil {
		t.Errorf("a run without a start tour got start %v", got.Start)
	}
	settle(t, p)
	s := p.View.Scene()
	if !s.Path || len(s.Tour) != 10 || s.Optimal != nil {
		t.Fatalf("scene of an open path: Path %v, %d cities, optimal %v", s.Path, len(s.Tour), s.Optimal != nil)
	}
	if !slices.Contains(canvas.LegendFor(s), canvas.LegendEnds) {
		t.Errorf("the legend %v does not name the path's ends", canvas.LegendFor(s))
	}
	if !strings.Contains(s.Title, "open path") {
		t.Errorf("title %q does not say it is an open path", s.Title)
	}
	// The picture exported is the path's: 9 segments of the tour's colour.
	svg := filepath.Join(t.TempDir(), "p.svg")
	if _, err := ap.ExportFile(svg, ExportSVG, 400, 0); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(svg)
	i := strings.Index(string(b), `style="fill:none;stroke:#FF961E`) // the tour's colour, the app's
	j := strings.LastIndex(string(b)[:i], "<path")
	if seg := strings.Count(string(b)[j:i], "L") + strings.Count(string(b)[j:i], "Z"); seg != 9 {
		t.Errorf("the exported path has %d segments, want 9", seg)
	}
	// The tour file exported is the path, its length without a closing edge.
	tourFile := filepath.Join(t.TempDir(), "p.tour")
	if _, err := ap.ExportFile(tourFile, ExportTour, 0, 0); err != nil {
		t.Fatal(err)
	}
	path, err := tsplib.ReadTour(tourFile, 10)
	if err != nil {
		t.Fatal(err)
	}
	if l, err := route.FinishPath(p.Instance(), path, -1, -1); err != nil || !strings.Contains(p.numbers.value["Best"].Text, strconv.FormatInt(l, 10)) {
		t.Errorf("exported path of length %d (%v), Best shows %q", l, err, p.numbers.value["Best"].Text)
	}
	if g := p.numbers.value["Gap"].Text; strings.Contains(g, "%") {
		t.Errorf("Gap %q measures a path against a tour's optimum", g)
	}
	// Back to a closed tour: drawn closed.
	pickRoute(p, RouteTour)
	p.SetSettings(fakeSettings(100 * time.Millisecond))
	test.Tap(p.controls.run)
	settle(t, p)
	if s := p.View.Scene(); s.Path || len(s.Tour) != 10 {
		t.Errorf("a closed tour's scene: Path %v, %d cities", s.Path, len(s.Tour))
	}
}

func TestEndsChoiceValidatedAndRefusedByName(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	openLine(t, ap, loads)
	p := ap.Single
	p.SetSettings(fakeSettings(100 * time.Millisecond))
	pickRoute(p, RouteEnds)
	if !p.settings.route.entry.Visible() {
		t.Fatal("from A to B shows no field for the ends")
	}
	for _, c := range []struct{ text, want string }{
		{"", "give two city ids"},
		{"1", "want two city ids"},
		{"1,11", "id 11 is not a city of line"},
		{"3,3", "a path from a city to itself"},
	} {
		p.settings.route.entry.SetText(c.text)
		if !p.controls.run.Disabled() {
			t.Errorf("ends %q: Run enabled", c.text)
		}
		if got := p.settings.route.errMsg.Text; !p.settings.route.errMsg.Visible() || !strings.Contains(got, c.want) {
			t.Errorf("ends %q: error %q, want %q", c.text, got, c.want)
		}
	}
	p.settings.route.entry.SetText("2,5")
	if p.controls.run.Disabled() || p.settings.route.errMsg.Visible() {
		t.Fatalf("ends 2,5: Run disabled %v, error %q", p.controls.run.Disabled(), p.settings.route.errMsg.Text)
	}
	// Saved like the other settings.
	if s, err := p.Settings(); err != nil || s.Route != RouteEnds || s.Ends != "2,5" {
		t.Errorf("settings %+v, %v", s, err)
	}
	if got := ap.prefs.String("single.route") + " " + ap.prefs.String("single.ends"); got != "ends 2,5" {
		t.Errorf("saved %q", got)
	}
	// The fake engine keeps no fixed edges: the run is refused, by name.
	test.Tap(p.controls.run)
	if st := p.Runner.State(); st == session.Running {
		t.Fatal("a path between ends ran on an engine without fixed edges")
	}
	if got := p.Status(); !strings.Contains(got, "fake/cpu does not keep fixed edges") {
		t.Errorf("status %q", got)
	}
}

func TestOpenTourStartsTheRun(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	file := openLine(t, ap, loads)
	dir := filepath.Dir(file)
	p := ap.Single
	// A bad tour: the reader's error, file and line.
	bad := writeFile(t, dir, "bad.txt", "1 2 3\n4 4 5\n")
	err := ap.OpenStartTour(bad)
	if err == nil || !strings.Contains(err.Error(), "bad.txt:2") {
		t.Errorf("a city twice: %v, want the file and line 2", err)
	}
	if tour, _ := p.StartTour(); tour != nil {
		t.Error("a bad tour was kept")
	}
	good := writeFile(t, dir, "good.txt", "10 9 8 7 6 5 4 3 2 1\n")
	if err := ap.OpenStartTour(good); err != nil {
		t.Fatal(err)
	}
	want := []int{9, 8, 7, 6, 5, 4, 3, 2, 1, 0}
	if s := p.View.Scene(); !slices.Equal(s.Tour, want) || !strings.Contains(s.Title, "good.txt") {
		t.Errorf("the start tour is not shown: %v %q", s.Tour, s.Title)
	}
	p.SetSettings(fakeSettings(100 * time.Millisecond))
	test.Tap(p.controls.run)
	settle(t, p)
	if got := fakeengine.LastParams().Start; !slices.Equal(got, want) {
		t.Errorf("the run started from %v, want %v", got, want)
	}
	// An open path starts from the same cities, closed through the extra one.
	pickRoute(p, RouteOpen)
	test.Tap(p.controls.run)
	settle(t, p)
	if got := fakeengine.LastParams().Start; !slices.Equal(got, append(want, 10)) {
		t.Errorf("the open run started from %v", got)
	}
	// Another instance forgets the start.
	ap.Open(writeFile(t, dir, "other.tsp", "NAME: other\nTYPE: TSP\nDIMENSION: 3\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 1 0\n3 0 1\nEOF\n"))
	waitLoad(t, loads)
	if tour, _ := p.StartTour(); tour != nil {
		t.Error("the start tour outlived its instance")
	}
}

func TestPathOptionSetsTheSingleView(t *testing.T) {
	for _, c := range []struct{ opt, route, ends string }{{"open", RouteOpen, ""}, {"2,5", RouteEnds, "2,5"}, {"tour", RouteTour, ""}} {
		ap, loads := newTestApp(t, Options{Path: c.opt})
		waitLoad(t, loads)
		if r := ap.Single.settings.route; r.Route() != c.route || c.ends != "" && r.Ends() != c.ends || r.menu.Selected != routeLabels[c.route] {
			t.Errorf("--path %s: route %q ends %q menu %q", c.opt, r.Route(), r.Ends(), r.menu.Selected)
		}
	}
}

// A tour file that says it is an open path (as tsp solve --open and the
// app's export write it) opens as a path: drawn without the closing edge,
// its length the path's; the app's own export of a path run says so, and
// reads back as a path.
func TestOpenTourOfAPath(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	file := openLine(t, ap, loads)
	p := ap.Single
	// x: city 2 at 0, 7 at 10, 4 at 20, 9 at 30, 1 at 40, 6 at 50, 10 at 60, 3 at 70, 8 at 80, 5 at 90
	pathFile := writeFile(t, filepath.Dir(file), "p.tour", "NAME : line\nCOMMENT : "+tsplib.PathNote("2", "5")+"\nTYPE : TOUR\nDIMENSION : 10\nTOUR_SECTION\n2 7 4 9 1 6 10 3 8 5\n-1\nEOF\n")
	if err := ap.OpenStartTour(pathFile); err != nil {
		t.Fatal(err)
	}
	s := p.View.Scene()
	if !s.Path || !strings.Contains(s.Title, "90 (open path)") || p.numbers.value["Best"].Text != "90" {
		t.Errorf("an opened path: Path %v, title %q, Best %q: want drawn open, length 90", s.Path, s.Title, p.numbers.value["Best"].Text)
	}
	// the export of an open path run reads back as a path
	p.SetSettings(fakeSettings(100 * time.Millisecond))
	pickRoute(p, RouteOpen)
	test.Tap(p.controls.run)
	settle(t, p)
	out := filepath.Join(t.TempDir(), "run.tour")
	if _, err := ap.ExportFile(out, ExportTour, 0, 0); err != nil {
		t.Fatal(err)
	}
	if _, isPath, err := instfile.ReadRoute(out, p.Instance()); err != nil || !isPath {
		t.Errorf("the exported path reads back as a path: %v, %v", isPath, err)
	}
}
