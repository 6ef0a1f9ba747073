package tourview

import (
	"encoding/csv"
	"fmt"
	"image"
	"image/color"
	"io"
	"math"
	"strconv"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// CurvePoint is one point of a convergence curve: the best tour length
// known after Elapsed.
type CurvePoint struct {
	Elapsed time.Duration
	Best    int64
}

// CurveStyle is the palette of a convergence plot.
type CurveStyle struct {
	Background, Axis, Line, Optimum color.RGBA
}

// DefaultCurveStyle matches DefaultStyle: the curve has the best tour's
// colour, the optimum the optimal overlay's.
func DefaultCurveStyle() CurveStyle {
	s := DefaultStyle()
	return CurveStyle{Background: s.Background, Axis: color.RGBA{R: 110, G: 115, B: 125, A: 255}, Line: s.Best, Optimum: s.Optimal}
}

// CurveRange returns the axes of a plot of pts: time from 0 to tmax (at
// least xmax) and length from lo to hi, including the optimum when known
// and leaving out the first point when there are more than two.
func CurveRange(pts []CurvePoint, optimum int64, xmax time.Duration) (tmax time.Duration, lo, hi int64) {
	tmax = xmax
	lo, hi = math.MaxInt64, math.MinInt64
	for i, p := range pts {
		tmax = max(tmax, p.Elapsed)
		lo = min(lo, p.Best)
		// The first point is usually the random start, far above the
		// rest: it is drawn clipped so the descent stays readable.
		if i > 0 || len(pts) <= 2 {
			hi = max(hi, p.Best)
		}
	}
	if optimum > 0 && len(pts) > 0 {
		lo = min(lo, optimum)
	}
	if len(pts) == 0 {
		lo, hi = 0, 1
	}
	if hi <= lo {
		hi = lo + 1
	}
	if tmax <= 0 {
		tmax = time.Second
	}
	return tmax, lo, hi
}

// RenderCurve draws best length against time as a step line into dst,
// with a frame and the optimum as a dashed line; xmax is the least time
// the x axis spans (the run's budget, or 0).
func RenderCurve(dst *image.RGBA, pts []CurvePoint, optimum int64, xmax time.Duration, st CurveStyle) {
	fill(dst, st.Background)
	w, h := dst.Rect.Dx(), dst.Rect.Dy()
	if w < 4 || h < 4 {
		return
	}
	fw, fh := float64(w-1), float64(h-1)
	line(dst, 0, fh, fw, fh, st.Axis, 0)
	line(dst, 0, 0, 0, fh, st.Axis, 0)
	if len(pts) == 0 {
		return
	}
	tmax, lo, hi := CurveRange(pts, optimum, xmax)
	pad := 0.06 * fh
	x := func(t time.Duration) float64 { return 1 + (fw-2)*float64(t)/float64(tmax) }
	y := func(v int64) float64 { return pad + (fh-2*pad)*float64(hi-v)/float64(hi-lo) }
	if optimum > 0 {
		line(dst, 1, y(optimum), fw, y(optimum), st.Optimum, 3)
	}
	px, py := x(pts[0].Elapsed), y(pts[0].Best)
	for _, p := range pts[1:] {
		nx, ny := x(p.Elapsed), y(p.Best)
		line(dst, px, py, nx, py, st.Line, 0)
		line(dst, nx, py, nx, ny, st.Line, 0)
		px, py = nx, ny
	}
	dot(dst, int(px+0.5), int(py+0.5), 1, st.Line)
}

// WriteCurveCSV writes pts as CSV with the header
// "elapsed_s,best_length".
func WriteCurveCSV(w io.Writer, pts []CurvePoint) error {
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"elapsed_s", "best_length"}); err != nil {
		return err
	}
	for _, p := range pts {
		if err := cw.Write([]string{strconv.FormatFloat(p.Elapsed.Seconds(), 'f', 3, 64), strconv.FormatInt(p.Best, 10)}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// MaxCurvePoints bounds the points a Curve keeps; beyond it, every other
// point of the older half is dropped.
const MaxCurvePoints = 20000

// Curve is a Fyne widget plotting the best tour length against time, a
// convergence plot that grows while a run goes on. Call its methods on the
// Fyne goroutine.
type Curve struct {
	widget.BaseWidget

	mu      sync.Mutex
	pts     []CurvePoint
	optimum int64
	xmax    time.Duration
	style   CurveStyle
	img     *image.RGBA
}

var _ fyne.Widget = (*Curve)(nil)

// NewCurve returns an empty convergence plot.
func NewCurve() *Curve {
	c := &Curve{style: DefaultCurveStyle()}
	c.ExtendBaseWidget(c)
	return c
}

// Add appends a point. Points whose best length equals the last one only
// move the curve's end forward in time.
func (c *Curve) Add(p CurvePoint) {
	c.add(p)
	c.Refresh()
}

func (c *Curve) add(p CurvePoint) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(c.pts)
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

// SetTimeSpan sets the least time the x axis spans, e.g. the time limit.
func (c *Curve) SetTimeSpan(d time.Duration) {
	c.mu.Lock()
	c.xmax = d
	c.mu.Unlock()
	c.Refresh()
}

// Points returns a copy of the curve's points.
func (c *Curve) Points() []CurvePoint {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]CurvePoint(nil), c.pts...)
}

// Image renders the plot at w×h pixels.
func (c *Curve) Image(w, h int) *image.RGBA {
	c.mu.Lock()
	defer c.mu.Unlock()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	RenderCurve(img, c.pts, c.optimum, c.xmax, c.style)
	return img
}

func (c *Curve) generate(w, h int) image.Image {
	c.mu.Lock()
	defer c.mu.Unlock()
	if w <= 0 || h <= 0 {
		w, h = 1, 1
	}
	if c.img == nil || c.img.Rect.Dx() != w || c.img.Rect.Dy() != h {
		c.img = image.NewRGBA(image.Rect(0, 0, w, h))
	}
	RenderCurve(c.img, c.pts, c.optimum, c.xmax, c.style)
	return c.img
}

// CreateRenderer implements fyne.Widget.
func (c *Curve) CreateRenderer() fyne.WidgetRenderer {
	col := DefaultStyle().City
	r := &curveRenderer{c: c, raster: canvas.NewRaster(c.generate),
		hi: canvas.NewText("", col), lo: canvas.NewText("", col), t: canvas.NewText("", col)}
	for _, txt := range []*canvas.Text{r.hi, r.lo, r.t} {
		txt.TextSize = theme.CaptionTextSize()
	}
	r.t.Alignment = fyne.TextAlignTrailing
	r.update()
	return r
}

type curveRenderer struct {
	c         *Curve
	raster    *canvas.Raster
	hi, lo, t *canvas.Text
}

func (r *curveRenderer) update() {
	r.c.mu.Lock()
	n := len(r.c.pts)
	tmax, lo, hi := CurveRange(r.c.pts, r.c.optimum, r.c.xmax)
	r.c.mu.Unlock()
	if n == 0 {
		r.hi.Text, r.lo.Text, r.t.Text = "best length", "", "time"
		return
	}
	r.hi.Text = strconv.FormatInt(hi, 10)
	r.lo.Text = strconv.FormatInt(lo, 10)
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
