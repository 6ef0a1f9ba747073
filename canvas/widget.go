package canvas

import (
	"image"
	"image/color"
	"math"
	"slices"
	"sync"

	"fyne.io/fyne/v2"
	fcanvas "fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/tsplab/tsplab/canvas/export"
)

// Zoom limits of the TourView.
const (
	MinZoom = 0.25
	MaxZoom = 2000
)

// TourView is a Fyne widget showing a scene rastered by export.Rasterizer: wheel zooms, drag pans, double tap fits.
type TourView struct {
	widget.BaseWidget

	mu     sync.Mutex
	scene  export.Scene
	bounds export.Bounds
	view   export.View
	style  export.Style
	rast   export.Rasterizer
	img    *image.RGBA
}

var (
	_ fyne.Widget         = (*TourView)(nil)
	_ fyne.Scrollable     = (*TourView)(nil)
	_ fyne.Draggable      = (*TourView)(nil)
	_ fyne.DoubleTappable = (*TourView)(nil)
)

// NewTourView returns an empty TourView with DefaultStyle.
func NewTourView() *TourView {
	t := &TourView{style: export.DefaultStyle(), view: export.View{Zoom: 1}, bounds: export.Bounds{MinX: 0, MinY: 0, MaxX: 1, MaxY: 1}}
	t.ExtendBaseWidget(t)
	return t
}

// SetScene replaces the view's scene: a new instance is fitted, a new tour keeps zoom and pan.
func (t *TourView) SetScene(s export.Scene) {
	t.mu.Lock()
	if sameScene(s, t.scene) { // a run in a set-up phase, or stuck on a tour
		t.mu.Unlock()
		return
	}
	if s.Instance != t.scene.Instance {
		t.bounds = export.BoundsOf(s.Instance)
		t.view = export.FitView(t.bounds)
	}
	t.scene = s
	t.mu.Unlock()
	t.Refresh()
}

// sameScene reports whether a and b draw the same: the same instance, title, state, kind (tour or path) and tour slices.
func sameScene(a, b export.Scene) bool {
	same := func(x, y []int) bool { return len(x) == len(y) && (len(x) == 0 || &x[0] == &y[0]) }
	return a.Instance == b.Instance && a.Title == b.Title && a.Done == b.Done && a.Path == b.Path && same(a.Tour, b.Tour) && same(a.Best, b.Best) && same(a.Optimal, b.Optimal)
}

// Scene returns what the view shows now.
func (t *TourView) Scene() export.Scene {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.scene
}

// View returns the current zoom and pan.
func (t *TourView) View() export.View {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.view
}

// SetView sets the zoom and pan.
func (t *TourView) SetView(v export.View) {
	v.Zoom = math.Min(math.Max(v.Zoom, MinZoom), MaxZoom)
	t.change(func() { t.view = v })
}

// Fit shows the whole instance.
func (t *TourView) Fit() { t.change(func() { t.view = export.FitView(t.bounds) }) }

// change makes a change of the view under its lock, then redraws it.
func (t *TourView) change(f func()) {
	t.mu.Lock()
	f()
	t.mu.Unlock()
	t.Refresh()
}

// transform returns the transform for the widget's size in Fyne units.
func (t *TourView) transform() export.Transform {
	sz := t.Size()
	return export.NewTransform(t.bounds, t.view, int(math.Max(float64(sz.Width), 1)), int(math.Max(float64(sz.Height), 1)))
}

// ZoomAt multiplies the zoom by factor, keeping the world point under pos in place.
func (t *TourView) ZoomAt(factor float64, pos fyne.Position) {
	if factor <= 0 {
		return
	}
	t.change(func() {
		tr := t.transform()
		wx, wy := tr.Invert(float64(pos.X), float64(pos.Y))
		z := math.Min(math.Max(t.view.Zoom*factor, MinZoom), MaxZoom)
		scale := tr.Scale / t.view.Zoom * z
		t.view.Zoom = z
		t.view.CX = wx - (float64(pos.X)-tr.HalfW)/scale
		t.view.CY = wy + (float64(pos.Y)-tr.HalfH)/scale
	})
}

// PanBy moves the picture by (dx, dy) widget units.
func (t *TourView) PanBy(dx, dy float32) {
	t.change(func() {
		tr := t.transform()
		t.view.CX -= float64(dx) / tr.Scale
		t.view.CY += float64(dy) / tr.Scale
	})
}

// Scrolled zooms about the pointer: each wheel notch is 15%.
func (t *TourView) Scrolled(ev *fyne.ScrollEvent) {
	notches := float64(ev.Scrolled.DY) / 10 // GLFW sends ±10 per notch
	if notches == 0 {
		return
	}
	t.ZoomAt(math.Pow(1.15, notches), ev.Position)
}

// Dragged pans the picture with the pointer.
func (t *TourView) Dragged(ev *fyne.DragEvent) { t.PanBy(ev.Dragged.DX, ev.Dragged.DY) }

// DragEnd ends a pan.
func (t *TourView) DragEnd() {}

// DoubleTapped fits the instance to the widget.
func (t *TourView) DoubleTapped(*fyne.PointEvent) { t.Fit() }

// generate is the raster's generator: it redraws into a reused image.
func (t *TourView) generate(w, h int) image.Image {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.img = reuse(t.img, w, h)
	t.rast.Render(t.img, t.scene, t.view, t.style)
	return t.img
}

