package app

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	fcanvas "fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"

	"github.com/tsplab/tsplab/canvas/export"
)

// curveLabels are the top and bottom values of a plot's length axis.
func curveLabels(t *testing.T, p *Pane) (hi, lo string) {
	t.Helper()
	objs := test.WidgetRenderer(p.Curve).Objects()
	return objs[2].(*fcanvas.Text).Text, objs[6].(*fcanvas.Text).Text
}

// The compare panes' plots share their axes: a pane whose run stayed
// higher sets the top of both, so that the two curves' heights compare.
func TestComparePlotsShareTheirAxes(t *testing.T) {
	ap, loads := newTestApp(t, Options{Compare: true})
	waitLoad(t, loads)
	for i, pts := range [][]int64{{600_000, 378_149, 300_000}, {700_000, 551_888, 400_000}} {
		p := []*Pane{ap.Left, ap.Right}[i]
		for j, b := range pts {
			p.Curve.Add(export.CurvePoint{Elapsed: time.Duration(j+1) * time.Second, Best: b})
		}
	}
	lh, ll := curveLabels(t, ap.Left)
	rh, rl := curveLabels(t, ap.Right)
	if lh != rh || ll != rl {
		t.Errorf("A's axis runs %s to %s, B's %s to %s: want the same", ll, lh, rl, rh)
	}
	if rh != ap.Left.Instance().HumanLength(551_888) {
		t.Errorf("shared axis tops at %s, want B's 551,888", rh)
	}
	// the single view's plot keeps its own axes
	ap.Single.Curve.Add(export.CurvePoint{Elapsed: time.Second, Best: 10})
	ap.Single.Curve.Add(export.CurvePoint{Elapsed: 2 * time.Second, Best: 5})
	if h, _ := curveLabels(t, ap.Single); h == rh {
		t.Error("the single view's plot took the compare panes' axes")
	}
}

// The compare panes stay level whatever their status lines say: a long
// line in one pane neither moves its tour and plot nor its neighbour's.
func TestComparePanesStayLevel(t *testing.T) {
	ap, loads := newTestApp(t, Options{Compare: true})
	waitLoad(t, loads)
	where := func(o fyne.CanvasObject) (fyne.Position, fyne.Size) {
		return fyne.CurrentApp().Driver().AbsolutePositionForObject(o), o.Size()
	}
	for _, win := range []fyne.Size{{Width: 1600, Height: 1000}, {Width: 1280, Height: 800}} {
		ap.Win.Resize(win)
		ap.Left.status.SetText("ready")
		ap.Right.status.SetText("ready")
		ap.Win.Resize(fyne.NewSize(win.Width, win.Height+1))
		ap.Win.Resize(win)
		before, size := where(ap.Left.Curve)
		ap.Left.status.SetText(strings.Repeat("a status line much longer than the others, ", 12))
		ap.Win.Resize(fyne.NewSize(win.Width, win.Height+1))
		ap.Win.Resize(win)
		for _, o := range []fyne.CanvasObject{ap.Left.Curve, ap.Right.Curve} {
			pos, sz := where(o)
			if pos.Y != before.Y || sz != size {
				t.Errorf("%v: a long status line moved a plot from %v %v to %v %v", win, before, size, pos, sz)
			}
		}
		lv, ls := where(ap.Left.View)
		rv, rs := where(ap.Right.View)
		if lv.Y != rv.Y || ls.Height != rs.Height {
			t.Errorf("%v: the tours are not level: A at %v %v, B at %v %v", win, lv, ls, rv, rs)
		}
	}
}
