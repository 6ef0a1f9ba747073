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
	"github.com/tsplab/tsplab/solver/problem"
)

// MaxCurvePoints bounds a Curve's points; beyond, every other older point is dropped.
const MaxCurvePoints = 20000

// Curve is a Fyne widget plotting best tour length against time while a run goes on; call it on the Fyne goroutine.
type Curve struct {
	widget.BaseWidget

	mu      sync.Mutex
	pts     []export.CurvePoint
	optimum int64
	isBound bool // the dashed line is a lower bound, not the optimum
	xmax    time.Duration
	style   export.CurveStyle
	img     *image.RGBA
	format  func(int64) string // the axis labels' lengths; nil: the integer
	// peers are the other plots drawn on the same axes (ShareAxes)
	peers []*Curve
}

// ShareAxes draws the plots on the union of their ranges, so side-by-side runs read alike.
func ShareAxes(cs ...*Curve) {
	for _, c := range cs {
		c.mu.Lock()
		c.peers = nil
		for _, d := range cs {
			if d != c {
				c.peers = append(c.peers, d)
			}
		}
		c.mu.Unlock()
	}
}

// axes is the plot's ranges over its peers' too, locking one plot at a time.
func (c *Curve) axes() (tmax time.Duration, lo, hi int64) {
	c.mu.Lock()
	tmax, lo, hi = export.CurveRange(c.pts, c.optimum, c.xmax)
	n, peers := len(c.pts), c.peers
	c.mu.Unlock()
	for _, d := range peers {
		d.mu.Lock()
		m := len(d.pts)
		t, l, h := export.CurveRange(d.pts, d.optimum, d.xmax)
		d.mu.Unlock()
		switch {
		case m == 0:
		case n == 0:
			tmax, lo, hi, n = t, l, h, m
		default:
			tmax, lo, hi = max(tmax, t), min(lo, l), max(hi, h)
		}
	}
	return tmax, lo, hi
}

// refreshPeers redraws the plots whose axes follow this one's.
func (c *Curve) refreshPeers() {
	c.mu.Lock()
	peers := c.peers
	c.mu.Unlock()
	for _, d := range peers {
		d.Refresh()
	}
}

var _ fyne.Widget = (*Curve)(nil)

// NewCurve returns an empty convergence plot.
func NewCurve() *Curve {
	c := &Curve{style: export.DefaultCurveStyle()}
	c.ExtendBaseWidget(c)
	return c
}

// Add appends a point no earlier than the last; an equal best only moves the curve's end.
func (c *Curve) Add(p export.CurvePoint) {
	c.add(p)
	c.Refresh()
	c.refreshPeers()
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
func (c *Curve) Reset() { c.change(func() { c.pts = nil }) }

// SetOptimum sets the known optimum drawn as a dashed line (0: none).
func (c *Curve) SetOptimum(o int64) { c.setLine(o, false) }

// SetBound shows a proven lower bound as the dashed line in place of an unknown optimum.
func (c *Curve) SetBound(lb int64) { c.setLine(lb, true) }

func (c *Curve) setLine(v int64, isBound bool) {
	c.change(func() { c.optimum, c.isBound = v, isBound })
}

// change changes the plot under its lock, then redraws it and its peers.
func (c *Curve) change(f func()) {
	c.mu.Lock()
	f()
	c.mu.Unlock()
	c.Refresh()
	c.refreshPeers()
}

// SetFormat sets how axis labels show a length (nil: the integer).
func (c *Curve) SetFormat(f func(int64) string) {
	c.mu.Lock()
	c.format = f
	c.mu.Unlock()
	c.Refresh()
}

// SetTimeSpan sets the least time the x axis spans, e.g. the time limit.
func (c *Curve) SetTimeSpan(d time.Duration) { c.change(func() { c.xmax = d }) }

// Points returns a copy of the curve's points.
func (c *Curve) Points() []export.CurvePoint {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]export.CurvePoint(nil), c.pts...)
}

func (c *Curve) generate(w, h int) image.Image {
	tmax, lo, hi := c.axes()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.img = reuse(c.img, w, h)
	export.RenderCurveIn(c.img, c.pts, c.optimum, tmax, lo, hi, c.style)
	return c.img
}

// Axis titles of the plot, shown before and during a run.
const (
	LengthTitle = "best length"
	TimeTitle   = "time"
)

