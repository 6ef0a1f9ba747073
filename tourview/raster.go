package tourview

import (
	"encoding/binary"
	"image"
	"image/color"
	"math"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/tourview/export"
)

// Style is the palette of a rasterised scene.
type Style struct {
	Background color.RGBA
	City       color.RGBA
	Tour       color.RGBA // the current tour
	Best       color.RGBA // the best tour, drawn beneath the current one
	Optimal    color.RGBA // the optimal overlay, drawn dashed
	// CityRadius is the half-width in pixels of a city's square dot
	// (0: one pixel). Above MaxDotCities cities, dots are one pixel.
	CityRadius int
}

// MaxDotCities is the instance size above which cities are drawn as
// single pixels whatever Style.CityRadius says, so large instances stay
// readable and fast.
const MaxDotCities = 5000

// TourColor is the colour of the current tour in DefaultStyle; tests and
// screenshot checks look for it.
var TourColor = color.RGBA{R: 255, G: 150, B: 30, A: 255}

// DefaultStyle returns the palette the app uses: a dark background, pale
// cities, an orange current tour over a green best tour, a dashed blue
// optimal overlay.
func DefaultStyle() Style {
	return Style{
		Background: color.RGBA{R: 24, G: 26, B: 32, A: 255},
		City:       color.RGBA{R: 225, G: 228, B: 235, A: 255},
		Tour:       TourColor,
		Best:       color.RGBA{R: 60, G: 200, B: 120, A: 255},
		Optimal:    color.RGBA{R: 90, G: 150, B: 255, A: 255},
		CityRadius: 1,
	}
}

// View places a scene on a raster: the world point (CX, CY) lands in the
// middle of the image and Zoom multiplies the scale that fits the whole
// instance (Zoom 1 shows everything). World y grows upwards.
type View struct {
	CX, CY float64
	Zoom   float64
}

// Margin is the fraction of the shorter image side left empty around a
// fitted instance; MinMargin is the least margin, in pixels or Fyne units,
// enough to keep the title line at the top clear of the tour.
const (
	Margin    = 0.04
	MinMargin = 28
)

// FitView returns the view that shows all of b (Zoom 1, centred).
func FitView(b export.Bounds) View {
	return View{CX: (b.MinX + b.MaxX) / 2, CY: (b.MinY + b.MaxY) / 2, Zoom: 1}
}

// FitScale is the pixels per world unit that fits b into a w×h image with
// Margin around it.
func FitScale(b export.Bounds, w, h float64) float64 {
	m := math.Max(Margin*math.Min(w, h), math.Min(MinMargin, math.Min(w, h)/6))
	bw, bh := b.Width(), b.Height()
	if bw <= 0 {
		bw = 1
	}
	if bh <= 0 {
		bh = 1
	}
	s := math.Min((w-2*m)/bw, (h-2*m)/bh)
	if s <= 0 || math.IsNaN(s) || math.IsInf(s, 0) {
		s = 1
	}
	return s
}

// Transform maps world coordinates to the pixels of one image size.
type Transform struct {
	Scale        float64 // pixels per world unit
	CX, CY       float64 // world point at the image centre
	HalfW, HalfH float64 // half the image size in pixels
}

// NewTransform returns the transform of view v for a w×h image showing
// an instance whose cities span b.
func NewTransform(b export.Bounds, v View, w, h int) Transform {
	z := v.Zoom
	if z <= 0 {
		z = 1
	}
	return Transform{
		Scale: FitScale(b, float64(w), float64(h)) * z,
		CX:    v.CX, CY: v.CY,
		HalfW: float64(w) / 2, HalfH: float64(h) / 2,
	}
}

// Apply returns the pixel position of world point (x, y).
func (t Transform) Apply(x, y float64) (px, py float64) {
	return (x-t.CX)*t.Scale + t.HalfW, t.HalfH - (y-t.CY)*t.Scale
}

// Invert returns the world point at pixel (px, py).
func (t Transform) Invert(px, py float64) (x, y float64) {
	return (px-t.HalfW)/t.Scale + t.CX, (t.HalfH-py)/t.Scale + t.CY
}

// Rasterizer draws scenes into RGBA images. It keeps its projection
// buffers and the last instance's bounds between calls, so redrawing the
// same instance allocates nothing; it is not safe for concurrent use.
type Rasterizer struct {
	px, py []int32 // pixel position of each city, clamped to ±clampLimit
	inside []bool  // whether the city lies inside the image

	boundsOf *solver.Instance
	boundsN  int
	bounds   export.Bounds
}

// clampLimit keeps projected coordinates far outside any image but small
// enough for exact int32 and float64 clipping arithmetic.
const clampLimit = 1 << 24

