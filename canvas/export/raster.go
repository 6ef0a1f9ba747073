package export

import (
	"encoding/binary"
	"image"
	"image/color"
	"math"
)

// Style is the palette of a rasterised scene.
type Style struct {
	Background color.RGBA
	City       color.RGBA
	Tour       color.RGBA // the current tour
	Dense      color.RGBA // the most crowded pixels of the current tour
	// Heat tints where recent snapshots changed the tour (see HeatGrid); alpha 0 draws none.
	Heat    color.RGBA
	Best    color.RGBA // the best tour, drawn beneath the current one
	Optimal color.RGBA // the optimal overlay, drawn dashed
	// CityRadius is the half-width in pixels of a sparse city's square dot (0: one pixel)
	CityRadius int
}

// TourColor is DefaultStyle's current tour colour, which tests and screenshot checks look for.
var TourColor = color.RGBA{R: 255, G: 150, B: 30, A: 255}

// DefaultStyle returns the app's palette: dark background, orange tour over a green best, dashed blue optimal.
func DefaultStyle() Style {
	return Style{
		Background: color.RGBA{R: 24, G: 26, B: 32, A: 255},
		City:       color.RGBA{R: 225, G: 228, B: 235, A: 255},
		Tour:       TourColor,
		Dense:      color.RGBA{R: 255, G: 210, B: 137, A: 255},
		Heat:       color.RGBA{R: 235, G: 70, B: 200, A: 255},
		Best:       color.RGBA{R: 60, G: 200, B: 120, A: 255},
		Optimal:    color.RGBA{R: 90, G: 150, B: 255, A: 255},
		CityRadius: 1,
	}
}

// View places a scene: world point (CX, CY) in the middle, Zoom times the fitted scale; world y grows upwards.
type View struct {
	CX, CY float64
	Zoom   float64
}

// Margin is the fitted instance's empty border as a share of the shorter side; MinMargin keeps the title clear.
const (
	Margin    = 0.04
	MinMargin = 28
)

// FitView returns the view that shows all of b (Zoom 1, centred).
func FitView(b Bounds) View {
	return View{CX: (b.MinX + b.MaxX) / 2, CY: (b.MinY + b.MaxY) / 2, Zoom: 1}
}

// FitScale is the pixels per world unit that fits b into a w×h image with Margin around it.
func FitScale(b Bounds, w, h float64) float64 {
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

// NewTransform returns view v's transform for a w×h image of cities spanning b.
func NewTransform(b Bounds, v View, w, h int) Transform {
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

// line draws a one-pixel Bresenham segment from (x0, y0) to (x1, y1), clipped, dashed when dash > 0.
func line(dst *image.RGBA, x0, y0, x1, y1 float64, c color.RGBA, dash int) {
	if ix0, iy0, ix1, iy1, ok := clipToPixels(x0, y0, x1, y1, dst.Rect.Dx(), dst.Rect.Dy()); ok {
		bresenham(dst.Pix, dst.Stride, ix0, iy0, ix1, iy1, pack(c), dash)
	}
}

// clipToPixels clips a segment to the w×h image (clip) and rounds its ends to pixels inside it.
func clipToPixels(x0, y0, x1, y1 float64, w, h int) (ix0, iy0, ix1, iy1 int, ok bool) {
	x0, y0, x1, y1, ok = clip(x0, y0, x1, y1, float64(w-1), float64(h-1))
	px := func(v float64, n int) int { return min(max(int(v+0.5), 0), n-1) }
	return px(x0, w), px(y0, h), px(x1, w), px(y1, h), ok
}

// lineWalk is a Bresenham walk over a raster of px bytes a pixel and
// stride a row: from offset o, n steps by major, and by minor as the error
// runs out (m the minor extent); its users keep their own inner loops.
type lineWalk struct{ o, major, minor, n, m int }

func newLineWalk(x0, y0, x1, y1, px, stride int) lineWalk {
	dx, dy := x1-x0, y1-y0
	sx, sy := px, stride
	if dx < 0 {
		dx, sx = -dx, -px
	}
	if dy < 0 {
		dy, sy = -dy, -stride
	}
	if dy > dx {
		sx, sy, dx, dy = sy, sx, dy, dx
	}
	return lineWalk{o: y0*stride + x0*px, major: sx, minor: sy, n: dx, m: dy}
}

// bresenham plots the integer line in colour col (packed); both ends must lie inside the image.
func bresenham(pix []byte, stride, x0, y0, x1, y1 int, col uint32, dash int) {
	lw := newLineWalk(x0, y0, x1, y1, 4, stride)
	o, err := lw.o, lw.n/2
	for i := 0; i <= lw.n; i++ {
		if dash <= 0 || (i/dash)&1 == 0 {
			binary.LittleEndian.PutUint32(pix[o:o+4], col)
		}
		o += lw.major
		err -= lw.m
		if err < 0 {
			err += lw.n
			o += lw.minor
		}
	}
}