// CreateRenderer implements fyne.Widget.
func (c *Curve) CreateRenderer() fyne.WidgetRenderer {
	col := export.DefaultStyle().City
	r := &curveRenderer{c: c, raster: fcanvas.NewRaster(c.generate)}
	for _, t := range []**fcanvas.Text{&r.hi, &r.lo, &r.t, &r.yTitle, &r.tTitle, &r.legend} {
		*t = fcanvas.NewText("", col)
		(*t).TextSize = theme.CaptionTextSize()
	}
	r.yTitle.Text, r.tTitle.Text = LengthTitle, TimeTitle
	r.t.Alignment = fyne.TextAlignTrailing
	r.tTitle.Alignment = fyne.TextAlignCenter
	oc := c.style.Optimum
	for i := range r.dash {
		r.dash[i] = fcanvas.NewLine(oc)
		r.dash[i].StrokeWidth = 1.5
	}
	r.update()
	return r
}

// curveRenderer draws the plot between two bands of text, so that no label lies on a line.
type curveRenderer struct {
	c                         *Curve
	raster                    *fcanvas.Raster
	hi, lo, t, yTitle, tTitle *fcanvas.Text
	legend                    *fcanvas.Text
	dash                      [2]*fcanvas.Line // the legend's sample of the dashed line
	showLegend                bool
}

func (r *curveRenderer) update() {
	tmax, lo, hi := r.c.axes()
	r.c.mu.Lock()
	n := len(r.c.pts)
	format, line, isBound := r.c.format, r.c.optimum, r.c.isBound
	r.c.mu.Unlock()
	if format == nil {
		format = func(l int64) string { return problem.GroupDigits(strconv.FormatInt(l, 10)) }
	}
	r.showLegend = line > 0
	r.legend.Text = "optimum"
	if isBound {
		r.legend.Text = "lower bound"
	}
	if n == 0 {
		r.hi.Text, r.lo.Text, r.t.Text = "", "", ""
		return
	}
	r.hi.Text = format(hi)
	r.lo.Text = format(lo)
	r.t.Text = fmt.Sprintf("%.1f s", tmax.Seconds())
}

// band is the height of a band of caption text above or beneath the plot.
func (r *curveRenderer) band() float32 { return r.yTitle.MinSize().Height }

func (r *curveRenderer) Layout(size fyne.Size) {
	pad, band := theme.Padding(), r.band()
	r.raster.Move(fyne.NewPos(0, band))
	r.raster.Resize(fyne.NewSize(size.Width, max(size.Height-2*band, 0)))
	for _, t := range []*fcanvas.Text{r.hi, r.lo, r.yTitle} {
		t.Resize(t.MinSize())
	}
	r.yTitle.Move(fyne.NewPos(pad, 0))
	r.hi.Move(fyne.NewPos(pad+r.yTitle.MinSize().Width+2*pad, 0))
	// The legend at the top right: a dashed stroke, then its name.
	lw := r.legend.MinSize().Width
	r.legend.Resize(r.legend.MinSize())
	r.legend.Move(fyne.NewPos(size.Width-pad-lw, 0))
	x, y := size.Width-pad-lw-pad-18, band/2
	for i, d := range r.dash {
		x0 := x + float32(i)*10
		d.Position1, d.Position2 = fyne.NewPos(x0, y), fyne.NewPos(x0+6, y)
		showIf(d, r.showLegend)
	}
	showIf(r.legend, r.showLegend)
	bottom := size.Height - band
	r.lo.Move(fyne.NewPos(pad, bottom))
	r.t.Resize(fyne.NewSize(max(size.Width-2*pad, 0), band))
	r.t.Move(fyne.NewPos(pad, bottom))
	r.tTitle.Resize(fyne.NewSize(size.Width, band))
	r.tTitle.Move(fyne.NewPos(0, bottom))
}

func showIf(o fyne.CanvasObject, on bool) {
	if on {
		o.Show()
	} else {
		o.Hide()
	}
}

func (r *curveRenderer) MinSize() fyne.Size { return fyne.NewSize(120, 40+2*r.band()) }

func (r *curveRenderer) Refresh() {
	r.update()
	for _, o := range r.Objects() {
		o.Refresh()
	}
	r.Layout(r.c.Size())
}

func (r *curveRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.raster, r.yTitle, r.hi, r.legend, r.dash[0], r.dash[1], r.lo, r.tTitle, r.t}
}

func (r *curveRenderer) Destroy() {}