// Bounds returns export.BoundsOf(in), cached for the last instance drawn.
func (r *Rasterizer) Bounds(in *solver.Instance) export.Bounds {
	if in != r.boundsOf || in == nil || in.N != r.boundsN {
		r.boundsOf, r.bounds = in, export.BoundsOf(in)
		if in != nil {
			r.boundsN = in.N
		}
	}
	return r.bounds
}

// Render draws scene s into dst through view v: background, the optimal
// overlay (dashed), the best tour, the current tour, then the cities.
// Instances without coordinates (EXPLICIT without display data) draw as
// the background alone.
func (r *Rasterizer) Render(dst *image.RGBA, s export.Scene, v View, st Style) {
	fill(dst, st.Background)
	in := s.Instance
	if in == nil || !in.HasCoords() {
		return
	}
	w, h := dst.Rect.Dx(), dst.Rect.Dy()
	t := NewTransform(r.Bounds(in), v, w, h)
	r.project(in, t, w, h)
	if len(s.Optimal) == in.N {
		r.polyline(dst, s.Optimal, st.Optimal, 4)
	}
	if len(s.Best) == in.N {
		r.polyline(dst, s.Best, st.Best, 0)
	}
	if len(s.Tour) == in.N {
		r.polyline(dst, s.Tour, st.Tour, 0)
	}
	rad := st.CityRadius
	if in.N > MaxDotCities {
		rad = 0
	}
	col := pack(st.City)
	for i := 0; i < in.N; i++ {
		if rad == 0 {
			if r.inside[i] {
				binary.LittleEndian.PutUint32(dst.Pix[int(r.py[i])*dst.Stride+int(r.px[i])*4:], col)
			}
			continue
		}
		dot(dst, int(r.px[i]), int(r.py[i]), rad, st.City)
	}
}

// RenderImage draws s into a new w×h image with the view that fits the
// whole instance.
func RenderImage(s export.Scene, w, h int, st Style) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	var r Rasterizer
	r.Render(img, s, FitView(r.Bounds(s.Instance)), st)
	return img
}

// project fills r.px, r.py with the rounded pixel position of every city
// and r.inside with whether it lies in the w×h image.
func (r *Rasterizer) project(in *solver.Instance, t Transform, w, h int) {
	if cap(r.px) < in.N {
		r.px = make([]int32, in.N)
		r.py = make([]int32, in.N)
		r.inside = make([]bool, in.N)
	}
	r.px, r.py, r.inside = r.px[:in.N], r.py[:in.N], r.inside[:in.N]
	for i := 0; i < in.N; i++ {
		x, y := export.WorldXY(in, i)
		px, py := t.Apply(x, y)
		ix := int32(math.Floor(clamp(px, -clampLimit, clampLimit) + 0.5))
		iy := int32(math.Floor(clamp(py, -clampLimit, clampLimit) + 0.5))
		r.px[i], r.py[i] = ix, iy
		r.inside[i] = uint32(ix) < uint32(w) && uint32(iy) < uint32(h)
	}
}

