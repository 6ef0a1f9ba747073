package app

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
)

// rect is a box on the window: its corners.
type rect struct{ x0, y0, x1, y1 float32 }

func (r rect) and(o rect) rect {
	return rect{max(r.x0, o.x0), max(r.y0, o.y0), min(r.x1, o.x1), min(r.y1, o.y1)}
}

// shown finds target under root and returns its box on the window and
// the part of it on screen: inside the window and every scroller around
// it (ok false: not found or hidden).
func shown(root, target fyne.CanvasObject, win fyne.Size) (box, seen rect, ok bool) {
	var walk func(o fyne.CanvasObject, at fyne.Position, clip rect) bool
	walk = func(o fyne.CanvasObject, at fyne.Position, clip rect) bool {
		if !o.Visible() {
			return false
		}
		pos := at.Add(o.Position())
		r := rect{pos.X, pos.Y, pos.X + o.Size().Width, pos.Y + o.Size().Height}
		if o == target {
			box, seen, ok = r, r.and(clip), true
			return true
		}
		if _, isScroll := o.(*container.Scroll); isScroll {
			clip = clip.and(r)
		}
		for _, c := range children(o) {
			if walk(c, pos, clip) {
				return true
			}
		}
		return false
	}
	walk(root, fyne.NewPos(-root.Position().X, -root.Position().Y), rect{0, 0, win.Width, win.Height})
	return box, seen, ok
}

// TestComparePaneFitsTheWindow: at 1280×800 and at 1600×1000 every
// figure of both compare panes (Length to Elapsed), the plot, the run
// buttons and the progress bar are wholly on screen without scrolling,
// and the canvas keeps room.
func TestComparePaneFitsTheWindow(t *testing.T) {
	ap, loads := newTestApp(t, Options{Compare: true})
	waitLoad(t, loads)
	check(t, ap)
	// After a run the summary has its most lines.
	ls, rs := fakeSettings(time.Second), fakeSettings(time.Second)
	ls.Seed = 1
	ap.Left.SetSettings(ls)
	ap.Right.SetSettings(rs)
	runCompare(t, ap, 300*time.Millisecond)
	pump(t, "the summary of the run", func() bool { return strings.Contains(ap.Summary(), "Swap seeds") })
	check(t, ap)
	// A pane's settings open over the window, not beneath its figures.
	test.Tap(ap.Left.settingsBtn)
	top := ap.Win.Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("the settings button opened nothing")
	}
	if _, _, ok := shown(top, ap.Left.settingsPanel, ap.Win.Canvas().Size()); !ok {
		t.Error("the dialog does not hold pane A's settings")
	}
}

// check fails t unless the compare panes' figures are wholly on screen
// at 1280×800 and 1600×1000 (TestComparePaneFitsTheWindow).
func check(t *testing.T, ap *App) {
	t.Helper()
	for _, win := range []fyne.Size{{Width: 1280, Height: 800}, {Width: 1600, Height: 1000}} {
		ap.Win.Resize(win)
		layoutAgain(ap.Win.Content())
		size := ap.Win.Canvas().Size()
		for _, p := range ap.Panes() {
			targets := map[string]fyne.CanvasObject{"plot": p.Curve, "Run": p.controls.run, "Reset": p.controls.reset, "progress bar": p.status.bar}
			for _, k := range numberKeys {
				if k != "Temperature" || p.numbers.anneals {
					targets[k] = p.numbers.value[k]
				}
			}
			for name, o := range targets {
				box, seen, ok := shown(ap.Win.Content(), o, size)
				if !ok || box.x1 <= box.x0 || box.y1 <= box.y0 || seen != box {
					t.Errorf("%v window, pane %s: %s at %v is not wholly on screen (seen %v)", win, p.Name, name, box, seen)
				}
			}
			for _, k := range numberKeys {
				l := p.numbers.value[k]
				if need := fyne.MeasureText(l.Text, theme.TextSize(), l.TextStyle).Width + 2*theme.InnerPadding(); l.Visible() && need > l.Size().Width+0.5 {
					t.Errorf("%v window, pane %s: %s %q needs %.0f px, has %.0f: cut off", win, p.Name, k, l.Text, need, l.Size().Width)
				}
			}
			if h := p.View.Size().Height; h < 0.3*win.Height {
				t.Errorf("%v window, pane %s: the canvas is %.0f px tall", win, p.Name, h)
			}
			t.Logf("%v pane %s: canvas %v", win, p.Name, p.View.Size())
		}
	}
}
