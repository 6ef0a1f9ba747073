// Package export draws what a run shows without Fyne, for the app's
// widgets (package canvas) and the command line: the Rasterizer,
// convergence curves, and pictures as PNG, SVG or PDF through gonum/plot's
// vg backends.
package export

import (
	"fmt"
	"image"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/problem"
	"github.com/tsplab/tsplab/solver/report"
)

// Formats Write supports.
const (
	FormatPNG = "png"
	FormatSVG = "svg"
	FormatPDF = "pdf"
)

// MaxSize bounds the width and height of an exported picture.
const MaxSize = 16384

// DotLimit is the city count above which Write rasterizes, in SVG and PDF too: vector paths would be huge and solid.
const DotLimit = 20000

// pictureStyle is the app's palette without the tint of recent changes, which a picture does not show.
func pictureStyle() Style {
	st := DefaultStyle()
	st.Heat.A = 0
	return st
}

// Scene is what a picture of a tour shows, live in the app or exported.
type Scene struct {
	Instance *problem.Instance
	Tour     []int  // tour to draw (0-based); nil draws the cities alone
	Best     []int  // optional second tour (the best so far), drawn beneath Tour
	Optimal  []int  // optional optimal tour overlay, drawn faint
	Title    string // e.g. "a280 — 2587 (0.31% above 2579)"; see TitleFor
	// Done marks a paused or finished run's scene: no tint of recent changes.
	Done bool
	// Path marks Tour and Best as open paths, drawn without the closing edge.
	Path bool
}

// SceneFor builds the scene of in with the given tours and a title naming the instance, length and gap.
func SceneFor(in *problem.Instance, tour, best, optimal []int) Scene {
	s := Scene{Instance: in, Tour: tour, Best: best, Optimal: optimal}
	if len(best) > 0 && in != nil && len(best) == in.N {
		tour = best
	}
	s.Title = TitleFor(in, tour, false)
	return s
}

// TitleFor is the record's title of tour of in (path: an open path), or "name — n cities" when tour is not whole.
func TitleFor(in *problem.Instance, tour []int, path bool) string {
	if in == nil {
		return ""
	}
	var res solver.Result
	switch {
	case len(tour) != in.N:
	case path:
		res.Length, res.Account.Route = problem.PathLength(in, tour), &solver.RouteAccount{Open: true}
	default:
		res.Length = problem.TourLength(in, tour)
	}
	return report.New(in, res).Title(in)
}

// Bounds is an axis-aligned rectangle in world coordinates (see WorldXY).
type Bounds struct{ MinX, MinY, MaxX, MaxY float64 }

// Width returns the extent of b along x.
func (b Bounds) Width() float64 { return b.MaxX - b.MinX }

// Height returns the extent of b along y.
func (b Bounds) Height() float64 { return b.MaxY - b.MinY }

// BoundsOf returns the cities' bounding box in world coordinates (a unit box without).
func BoundsOf(in *problem.Instance) Bounds {
	if in == nil || !in.HasCoords() || in.N == 0 {
		return Bounds{0, 0, 1, 1}
	}
	b := Bounds{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
	for i := 0; i < in.N; i++ {
		x, y := WorldXY(in, i)
		b.MinX, b.MaxX = min(b.MinX, x), max(b.MaxX, x)
		b.MinY, b.MaxY = min(b.MinY, y), max(b.MaxY, y)
	}
	return b
}

// FormatOf returns the format path's extension names ("png", "svg", "pdf"), or an error.
func FormatOf(path string) (string, error) {
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(path), "."))
	switch ext {
	case FormatPNG, FormatSVG, FormatPDF:
		return ext, nil
	case "":
		return "", fmt.Errorf("%s: no file extension: want .png, .svg or .pdf", path)
	}
	return "", fmt.Errorf("%s: unknown picture format %q: want .png, .svg or .pdf", path, "."+ext)
}

