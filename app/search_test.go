package app

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/tsplab/tsplab/solver"
)

// shownNames are the instance names the list draws inside its visible
// area, found by walking its objects (positions relative to the list).
func shownNames(ap *App) []string {
	h := ap.list.Size().Height
	var out []string
	var walk func(o fyne.CanvasObject, y float32)
	walk = func(o fyne.CanvasObject, y float32) {
		if !o.Visible() {
			return
		}
		if l, ok := o.(*widget.Label); ok && l.TextStyle.Bold && l.Text != "" && l.Size().Height > 0 {
			if y+l.Size().Height > 0 && y < h {
				out = append(out, l.Text)
			}
			return
		}
		for _, c := range children(o) {
			walk(c, y+c.Position().Y)
		}
	}
	for _, c := range children(ap.list) {
		walk(c, c.Position().Y)
	}
	return out
}

// TestListShowsEverythingAfterTheSearchIsCleared: with an instance far
// down a long list on screen, typing a search, selecting its text and
// deleting it shows the list's rows again at once.
func TestListShowsEverythingAfterTheSearchIsCleared(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	ap.Win.Resize(fyne.NewSize(1400, 880))
	dir := t.TempDir()
	for i := range 60 {
		writeFile(t, dir, fmt.Sprintf("inst%02d.tsp", i), tinyTSP)
	}
	writeFile(t, dir, "usa13.tsp", tinyTSP)
	ap.ShowFolder(dir)
	ap.Select(50)
	waitLoad(t, loads)
	if got := shownNames(ap); len(got) < 5 {
		t.Fatalf("before the search the list draws %v", got)
	}
	test.Type(ap.search, "usa")
	if got := shownNames(ap); len(got) != 1 || got[0] != "usa13" {
		t.Fatalf("searching usa the list draws %v", got)
	}
	ap.Win.Canvas().Focus(ap.search)
	ap.search.TypedShortcut(&fyne.ShortcutSelectAll{})
	ap.search.TypedKey(&fyne.KeyEvent{Name: fyne.KeyBackspace})
	if ap.search.Text != "" {
		t.Fatalf("the search box holds %q", ap.search.Text)
	}
	// The instance on screen stays selected and in view, with its neighbours.
	if got := shownNames(ap); len(got) < 5 || !slices.Contains(got, "inst50") {
		t.Errorf("after clearing the search the list draws %v, want its rows around inst50", got)
	}
}

// exactEngine tries every tour of a small instance and ends at once with
// the shortest: a run that finds the optimum before its first update.
type exactEngine struct{}

func (exactEngine) Name() string     { return "exact" }
func (exactEngine) Backend() string  { return solver.BackendCPU }
func (exactEngine) Describe() string { return "test engine: every tour of up to 8 cities" }
func (exactEngine) Available() error { return nil }
func (e exactEngine) Solve(ctx context.Context, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot) (solver.Result, error) {
	start := time.Now()
	tour := solver.IdentityTour(in.N)
	best := slices.Clone(tour)
	var permute func(k int)
	permute = func(k int) {
		if k == len(tour) {
			if solver.TourLength(in, tour) < solver.TourLength(in, best) {
				copy(best, tour)
			}
			return
		}
		for i := k; i < len(tour); i++ {
			tour[k], tour[i] = tour[i], tour[k]
			permute(k + 1)
			tour[k], tour[i] = tour[i], tour[k]
		}
	}
	if in.N <= 8 {
		permute(1)
	}
	return solver.Finish(in, e, p, solver.Outcome{Tour: best, Start: start, Device: "test"})
}

func init() { solver.Register(exactEngine{}) }

