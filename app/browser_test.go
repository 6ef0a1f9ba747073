package app

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tsplab/tsplab/canvas"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/session"
)

// TestBrowserMarksBrokenFilesAndClearsErrors: a file whose body cannot be
// read is marked in the list (by the background check, before anyone
// opens it); opening it leaves the instance on screen selected, and the
// error line goes when the list shows another folder.
func TestBrowserMarksBrokenFilesAndClearsErrors(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	dir := t.TempDir()
	good := writeFile(t, dir, "tiny.tsp", tinyTSP)
	bad := writeFile(t, dir, "bad.tsp", "NAME : bad\nTYPE : TSP\nDIMENSION : 3\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 x 1\n")
	ap.OpenFile(good)
	if err := waitLoad(t, loads); err != nil {
		t.Fatal(err)
	}
	entry := func(path string) Entry {
		for _, e := range ap.Entries() {
			if e.Path == path {
				return e
			}
		}
		t.Fatalf("%s not listed", path)
		return Entry{}
	}
	pump(t, "the background check to mark bad.tsp", func() bool { return entry(bad).Err != "" })
	if s := entry(bad).Summary(); !strings.Contains(s, "cannot be read") || !strings.Contains(s, "line 7") {
		t.Errorf("bad.tsp listed as %q", s)
	}
	if entry(good).Err != "" {
		t.Errorf("tiny.tsp marked broken: %s", entry(good).Err)
	}
	// Opening it anyway: the error line, and the selection goes back to
	// the instance on screen.
	for i, e := range ap.Entries() {
		if e.Path == bad {
			ap.Select(i)
		}
	}
	if err := waitLoad(t, loads); err == nil {
		t.Fatal("bad.tsp loaded")
	}
	if ap.selected < 0 || ap.Entries()[ap.selected].Path != good {
		t.Errorf("after the failed open the list selects %d, want tiny.tsp (on screen)", ap.selected)
	}
	if ap.Message() == "" {
		t.Fatal("no error line")
	}
	ap.ShowSource(SourceSamples)
	if ap.Message() != "" {
		t.Errorf("after switching to the samples the error line still says %q", ap.Message())
	}
}

// TestBrowserSearchAndSort: the search box keeps the names holding its
// text; the list sorts by size or by name.
func TestBrowserSearchAndSort(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	dir := t.TempDir()
	writeFile(t, dir, "zeta.tsp", tinyTSP)
	writeFile(t, dir, "alpha.tsp", strings.Replace(strings.Replace(tinyTSP, "DIMENSION : 5", "DIMENSION : 6", 1), "5 5 15\n", "5 5 15\n6 1 1\n", 1))
	writeFile(t, dir, "beta.tsp", tinyTSP)
	ap.ShowFolder(dir)
	names := func() []string {
		var out []string
		for _, e := range ap.Entries() {
			out = append(out, e.Name)
		}
		return out
	}
	if got := names(); !slices.Equal(got, []string{"beta", "zeta", "alpha"}) {
		t.Errorf("by size: %v", got)
	}
	ap.SetSort(SortName)
	if got := names(); !slices.Equal(got, []string{"alpha", "beta", "zeta"}) {
		t.Errorf("by name: %v", got)
	}
	ap.SetSearch("ET")
	if got := names(); !slices.Equal(got, []string{"beta", "zeta"}) {
		t.Errorf("search ET: %v", got)
	}
	ap.SetSearch("nothing")
	if len(ap.Entries()) != 0 {
		t.Errorf("search nothing: %v", names())
	}
	ap.SetSearch("")
	if len(ap.Entries()) != 3 {
		t.Errorf("cleared search: %v", names())
	}
}

// TestFolderHistoryForgetsMissingFolders: a remembered folder that no
// longer exists leaves the source menu and the saved list.
func TestFolderHistoryForgetsMissingFolders(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	keep, gone := t.TempDir(), filepath.Join(t.TempDir(), "gone")
	if err := os.Mkdir(gone, 0o755); err != nil {
		t.Fatal(err)
	}
	ap.ShowFolder(gone)
	ap.ShowFolder(keep)
	if !slices.Contains(ap.Sources(), FolderLabel(gone)) {
		t.Fatalf("sources %v lack %s", ap.Sources(), gone)
	}
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}
	ap.refreshSources()
	if slices.Contains(ap.Sources(), FolderLabel(gone)) || !slices.Contains(ap.Sources(), FolderLabel(keep)) {
		t.Errorf("sources %v after %s was removed", ap.Sources(), gone)
	}
	if saved := ap.FyneApp.Preferences().StringList(PrefFolders); slices.Contains(saved, gone) {
		t.Errorf("saved folders %v keep the removed one", saved)
	}
}