// Height is Write's height for width: the instance's aspect plus the title.
func Height(s Scene, width int) int {
	if s.Instance == nil || !s.Instance.HasCoords() {
		return width
	}
	b := BoundsOf(s.Instance)
	bw, bh := b.Width(), b.Height()
	m, title := layout(width)
	// A width narrower than the margins keeps one pixel of drawing area.
	inner := math.Max(1, float64(width)-2*m)
	h := inner
	switch {
	case bw > 0 && bh > 0:
		h = inner * bh / bw
	case bw > 0:
		h = inner / 4 // collinear along x: a thin strip
	}
	h = math.Max(h, inner/4)
	h = math.Min(h, 4*inner)
	return max(1, min(MaxSize, int(math.Ceil(h+2*m+title))))
}

// Write draws s in format "png", "svg" or "pdf" to w at width × height (height 0: Height), aspect kept.
func Write(w io.Writer, format string, s Scene, width, height int) error {
	return WriteSideBySide(w, format, []Scene{s}, width, height)
}

// Gutter is the gap between the scenes of a picture side by side.
const Gutter = 4

// SceneWidths splits width into n pictures and the gutters between them.
func SceneWidths(width, n int) ([]int, error) {
	free := width - Gutter*(n-1)
	if n < 1 || free < n {
		return nil, fmt.Errorf("export: width %d is too narrow for %d pictures side by side", width, n)
	}
	ws := make([]int, n)
	for i := range ws {
		ws[i] = free / n
	}
	ws[n-1] += free % n
	return ws, nil
}

// WriteSideBySide is Write of scenes left to right in one picture, each titled (compare mode's panes).
func WriteSideBySide(w io.Writer, format string, scenes []Scene, width, height int) error {
	if width <= 0 || width > MaxSize {
		return fmt.Errorf("export: width %d out of range 1..%d", width, MaxSize)
	}
	ws, err := SceneWidths(width, len(scenes))
	if err != nil {
		return err
	}
	for i, s := range scenes {
		if err := checkScene(s); err != nil {
			if len(scenes) > 1 {
				return fmt.Errorf("pane %c: %w", 'A'+i, err)
			}
			return err
		}
	}
	if height <= 0 {
		height = Height(scenes[0], ws[0])
	}
	if height > MaxSize {
		return fmt.Errorf("export: height %d out of range 1..%d", height, MaxSize)
	}
	W, H := vg.Length(width), vg.Length(height)
	paint := func(c vg.Canvas) {
		fillRect(c, 0, W, H, color.RGBA{R: 128, G: 128, B: 128, A: 255})
		x := 0
		for i, s := range scenes {
			c.Push()
			c.Translate(vg.Point{X: vg.Length(x)})
			fillRect(c, 0, vg.Length(ws[i]), H, pictureStyle().Background)
			draw(c, s, ws[i], height)
			c.Pop()
			x += ws[i] + Gutter
		}
	}
	switch format {
	case FormatPNG:
		// 72 dpi makes one point one pixel.
		c := vgimg.NewWith(vgimg.UseWH(W, H), vgimg.UseDPI(72), vgimg.UseBackgroundColor(pictureStyle().Background))
		paint(c)
		_, err := vgimg.PngCanvas{Canvas: c}.WriteTo(w)
		return err
	case FormatSVG, FormatPDF:
		var c interface {
			vg.Canvas
			io.WriterTo
		}
		if format == FormatSVG {
			c = vgsvg.New(W, H)
		} else {
			c = vgpdf.New(W, H)
		}
		paint(c)
		_, err := c.WriteTo(w)
		return err
	}
	return fmt.Errorf("export: unknown format %q (want png, svg or pdf)", format)
}

