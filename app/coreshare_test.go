package app

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"github.com/tsplab/tsplab/solver"
)

// In compare mode each pane's Workers field says the cores its run gets
// beside the other pane's, not every core; with one pane off the cores,
// the other gets them all again.
func TestCompareWorkersSayEachPanesShare(t *testing.T) {
	if runtime.NumCPU() < 2 {
		t.Skip("one core: nothing is shared")
	}
	ap, loads := newTestApp(t, Options{Compare: true})
	waitLoad(t, loads)
	ap.Left.SetSettings(fakeSettings(time.Second))
	rs := fakeSettings(time.Second)
	rs.Algorithm = "fake2"
	ap.Right.SetSettings(rs)
	share := strconv.Itoa(runtime.NumCPU() / 2)
	workers := func(p *Pane) optionRow { return row(t, p.settings, "workers") }
	pump(t, "each pane's Workers to say its share", func() bool {
		return workers(ap.Left).entry.PlaceHolder == share && workers(ap.Right).entry.PlaceHolder == share
	})
	if h := workers(ap.Left).help.Text; !strings.Contains(h, fmt.Sprintf("%s, this pane's share of the %d cores", share, runtime.NumCPU())) {
		t.Errorf("Workers help %q", h)
	}
	ap.Right.SetSettings(Settings{Algorithm: "exact", Backend: solver.BackendCPU, Seed: 1})
	all := strconv.Itoa(runtime.NumCPU())
	pump(t, "A's Workers to say every core", func() bool { return workers(ap.Left).entry.PlaceHolder == all })
}

// At 1280×800 the single view's settings fields end before the side
// column's scroll bar, which Fyne draws over its content.
func TestSettingsClearOfTheScrollBar(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	p := ap.Single
	ap.Win.Resize(fyne.NewSize(1280, 800))
	d := fyne.CurrentApp().Driver()
	edge := d.AbsolutePositionForObject(p.sideScroll).X + p.sideScroll.Size().Width - theme.ScrollBarSize()
	fields := map[string]fyne.CanvasObject{"Time limit": p.settings.timeItem, "Seed": p.settings.seedItem}
	for _, r := range p.settings.rows {
		if r.entry != nil && r.entry.Visible() {
			fields[r.opt.Name] = r.entry
		}
	}
	for name, o := range fields {
		if right := d.AbsolutePositionForObject(o).X + o.Size().Width; o.Size().Width > 0 && right > edge {
			t.Errorf("%s ends at %.0f, under the scroll bar from %.0f", name, right, edge)
		}
	}
}