// TestStatusSaysWhyTheRunEnded: a run that finds the known optimum at
// once fills the bar and says "optimum found"; one the user stops says
// "stopped", running or paused; one that runs its time says "done".
func TestStatusSaysWhyTheRunEnded(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	dir := t.TempDir()
	tiny := writeFile(t, dir, "tiny.tsp", tinyTSP)
	writeFile(t, dir, "optima.csv", "name,optimum\ntiny,44\n")
	ap.OpenFile(tiny)
	waitLoad(t, loads)
	p := ap.Single
	if !p.Instance().HasOptimum() {
		t.Fatal("tiny's optimum is not known")
	}
	p.SetSettings(Settings{Algorithm: "exact", Backend: solver.BackendCPU, TimeLimit: 20 * time.Second, Seed: 1})
	test.Tap(p.controls.run)
	settle(t, p)
	if res, _ := p.Runner.Result(); res.StopReason != solver.StopOptimum {
		t.Fatalf("the run on tiny ended with %q, want the optimum", res.StopReason)
	}
	if st := p.Status(); !strings.HasPrefix(st, "optimum found") {
		t.Errorf("status %q after finding the optimum", st)
	}
	if v := p.status.bar.Value(); v != 1 {
		t.Errorf("bar at %.0f %% after finding the optimum", 100*v)
	}

	p.SetSettings(fakeSettings(20 * time.Second))
	ap.ShowSource(SourceSamples)
	ap.Select(0) // a sample whose optimum the fake engine does not reach in 20 s
	waitLoad(t, loads)
	test.Tap(p.controls.run)
	pump(t, "a best tour", func() bool { return p.Runner.Last().BestLength > 0 })
	test.Tap(p.controls.stop)
	settle(t, p)
	if st := p.Status(); !strings.HasPrefix(st, "stopped") {
		t.Errorf("status %q after Stop", st)
	}
	if v := p.status.bar.Value(); v >= 1 {
		t.Errorf("bar at %.0f %% after a Stop soon after the start", 100*v)
	}
	test.Tap(p.controls.run)
	pump(t, "a best tour", func() bool { return p.Runner.Last().BestLength > 0 })
	test.Tap(p.controls.pause)
	settle(t, p)
	test.Tap(p.controls.stop)
	if st := p.Status(); !strings.HasPrefix(st, "stopped") {
		t.Errorf("status %q after Pause and Stop", st)
	}
	p.SetSettings(fakeSettings(100 * time.Millisecond))
	test.Tap(p.controls.run)
	settle(t, p)
	if st, v := p.Status(), p.status.bar.Value(); !strings.HasPrefix(st, "done") || v != 1 {
		t.Errorf("after the time limit: status %q, bar %.0f %%", st, 100*v)
	}
}

// TestBackendButtonsSayCPUAndGPU: the backend buttons name the
// processors as they are written.
func TestBackendButtonsSayCPUAndGPU(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	btns := ap.Single.settings.picker.backendBtns
	for b, want := range map[string]string{solver.BackendCPU: "CPU", solver.BackendGPU: "GPU", solver.BackendAuto: "Auto"} {
		if got := btns[b].Text; got != want {
			t.Errorf("backend %s's button says %q, want %q", b, got, want)
		}
	}
}

// TestExportWaitsForATour: Export is off until a pane on screen has a
// tour, and off again once Reset forgets it.
func TestExportWaitsForATour(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	if !ap.exportBtn.Disabled() {
		t.Error("Export enabled with nothing loaded")
	}
	waitLoad(t, loads)
	p := ap.Single
	if !ap.exportBtn.Disabled() {
		t.Error("Export enabled before any run")
	}
	p.SetSettings(fakeSettings(150 * time.Millisecond))
	test.Tap(p.controls.run)
	settle(t, p)
	if ap.exportBtn.Disabled() {
		t.Error("Export disabled after a run with a tour")
	}
	ap.SetCompare(true)
	if !ap.exportBtn.Disabled() {
		t.Error("Export enabled in compare mode, whose panes have no tour")
	}
	ap.SetCompare(false)
	test.Tap(p.controls.reset)
	if !ap.exportBtn.Disabled() {
		t.Error("Export enabled after Reset")
	}
}

// TestOpeningAPictureKeepsTheFolder: tsplab --open PICTURE lists the
// folder the user last opened, not the bundled samples; a picture opened
// from the window leaves the list as it was.
func TestOpeningAPictureKeepsTheFolder(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "tiny.tsp", tinyTSP)
	pic := writePicture(t, t.TempDir())
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	a := test.NewTempApp(t)
	a.Preferences().SetString(PrefFolder, dir)
	a.Preferences().SetStringList(PrefFolders, []string{dir})
	ap := restart(t, a, Options{Open: pic, ArtPoints: 200})
	if ap.Source() != FolderLabel(dir) || ap.Single.Instance().N != 200 {
		t.Errorf("after --open of a picture the list shows %q (want %q) and the pane %d points", ap.Source(), FolderLabel(dir), ap.Single.Instance().N)
	}
	loads := make(chan error, 4)
	ap.onLoad = append(ap.onLoad, func(_ *solver.Instance, err error) { loads <- err })
	ap.ShowSource(SourceRecent)
	ap.OpenPicture(pic, 100)
	waitLoad(t, loads)
	if ap.Source() != SourceRecent {
		t.Errorf("opening a picture switched the list to %q", ap.Source())
	}
}