// CreateRenderer implements fyne.Widget.
func (t *TourView) CreateRenderer() fyne.WidgetRenderer {
	r := &tourViewRenderer{view: t, raster: fcanvas.NewRaster(t.generate)}
	r.title = fcanvas.NewText("", t.style.City)
	r.title.TextSize = theme.TextSize()
	r.empty = fcanvas.NewText("", t.style.City)
	r.empty.Alignment = fyne.TextAlignCenter
	r.legend = newLegend(t.style)
	r.update()
	return r
}

type tourViewRenderer struct {
	view   *TourView
	raster *fcanvas.Raster
	title  *fcanvas.Text
	empty  *fcanvas.Text
	legend *legend
	frames int // refreshes asked of the raster
}

// Legend entries of the TourView: those of exported pictures (export.LegendFor).
const (
	LegendTour    = export.LegendTour
	LegendBest    = export.LegendBest
	LegendOptimal = export.LegendOptimal
	LegendChanged = export.LegendChanged
	LegendEnds    = export.LegendEnds
)

// legend names what the view draws, bottom left, a row per entry shown while drawn.
type legend struct {
	box  *fyne.Container // the rows over a translucent background
	rows map[string]fyne.CanvasObject
}

const legendSwatch = 18 // the width of an entry's sample, in Fyne units

func newLegend(st export.Style) *legend {
	bar := func(c color.Color, w, h float32) fyne.CanvasObject {
		r := fcanvas.NewRectangle(c)
		r.SetMinSize(fyne.NewSize(w, h))
		return r
	}
	heat := st.Heat
	heat.A = 110
	l := &legend{rows: map[string]fyne.CanvasObject{}}
	list := container.NewVBox()
	for _, e := range []struct {
		name string
		sw   fyne.CanvasObject
	}{
		{LegendTour, bar(st.Tour, legendSwatch, 2)},
		{LegendBest, bar(st.Best, legendSwatch, 2)},
		{LegendOptimal, container.NewHBox(bar(st.Optimal, 7, 2), bar(st.Optimal, 7, 2))},
		{LegendChanged, bar(heat, 10, 10)},
		{LegendEnds, bar(st.Tour, 8, 8)},
	} {
		t := fcanvas.NewText(e.name, st.City)
		t.TextSize = theme.CaptionTextSize()
		cell := container.NewGridWrap(fyne.NewSize(legendSwatch, t.MinSize().Height), container.NewCenter(e.sw))
		l.rows[e.name] = container.NewHBox(cell, t)
		list.Add(l.rows[e.name])
	}
	bg := fcanvas.NewRectangle(color.NRGBA{R: st.Background.R, G: st.Background.G, B: st.Background.B, A: 200})
	l.box = container.NewStack(bg, container.NewPadded(list))
	return l
}

// LegendFor lists the legend entries of what the view draws of s.
func LegendFor(s export.Scene) []string { return export.LegendFor(s) }

// set shows the entries of what s draws.
func (l *legend) set(s export.Scene) {
	names := LegendFor(s)
	for name, row := range l.rows {
		showIf(row, slices.Contains(names, name))
	}
	showIf(l.box, len(names) > 0)
}

// layout places the legend at the bottom left of size.
func (l *legend) layout(size fyne.Size) {
	m := l.box.MinSize()
	l.box.Resize(m)
	l.box.Move(fyne.NewPos(theme.Padding(), size.Height-m.Height-theme.Padding()))
}

func (r *tourViewRenderer) update() {
	s := r.view.Scene()
	r.legend.set(s)
	r.title.Text = s.Title
	switch {
	case s.Instance == nil:
		r.empty.Text = "no instance"
	case !s.Instance.HasCoords():
		r.empty.Text = "no coordinates to draw (" + s.Instance.Metric.String() + " without display data): solved all the same"
	default:
		r.empty.Text = ""
	}
}

func (r *tourViewRenderer) Layout(size fyne.Size) {
	r.raster.Resize(size)
	r.raster.Move(fyne.NewPos(0, 0))
	pad := theme.Padding()
	r.title.Move(fyne.NewPos(pad, pad))
	r.title.Resize(r.title.MinSize())
	r.empty.Resize(fyne.NewSize(size.Width, r.empty.MinSize().Height))
	r.empty.Move(fyne.NewPos(0, (size.Height-r.empty.MinSize().Height)/2))
	r.legend.layout(size)
}

func (r *tourViewRenderer) MinSize() fyne.Size { return fyne.NewSize(120, 90) }

func (r *tourViewRenderer) Refresh() {
	r.update()
	r.legend.layout(r.view.Size())
	r.title.Refresh()
	r.empty.Refresh()
	r.legend.box.Refresh()
	r.raster.Refresh()
	r.frames++
}

func (r *tourViewRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.raster, r.title, r.empty, r.legend.box}
}

func (r *tourViewRenderer) Destroy() {}

// reuse returns img when it is w×h, else a new one (at least 1×1).
func reuse(img *image.RGBA, w, h int) *image.RGBA {
	w, h = max(w, 1), max(h, 1)
	if img == nil || img.Rect.Dx() != w || img.Rect.Dy() != h {
		img = image.NewRGBA(image.Rect(0, 0, w, h))
	}
	return img
}
