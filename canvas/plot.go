package canvas

import (
	"fmt"
	"image"
	"strconv"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	fcanvas "fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/tsplab/tsplab/canvas/export"
)

// MaxCurvePoints bounds the points a Curve keeps; beyond it, every other
// point of the older half is dropped.
const MaxCurvePoints = 20000

// Curve is a Fyne widget plotting the best tour length against time, a
// convergence plot that grows while a run goes on. Call its methods on the
// Fyne goroutine.
type Curve struct {
	widget.BaseWidget

	mu      sync.Mutex
	pts     []export.CurvePoint
	optimum int64
	xmax    time.Duration
	style   export.CurveStyle
	img     *image.RGBA
	format  func(int64) string // the axis labels' lengths; nil: the integer
}

var _ fyne.Widget = (*Curve)(nil)

// NewCurve returns an empty convergence plot.
func NewCurve() *Curve {
	c := &Curve{style: export.DefaultCurveStyle()}
	c.ExtendBaseWidget(c)
	return c
}

// Add appends a point, no earlier than the last one. Points whose best
// length equals the last one only move the curve's end forward in time.
func (c *Curve) Add(p export.CurvePoint) {
	c.add(p)
	c.Refresh()
}

func (c *Curve) add(p export.CurvePoint) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(c.pts)
	if n > 0 {
		p.Elapsed = max(p.Elapsed, c.pts[n-1].Elapsed) // time only goes forward
	}
	if n >= 2 && c.pts[n-1].Best == p.Best && c.pts[n-2].Best == p.Best {
		c.pts[n-1].Elapsed = max(c.pts[n-1].Elapsed, p.Elapsed)
	} else {
		c.pts = append(c.pts, p)
	}
	if len(c.pts) > MaxCurvePoints {
		half := len(c.pts) / 2
		keep := c.pts[:0]
		for i, q := range c.pts {
			if i >= half || i%2 == 0 {
				keep = append(keep, q)
			}
		}
		c.pts = keep
	}
}

// Reset removes every point.
func (c *Curve) Reset() {
	c.mu.Lock()
	c.pts = nil
	c.mu.Unlock()
	c.Refresh()
}

// SetOptimum sets the known optimum drawn as a dashed line (0: none).
func (c *Curve) SetOptimum(o int64) {
	c.mu.Lock()
	c.optimum = o
	c.mu.Unlock()
	c.Refresh()
}

// SetFormat sets how the axis labels show a length, such as the instance's
// FormatLength for a point list in its own units (nil: the integer).
func (c *Curve) SetFormat(f func(int64) string) {
	c.mu.Lock()
	c.format = f
	c.mu.Unlock()
	c.Refresh()
}

// SetTimeSpan sets the least time the x axis spans, e.g. the time limit.
func (c *Curve) SetTimeSpan(d time.Duration) {
	c.mu.Lock()
	c.xmax = d
	c.mu.Unlock()
	c.Refresh()
}

// Points returns a copy of the curve's points.
func (c *Curve) Points() []export.CurvePoint {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]export.CurvePoint(nil), c.pts...)
}

func (c *Curve) generate(w, h int) image.Image {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.img = reuse(c.img, w, h)
	export.RenderCurve(c.img, c.pts, c.optimum, c.xmax, c.style)
	return c.img
}

// CreateRenderer implements fyne.Widget.
func (c *Curve) CreateRenderer() fyne.WidgetRenderer {
	col := export.DefaultStyle().City
	r := &curveRenderer{c: c, raster: fcanvas.NewRaster(c.generate),
		hi: fcanvas.NewText("", col), lo: fcanvas.NewText("", col), t: fcanvas.NewText("", col)}
	for _, txt := range []*fcanvas.Text{r.hi, r.lo, r.t} {
		txt.TextSize = theme.CaptionTextSize()
	}
	r.t.Alignment = fyne.TextAlignTrailing
	r.update()
	return r
}

type curveRenderer struct {
	c         *Curve
	raster    *fcanvas.Raster
	hi, lo, t *fcanvas.Text
}

func (r *curveRenderer) update() {
	r.c.mu.Lock()
	n := len(r.c.pts)
	tmax, lo, hi := export.CurveRange(r.c.pts, r.c.optimum, r.c.xmax)
	format := r.c.format
	r.c.mu.Unlock()
	if format == nil {
		format = func(l int64) string { return strconv.FormatInt(l, 10) }
	}
	if n == 0 {
		r.hi.Text, r.lo.Text, r.t.Text = "best length", "", "time"
		return
	}
	r.hi.Text = format(hi)
	r.lo.Text = format(lo)
	r.t.Text = fmt.Sprintf("%.1f s", tmax.Seconds())
}

func (r *curveRenderer) Layout(size fyne.Size) {
	r.raster.Resize(size)
	pad := theme.Padding()
	r.hi.Move(fyne.NewPos(pad, 0))
	r.hi.Resize(r.hi.MinSize())
	r.lo.Resize(r.lo.MinSize())
	r.lo.Move(fyne.NewPos(pad, size.Height-r.lo.MinSize().Height-pad))
	r.t.Resize(fyne.NewSize(size.Width-2*pad, r.t.MinSize().Height))
	r.t.Move(fyne.NewPos(pad, size.Height-r.t.MinSize().Height-pad))
}

func (r *curveRenderer) MinSize() fyne.Size { return fyne.NewSize(120, 70) }

func (r *curveRenderer) Refresh() {
	r.update()
	for _, o := range r.Objects() {
		o.Refresh()
	}
	r.Layout(r.c.Size())
}

func (r *curveRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.raster, r.hi, r.lo, r.t}
}

func (r *curveRenderer) Destroy() {}
