package app

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"github.com/tsplab/tsplab/solver"
)

// TestRunSettingsSeenWithoutScrolling: at the default 1400×880 window
// (and down to 1024×700) the time limit, the seed and Run lie inside the
// window; the engine's long description is folded until asked for; each
// option's help is drawn once and no texts of the side column overlap.
func TestRunSettingsSeenWithoutScrolling(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	p, f := ap.Single, ap.Single.settings
	f.picker.algoSelect.SetSelected("auto")
	for _, win := range []fyne.Size{{Width: 1400, Height: 880}, {Width: 1024, Height: 700}} {
		ap.Win.Resize(win)
		for name, o := range map[string]fyne.CanvasObject{"Time limit": f.timeItem, "Seed": f.seedItem, "Run": p.controls.run, "time help": f.timeHelp} {
			if pos, ok := visibleIn(o, ap.Win.Canvas().Size()); !ok {
				t.Errorf("%v window: %s at %v size %v is not wholly inside", win, name, pos, o.Size())
			}
		}
	}
	ap.Win.Resize(fyne.NewSize(1400, 880))
	fr := newFrames()
	root := ap.Win.Content()
	fr.step(root)
	count := func(sub string) int {
		n := 0
		for _, tx := range visibleTexts(root) {
			n += strings.Count(tx.text, sub)
		}
		return n
	}
	desc := strings.Fields(f.algoHelp.Text)
	if len(desc) < 4 {
		t.Fatalf("auto's description %q", f.algoHelp.Text)
	}
	start := strings.Join(desc[:4], " ")
	if n := count(start); n != 0 {
		t.Errorf("the engine's description is drawn %d times before it is unfolded", n)
	}
	f.about.Open(0)
	fr.step(root)
	if n := count(start); n != 1 {
		t.Errorf("the unfolded description is drawn %d times", n)
	}
	f.about.Close(0)
	fr.step(root)
	for _, r := range f.rows {
		words := strings.Fields(r.help.Text)
		if len(words) < 3 || r.opt.Experimental { // the experimental ones are folded under Advanced
			continue
		}
		if n := count(strings.Join(words[:3], " ")); n != 1 {
			t.Errorf("the help of %s is drawn %d times", r.opt.Name, n)
		}
	}
	if n := count("Time limit"); n != 1 {
		t.Errorf("\"Time limit\" is drawn %d times", n)
	}
	if o := overlaps(visibleTexts(root)); len(o) > 0 {
		t.Errorf("%d overlapping texts in the window, first %s", len(o), o[0])
	}
}

// TestComparePanesHaveRoom: at the default window each compare pane's
// canvas takes most of the pane's height, under its engine choice.
func TestComparePanesHaveRoom(t *testing.T) {
	ap, loads := newTestApp(t, Options{Compare: true})
	waitLoad(t, loads)
	ap.Win.Resize(fyne.NewSize(1400, 880))
	for _, p := range []*Pane{ap.Left, ap.Right} {
		if h := p.View.Size().Height; h < 400 {
			t.Errorf("pane %s: the canvas is %.0f px tall in a 880 px window, want at least 400", p.Name, h)
		}
		for name, o := range map[string]fyne.CanvasObject{"algorithm": p.settings.picker.algoSelect, "backend Auto": p.settings.picker.backendBtns[solver.BackendAuto]} {
			if pos, ok := visibleIn(o, ap.Win.Canvas().Size()); !ok {
				t.Errorf("pane %s: the %s at %v is not inside the window", p.Name, name, pos)
			}
		}
		// The menu and the buttons share one line.
		d := fyne.CurrentApp().Driver()
		if a, b := d.AbsolutePositionForObject(p.settings.picker.algoSelect).Y, d.AbsolutePositionForObject(p.settings.picker.backendBtns[solver.BackendCPU]).Y; a != b {
			t.Errorf("pane %s: the algorithm at y %.0f, the backends at y %.0f: want one line", p.Name, a, b)
		}
	}
}