// TestChangedTintEndsWithTheRun: while a run goes the view's legend names
// the tint of recent changes; once it ends the scene is marked done, so
// neither the tint nor its legend stays.
func TestChangedTintEndsWithTheRun(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	p := ap.Single
	p.SetSettings(fakeSettings(0))
	if err := p.RunFor(300 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	sawLive := false
	pump(t, "a live scene", func() bool {
		sawLive = slices.Contains(canvas.LegendFor(p.View.Scene()), canvas.LegendChanged)
		return sawLive || p.Runner.State() != session.Running
	})
	settle(t, p)
	if !sawLive {
		t.Error("the running scene had no tint of recent changes in its legend")
	}
	if sc := p.View.Scene(); !sc.Done || slices.Contains(canvas.LegendFor(p.View.Scene()), canvas.LegendChanged) {
		t.Errorf("after the run: scene done %v, legend %v", sc.Done, canvas.LegendFor(p.View.Scene()))
	}
}

// TestRedrawsWhileTheEngineTakesEveryCore: every update repaints the
// window (with software OpenGL, on the engine's cores), so a run whose
// engine takes every core is redrawn about once a BusyFrameInterval, not
// at the runner's 30 updates a second; an engine that leaves a core free,
// or has no workers (a GPU engine), is redrawn every FrameInterval.
func TestRedrawsWhileTheEngineTakesEveryCore(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	p := ap.Single
	updates := 0
	p.OnUpdate = func(*Pane, session.Progress) { updates++ }
	s := fakeSettings(1500 * time.Millisecond)
	s.Algorithm = "swap-climb" // declares workers, all cores by default
	p.SetSettings(s)
	start := time.Now()
	if err := p.RunFor(0); err != nil {
		t.Fatal(err)
	}
	settle(t, p)
	// One per interval begun, the first and the last.
	if most := int(time.Since(start)/BusyFrameInterval) + 3; updates > most || updates < 2 {
		t.Errorf("%d redraws in %v, want 2 to %d", updates, time.Since(start).Round(time.Millisecond), most)
	}
	if BusyFrameInterval >= followSlack {
		t.Errorf("BusyFrameInterval %v: a new best tour must be on screen within %v", BusyFrameInterval, followSlack)
	}
	climb, _ := solver.Lookup("swap-climb", solver.BackendCPU)
	onGPU, _ := solver.Lookup("swap-climb", solver.BackendGPU) // no workers option
	for _, c := range []struct {
		e       solver.Engine
		workers int
		want    time.Duration
	}{
		{climb, 0, BusyFrameInterval},
		{climb, runtime.NumCPU(), BusyFrameInterval},
		{onGPU, 0, FrameInterval},
	} {
		if got := frameInterval(c.e, solver.Params{Workers: c.workers}); got != c.want {
			t.Errorf("%s/%s with %d workers: frame interval %v, want %v", c.e.Name(), c.e.Backend(), c.workers, got, c.want)
		}
	}
	if runtime.NumCPU() > 1 {
		if got := frameInterval(climb, solver.Params{Workers: 1}); got != FrameInterval {
			t.Errorf("one worker of %d cores: frame interval %v, want %v", runtime.NumCPU(), got, FrameInterval)
		}
	}
}

// TestScheduleShownAfterTheRun: an annealer's result reports the
// schedule it ran; the pane shows it once the run ends, and not for an
// engine without one.
func TestScheduleShownAfterTheRun(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	p := ap.Single
	s := fakeSettings(0)
	s.Algorithm = "annealfake"
	p.SetSettings(s)
	if err := p.RunFor(150 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	settle(t, p)
	res, _ := p.Runner.Result()
	if got := p.Schedule(); res.Schedule == nil || got != Drawable("Schedule: "+res.Schedule.String()) {
		t.Errorf("schedule line %q, result's %v", got, res.Schedule)
	}
	p.SetSettings(fakeSettings(0))
	if err := p.RunFor(100 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	settle(t, p)
	if got := p.Schedule(); got != "" {
		t.Errorf("an engine without a schedule shows %q", got)
	}
}

// An entry's summary counts its cities in words: one city, digits grouped.
func TestEntrySummaryCountsCities(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{1, "1 city"}, {12345, "12,345 cities"}} {
		if got := (Entry{Name: "x", Dimension: c.n, Type: "TSP"}).summaryParts(); len(got) == 0 || got[0] != c.want {
			t.Errorf("%d cities: summary parts %q, want %q first", c.n, got, c.want)
		}
	}
}