func clamp(v, lo, hi float64) float64 {
	if v < lo || math.IsNaN(v) {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

// pack returns c as the little-endian uint32 of its RGBA bytes.
func pack(c color.RGBA) uint32 {
	return uint32(c.R) | uint32(c.G)<<8 | uint32(c.B)<<16 | uint32(c.A)<<24
}

// polyline draws the closed tour; with dash > 0 it alternates dash pixels
// on and off. Edges with both ends inside the image skip clipping.
func (r *Rasterizer) polyline(dst *image.RGBA, tour []int, c color.RGBA, dash int) {
	n := len(tour)
	if n < 2 {
		return
	}
	col := pack(c)
	m := uint(len(r.px))
	prev := tour[n-1]
	for _, cur := range tour {
		if uint(cur) >= m || uint(prev) >= m {
			prev = cur
			continue
		}
		if r.inside[prev] && r.inside[cur] {
			bresenham(dst.Pix, dst.Stride, int(r.px[prev]), int(r.py[prev]), int(r.px[cur]), int(r.py[cur]), col, dash)
		} else {
			line(dst, float64(r.px[prev]), float64(r.py[prev]), float64(r.px[cur]), float64(r.py[cur]), c, dash)
		}
		prev = cur
	}
}

// fill paints the whole image c, doubling copies of the first row.
func fill(dst *image.RGBA, c color.RGBA) {
	w, h := dst.Rect.Dx(), dst.Rect.Dy()
	if w == 0 || h == 0 {
		return
	}
	row := dst.Pix[:w*4]
	row[0], row[1], row[2], row[3] = c.R, c.G, c.B, c.A
	for n := 4; n < len(row); n *= 2 {
		copy(row[n:], row[:n])
	}
	for y := 1; y < h; y++ {
		copy(dst.Pix[y*dst.Stride:y*dst.Stride+w*4], row)
	}
}

// dot paints a (2r+1)-pixel square centred on (x, y), clipped.
func dot(dst *image.RGBA, x, y, r int, c color.RGBA) {
	w, h := dst.Rect.Dx(), dst.Rect.Dy()
	x0, x1, y0, y1 := x-r, x+r, y-r, y+r
	if x1 < 0 || y1 < 0 || x0 >= w || y0 >= h {
		return
	}
	x0, y0 = max(x0, 0), max(y0, 0)
	x1, y1 = min(x1, w-1), min(y1, h-1)
	for yy := y0; yy <= y1; yy++ {
		o := yy*dst.Stride + x0*4
		for xx := x0; xx <= x1; xx++ {
			p := dst.Pix[o : o+4 : o+4]
			p[0], p[1], p[2], p[3] = c.R, c.G, c.B, c.A
			o += 4
		}
	}
}

// Outcodes of Cohen–Sutherland clipping.
const (
	outLeft = 1 << iota
	outRight
	outBottom
	outTop
)

func outcode(x, y, xmax, ymax float64) int {
	c := 0
	if x < 0 {
		c |= outLeft
	} else if x > xmax {
		c |= outRight
	}
	if y < 0 {
		c |= outTop
	} else if y > ymax {
		c |= outBottom
	}
	return c
}

// line draws a one-pixel segment from (x0, y0) to (x1, y1) with
// Bresenham's algorithm after clipping it to the image (Cohen–Sutherland).
// With dash > 0 it alternates dash pixels on and dash pixels off.
func line(dst *image.RGBA, x0, y0, x1, y1 float64, c color.RGBA, dash int) {
	w, h := dst.Rect.Dx(), dst.Rect.Dy()
	xmax, ymax := float64(w)-1, float64(h)-1
	c0, c1 := outcode(x0, y0, xmax, ymax), outcode(x1, y1, xmax, ymax)
	for c0|c1 != 0 {
		if c0&c1 != 0 {
			return // both ends on the same outer side
		}
		co := c0
		if co == 0 {
			co = c1
		}
		var x, y float64
		switch {
		case co&outTop != 0:
			x, y = x0+(x1-x0)*(0-y0)/(y1-y0), 0
		case co&outBottom != 0:
			x, y = x0+(x1-x0)*(ymax-y0)/(y1-y0), ymax
		case co&outRight != 0:
			x, y = xmax, y0+(y1-y0)*(xmax-x0)/(x1-x0)
		default:
			x, y = 0, y0+(y1-y0)*(0-x0)/(x1-x0)
		}
		if co == c0 {
			x0, y0 = x, y
			c0 = outcode(x0, y0, xmax, ymax)
		} else {
			x1, y1 = x, y
			c1 = outcode(x1, y1, xmax, ymax)
		}
	}
	ix0, iy0 := int(x0+0.5), int(y0+0.5)
	ix1, iy1 := int(x1+0.5), int(y1+0.5)
	ix0, ix1 = min(max(ix0, 0), w-1), min(max(ix1, 0), w-1)
	iy0, iy1 = min(max(iy0, 0), h-1), min(max(iy1, 0), h-1)
	bresenham(dst.Pix, dst.Stride, ix0, iy0, ix1, iy1, pack(c), dash)
}

// bresenham plots the integer line in colour col (packed); both ends
// must lie inside the image.
func bresenham(pix []byte, stride, x0, y0, x1, y1 int, col uint32, dash int) {
	dx, dy := x1-x0, y1-y0
	sx, sy := 4, stride
	if dx < 0 {
		dx, sx = -dx, -4
	}
	if dy < 0 {
		dy, sy = -dy, -stride
	}
	o := y0*stride + x0*4
	// Step along the major axis; err decides the minor steps.
	major, minor := sx, sy
	n, m := dx, dy
	if dy > dx {
		major, minor = sy, sx
		n, m = dy, dx
	}
	err := n / 2
	if dash <= 0 {
		for i := 0; i <= n; i++ {
			binary.LittleEndian.PutUint32(pix[o:o+4], col)
			o += major
			err -= m
			if err < 0 {
				err += n
				o += minor
			}
		}
		return
	}
	for i := 0; i <= n; i++ {
		if (i/dash)&1 == 0 {
			binary.LittleEndian.PutUint32(pix[o:o+4], col)
		}
		o += major
		err -= m
		if err < 0 {
			err += n
			o += minor
		}
	}
}