// checkScene fails for a scene without instance or coordinates, or with a tour not of its instance.
func checkScene(s Scene) error {
	in := s.Instance
	if in == nil {
		return fmt.Errorf("export: no instance to draw")
	}
	if !in.HasCoords() {
		return fmt.Errorf("export: %s has no coordinates to draw (an EXPLICIT instance without DISPLAY_DATA_SECTION)", in.Name)
	}
	for _, t := range []struct {
		name string
		tour []int
	}{{"tour", s.Tour}, {"best tour", s.Best}, {"optimal tour", s.Optimal}} {
		if t.tour != nil {
			if err := problem.ValidateTour(t.tour, in.N); err != nil {
				return fmt.Errorf("export: %s: %v", t.name, err)
			}
		}
	}
	return nil
}

// fillRect fills the rectangle from (x, 0) to (x+w, h) with clr.
func fillRect(c vg.Canvas, x, w, h vg.Length, clr color.Color) {
	var p vg.Path
	p.Move(vg.Point{X: x})
	p.Line(vg.Point{X: x + w})
	p.Line(vg.Point{X: x + w, Y: h})
	p.Line(vg.Point{X: x, Y: h})
	p.Close()
	c.SetColor(clr)
	c.Fill(p)
}

// layout returns the margin and the title band height for a width.
func layout(width int) (margin, title float64) {
	margin = math.Max(4, math.Min(24, float64(width)/40))
	return margin, titleSize(width) * 2
}

func titleSize(width int) float64 { return math.Max(6, math.Min(18, float64(width)/45)) }

// WorldXY returns the drawing coordinates of city i, x right and y up: GEO swaps its latitude and longitude,
// and lat,lon instances lie on a map that keeps cities either side of the antimeridian together (geoFrame).
func WorldXY(in *problem.Instance, i int) (x, y float64) {
	if isLatLon(in) {
		return frameOf(in).xy(in.X[i], in.Y[i])
	}
	if isGeo(in) {
		return frameOf(in).xy(in.Y[i], in.X[i])
	}
	return in.X[i], in.Y[i]
}

// project maps a city to its point on a width × height picture (y up), fitted below the title, aspect kept.
func project(in *problem.Instance, width, height int) func(i int) vg.Point {
	at := projectXY(in, width, height)
	return func(i int) vg.Point { return at(WorldXY(in, i)) }
}

// projectXY is project for a point in world coordinates.
func projectXY(in *problem.Instance, width, height int) func(x, y float64) vg.Point {
	m, titleH := layout(width)
	areaW := math.Max(1, float64(width)-2*m)
	areaH := math.Max(1, float64(height)-2*m-titleH)
	b := BoundsOf(in)
	minX, minY, bw, bh := b.MinX, b.MinY, b.Width(), b.Height()
	scale := math.Inf(1)
	if bw > 0 {
		scale = areaW / bw
	}
	if bh > 0 {
		scale = math.Min(scale, areaH/bh)
	}
	if math.IsInf(scale, 1) {
		scale = 1 // all cities on one point
	}
	offX := m + (areaW-bw*scale)/2
	offY := m + (areaH-bh*scale)/2
	return func(x, y float64) vg.Point {
		return vg.Point{X: vg.Length(offX + (x-minX)*scale), Y: vg.Length(offY + (y-minY)*scale)}
	}
}

// draw paints s on c (origin bottom left, y up, as TSPLIB coordinates).
func draw(c vg.Canvas, s Scene, width, height int) {
	in := s.Instance
	m, titleH := layout(width)
	if in.N > DotLimit {
		drawRaster(c, s, width, height)
	} else {
		drawVector(c, s, width, height)
	}

	title := s.Title
	if title == "" {
		title = TitleFor(in, s.Tour, s.Path)
	}
	face := font.DefaultCache.Lookup(font.Font{Typeface: "Liberation", Variant: "Sans"}, font.Length(titleSize(width)))
	if face.Face != nil {
		c.SetColor(pictureStyle().City)
		base := float64(height) - m/2 - titleH*0.75
		fillString(c, face, vg.Point{X: vg.Length(m), Y: vg.Length(base)}, title)
	}
	drawLegend(c, s, width)
}

// drawVector draws s's tours as paths and its cities as discs, thinner and smaller as they crowd.
func drawVector(c vg.Canvas, s Scene, width, height int) {
	pt := project(s.Instance, width, height)
	lineW, r := vectorSizes(s.Instance.N)
	st := pictureStyle()
	stroke := vectorStroke(c, s.Instance, pt, projectXY(s.Instance, width, height))
	c.SetLineDash(optimalDash(lineW), 0)
	stroke(s.Optimal, st.Optimal, lineW, false)
	c.SetLineDash(nil, 0)
	stroke(s.Best, st.Best, lineW*1.5, s.Path)
	stroke(s.Tour, st.Tour, lineW, s.Path)
	if t := cmpOr(s.Tour, s.Best); s.Path && len(t) >= 2 {
		// The ends of a path, as rings of the tour's colour.
		c.SetColor(st.Tour)
		c.SetLineWidth(vg.Length(lineW * 1.5))
		c.Stroke(circles(pt, []int{t[0], t[len(t)-1]}, r*2.5))
	}
	c.SetColor(st.City)
	c.Fill(circles(pt, problem.IdentityTour(s.Instance.N), r))
}

// vectorSizes are a vector picture's line width and city radius for n cities.
func vectorSizes(n int) (lineW, r float64) {
	switch {
	case n > 5000:
		return 0.7, 0.7
	case n > 2000:
		return 0.7, 1.2
	case n > 1000:
		return 1, 1.2
	case n > 300:
		return 1, 1.8
	case n > 200:
		return 1.5, 1.8
	}
	return 1.5, 2.5
}

// vectorStroke returns the function that strokes a tour (open: a path); an edge over the map's edge is cut there.
func vectorStroke(c vg.Canvas, in *problem.Instance, pt func(int) vg.Point, at func(x, y float64) vg.Point) func(t []int, clr color.Color, wd float64, open bool) {
	box := BoundsOf(in)
	return func(t []int, clr color.Color, wd float64, open bool) {
		if len(t) < 2 {
			return
		}
		var p vg.Path
		p.Move(pt(t[0]))
		edge := func(a, b int) {
			if x0, y0, x1, y1, cut := seamEnds(in, box, a, b); cut {
				p.Line(at(x0, y0))
				p.Move(at(x1, y1))
			}
			p.Line(pt(b))
		}
		for k, city := range t[1:] {
			edge(t[k], city)
		}
		if !open {
			edge(t[len(t)-1], t[0])
		}
		c.SetColor(clr)
		c.SetLineWidth(vg.Length(wd))
		c.Stroke(p)
	}
}

// circles is a circle of radius r around each of the cities.
func circles(pt func(int) vg.Point, cities []int, r float64) vg.Path {
	var p vg.Path
	for _, i := range cities {
		q := pt(i)
		p.Move(vg.Point{X: q.X + vg.Length(r), Y: q.Y})
		p.Arc(q, vg.Length(r), 0, 2*math.Pi)
		p.Close()
	}
	return p
}

// cmpOr is a when it is not nil, else b.
func cmpOr(a, b []int) []int {
	if a != nil {
		return a
	}
	return b
}

// drawRaster rasters s's tours and cities into the picture's drawing area as one image.
func drawRaster(c vg.Canvas, s Scene, width, height int) {
	m, titleH := layout(width)
	aw := max(1, int(float64(width)-2*m))
	ah := max(1, int(float64(height)-2*m-titleH))
	img := image.NewRGBA(image.Rect(0, 0, aw, ah))
	var r Rasterizer
	r.Render(img, Scene{Instance: s.Instance, Tour: s.Tour, Best: s.Best, Optimal: s.Optimal, Path: s.Path}, FitView(r.Bounds(s.Instance)), pictureStyle())
	min := vg.Point{X: vg.Length(m), Y: vg.Length(m)}
	c.DrawImage(vg.Rectangle{Min: min, Max: vg.Point{X: min.X + vg.Length(aw), Y: min.Y + vg.Length(ah)}}, img)
}

// plot registers the Liberation fonts with font.DefaultCache in its init.
var _ = plot.DefaultFont
