package export

import (
	"bytes"
	"encoding/xml"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/gen"
	"github.com/tsplab/tsplab/solver/problem"
)

// ring returns n cities on a circle and the angular tour.
func ring(n int) (*problem.Instance, []int) {
	x, y := make([]float64, n), make([]float64, n)
	for i := range n {
		a := 2 * math.Pi * float64(i) / float64(n)
		x[i], y[i] = 500+400*math.Cos(a), 300+200*math.Sin(a)
	}
	return problem.NewCoordInstance("ring", problem.Euc2D, x, y, nil), problem.IdentityTour(n)
}

func TestFormatOf(t *testing.T) {
	for path, want := range map[string]string{"a.png": "png", "dir/B.SVG": "svg", "x.y.pdf": "pdf"} {
		if got, err := FormatOf(path); err != nil || got != want {
			t.Errorf("FormatOf(%q) = %q, %v; want %q", path, got, err, want)
		}
	}
	for _, path := range []string{"a.jpg", "noext", "a.png.txt"} {
		_, err := FormatOf(path)
		if err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("FormatOf(%q): err = %v, want an error naming the file", path, err)
		}
	}
}

func TestExportPNGDrawsTour(t *testing.T) {
	in, tour := ring(12)
	s := Scene{Instance: in, Tour: tour, Title: "ring — 12 cities"}
	const w = 400
	h := Height(s, w)
	var buf bytes.Buffer
	if err := Write(&buf, FormatPNG, s, w, h); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != w || b.Dy() != h {
		t.Fatalf("size %v, want %dx%d", b, w, h)
	}
	// Aspect ratio kept: the ring is twice as wide as tall.
	if h >= w {
		t.Errorf("height %d for a 2:1 instance at width %d", h, w)
	}
	pt := project(in, w, h)
	dark := func(x, y float64) bool {
		// Look in a 3×3 neighbourhood: antialiased thin lines.
		for dx := -1; dx <= 1; dx++ {
			for dy := -1; dy <= 1; dy++ {
				if isInk(img.At(int(x)+dx, h-int(y)+dy)) {
					return true
				}
			}
		}
		return false
	}
	for i := range tour {
		a, b := pt(tour[i]), pt(tour[(i+1)%len(tour)])
		mx, my := float64(a.X+b.X)/2, float64(a.Y+b.Y)/2
		if !dark(mx, my) {
			t.Errorf("edge %d-%d: no ink at its midpoint (%.0f,%.0f)", tour[i], tour[(i+1)%len(tour)], mx, my)
		}
	}
	// The ring's centre is empty, the title band is not.
	c := pt(0)
	cx, cy := float64(w)/2, float64(c.Y)
	if dark(cx, cy) {
		t.Errorf("ink at the empty centre (%.0f,%.0f)", cx, cy)
	}
	if !hasInk(img, image.Rect(0, 0, w, 24)) {
		t.Error("no title drawn at the top")
	}
}

func hasInk(img image.Image, r image.Rectangle) bool {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if isInk(img.At(x, y)) {
				return true
			}
		}
	}
	return false
}

// isInk reports whether c is drawn: far from the picture's background.
func isInk(c color.Color) bool {
	bg := pictureStyle().Background
	r, g, b, _ := c.RGBA()
	d := math.Abs(float64(r>>8)-float64(bg.R)) + math.Abs(float64(g>>8)-float64(bg.G)) + math.Abs(float64(b>>8)-float64(bg.B))
	return d > 3*0x20
}

func TestExportSVG(t *testing.T) {
	in, tour := ring(30)
	var buf bytes.Buffer
	if err := Write(&buf, FormatSVG, Scene{Instance: in, Tour: tour, Optimal: tour}, 300, 0); err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(&buf)
	paths, svgRoot := 0, false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG does not parse as XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			if se.Name.Local == "svg" {
				svgRoot = true
			}
			if se.Name.Local == "path" {
				paths++
			}
		}
	}
	if !svgRoot || paths < 3 {
		t.Errorf("svg root %v, %d paths: want an <svg> with tour, overlay and dots", svgRoot, paths)
	}
}

func TestExportPDF(t *testing.T) {
	in, tour := ring(30)
	var buf bytes.Buffer
	if err := Write(&buf, FormatPDF, Scene{Instance: in, Tour: tour}, 300, 200); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	if !bytes.HasPrefix(b, []byte("%PDF-")) || !bytes.Contains(b[max(0, len(b)-32):], []byte("%%EOF")) {
		t.Errorf("not a PDF: starts %q, ends %q", b[:min(8, len(b))], b[max(0, len(b)-16):])
	}
}

func TestExportErrors(t *testing.T) {
	in, tour := ring(5)
	explicit := problem.NewMatrixInstance("mat", 3, []int32{0, 1, 2, 1, 0, 3, 2, 3, 0})
	cases := []struct {
		name   string
		s      Scene
		format string
		width  int
		want   string
	}{
		{"explicit", Scene{Instance: explicit}, "png", 100, "no coordinates"},
		{"nil", Scene{}, "png", 100, "no instance"},
		{"bad tour", Scene{Instance: in, Tour: []int{0, 1, 1, 2, 3}}, "svg", 100, "visited twice"},
		{"short tour", Scene{Instance: in, Tour: tour[:3]}, "svg", 100, "tour has 3 cities"},
		{"format", Scene{Instance: in}, "gif", 100, "unknown format"},
		{"width", Scene{Instance: in}, "png", 0, "width 0"},
	}
	for _, c := range cases {
		err := Write(io.Discard, c.format, c.s, c.width, 0)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to mention %q", c.name, err, c.want)
		}
	}
}

func TestExportDegenerate(t *testing.T) {
	// All cities on one point, and collinear cities: no division by zero.
	same := problem.NewCoordInstance("same", problem.Euc2D, []float64{5, 5, 5}, []float64{7, 7, 7}, nil)
	line := problem.NewCoordInstance("line", problem.Euc2D, []float64{0, 1, 2, 3}, []float64{0, 0, 0, 0}, nil)
	one := problem.NewCoordInstance("one", problem.Euc2D, []float64{1}, []float64{1}, nil)
	for _, in := range []*problem.Instance{same, line, one} {
		for _, f := range []string{FormatPNG, FormatSVG, FormatPDF} {
			if err := Write(io.Discard, f, Scene{Instance: in, Tour: problem.IdentityTour(in.N)}, 120, 0); err != nil {
				t.Errorf("%s %s: %v", in.Name, f, err)
			}
		}
	}
}

// TestExportTinyWidths draws at every width from 1 pixel up, the height
// from the aspect ratio: a width narrower than the margins made the height
// negative and the PNG canvas panicked.
func TestExportTinyWidths(t *testing.T) {
	in, tour := ring(5)
	for width := 1; width <= 64; width++ {
		if h := Height(Scene{Instance: in}, width); h < 1 {
			t.Fatalf("Height(width %d) = %d, want at least 1", width, h)
		}
		for _, f := range []string{FormatPNG, FormatSVG, FormatPDF} {
			if err := Write(io.Discard, f, Scene{Instance: in, Tour: tour}, width, 0); err != nil {
				t.Errorf("width %d %s: %v", width, f, err)
			}
		}
	}
}

func BenchmarkExport100k(b *testing.B) {
	in, tour := ring(100000)
	for _, f := range []string{FormatPNG, FormatSVG, FormatPDF} {
		b.Run(f, func(b *testing.B) {
			for b.Loop() {
				if err := Write(io.Discard, f, Scene{Instance: in, Tour: tour}, 1600, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestExportManyCitiesWithoutTour(t *testing.T) {
	in, _ := ring(DotLimit + 5000)
	var buf bytes.Buffer
	if err := Write(&buf, FormatPNG, Scene{Instance: in}, 300, 0); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	if !hasInk(img, image.Rect(0, b.Dy()/2, b.Dx()/4, b.Dy()/2+20)) {
		t.Error("no cities drawn at the ring's left end")
	}
}

func TestGeoWorldXYPutsNorthUp(t *testing.T) {
	// GEO stores latitude in X and longitude in Y: the city further north
	// must come out higher, the one further east further right.
	in := problem.NewCoordInstance("geo", problem.Geo, []float64{10, 50}, []float64{5, 40}, nil)
	x0, y0 := WorldXY(in, 0)
	x1, y1 := WorldXY(in, 1)
	if !(y1 > y0 && x1 > x0) {
		t.Fatalf("north/east not up/right: (%v,%v) vs (%v,%v)", x0, y0, x1, y1)
	}
}

func TestSceneForTitles(t *testing.T) {
	in := problem.NewCoordInstance("sq", problem.Euc2D, []float64{0, 100, 100, 0}, []float64{0, 0, 100, 100}, nil)
	if got := SceneFor(in, nil, nil, nil).Title; got != "sq — 4 cities" {
		t.Errorf("no tour: title %q", got)
	}
	// The best tour names the title when it is whole; else the current one.
	if got := SceneFor(in, []int{0, 2, 1, 3}, []int{0, 1, 2, 3}, nil).Title; got != "sq — 400" {
		t.Errorf("best square: title %q, want sq — 400", got)
	}
	if got := SceneFor(in, []int{0, 1, 2, 3}, []int{0}, nil).Title; got != "sq — 400" {
		t.Errorf("partial best: title %q, want the tour's length", got)
	}
	in.Optimum = 320
	if got := TitleFor(in, []int{0, 1, 2, 3}, false); got != "sq — 400 (25.00 % above 320)" {
		t.Errorf("with optimum: title %q", got)
	}
	// Lengths and counts as the app's fields show them: digits grouped,
	// the unit named, the gap spaced like the Gap field.
	big := problem.NewCoordInstance("big", problem.Euc2D, []float64{0, 3e6, 3e6, 0}, []float64{0, 0, 3e6, 3e6}, nil)
	big.Optimum = 11_000_000
	if got, want := TitleFor(big, []int{0, 1, 2, 3}, false), "big — "+big.HumanLength(12_000_000)+" (9.09 % above "+big.HumanLength(11_000_000)+")"; got != want || !strings.Contains(got, "12,000,000") {
		t.Errorf("large lengths: title %q, want %q", got, want)
	}
	many := problem.NewCoordInstance("many", problem.Euc2D, make([]float64, 12345), make([]float64, 12345), nil)
	if got := TitleFor(many, nil, false); got != "many — 12,345 cities" {
		t.Errorf("city count: title %q", got)
	}
	if TitleFor(nil, nil, false) != "" {
		t.Error("nil instance has a title")
	}
	if b := BoundsOf(in); b != (Bounds{0, 0, 100, 100}) || b.Width() != 100 || b.Height() != 100 {
		t.Errorf("BoundsOf = %+v", b)
	}
}

func TestExportLargeUsesCanvasLevelOfDetail(t *testing.T) {
	in, err := gen.Generate("uniform", 85900, 4)
	if err != nil {
		t.Fatal(err)
	}
	s := Scene{Instance: in, Tour: construct.SpaceFillingCurve(in)}
	var buf bytes.Buffer
	if err := Write(&buf, FormatPNG, s, 1000, 0); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	// The tour (orange, the app's) covers much of the picture; the cities
	// (pale grey dots), which would bury it, are faded out.
	tourPx, cityPx := 0, 0
	b := img.Bounds()
	city := pictureStyle().City
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			r, g, bl = r>>8, g>>8, bl>>8
			switch {
			case int(r)-int(bl) >= 60 && r > g:
				tourPx++
			case r == uint32(city.R) && g == uint32(city.G) && bl == uint32(city.B):
				cityPx++
			}
		}
	}
	if tourPx < b.Dx()*b.Dy()/8 {
		t.Errorf("PNG of an 85,900-city tour: %d tour-orange pixels of %d", tourPx, b.Dx()*b.Dy())
	}
	// the title is in the cities' colour: only its few pixels
	if cityPx > 2000 {
		t.Errorf("PNG of an 85,900-city tour: %d city-coloured pixels over the tour", cityPx)
	}
	// SVG and PDF embed the same raster instead of 85,900-edge paths.
	for _, f := range []string{FormatSVG, FormatPDF} {
		buf.Reset()
		if err := Write(&buf, f, s, 1000, 0); err != nil {
			t.Fatal(err)
		}
		if buf.Len() > 4<<20 {
			t.Errorf("%s of 85,900 cities is %d bytes", f, buf.Len())
		}
		if f == FormatSVG && !strings.Contains(buf.String(), "<image") {
			t.Error("SVG above DotLimit has no embedded image")
		}
	}
}

// TestLatLonMapIsCutAwayFromItsCities: cities on both sides of the
// antimeridian lie side by side on the map (its cut is in the widest
// stretch without cities), for GreatCircle point lists and TSPLIB GEO
// alike; cities around the world keep the map from -180 to 180.
func TestLatLonMapIsCutAwayFromItsCities(t *testing.T) {
	lons := []float64{170, 175, 179, -179, -175, -170}
	lats := []float64{-17, -15, -16, -14, -13, -14}
	for _, in := range []*problem.Instance{
		problem.NewCoordInstance("pacific", problem.GreatCircle, lons, lats, nil),
		problem.NewCoordInstance("pacific-geo", problem.Geo, lats, lons, nil),
	} {
		if w := BoundsOf(in).Width(); w > 25 {
			t.Errorf("%s: the map is %.0f degrees wide for cities 20 degrees apart", in.Name, w)
		}
		x2, _ := WorldXY(in, 2)
		x3, _ := WorldXY(in, 3)
		if d := x3 - x2; d < 1.9 || d > 2.1 {
			t.Errorf("%s: 179 E and 179 W drawn %.0f degrees apart", in.Name, d)
		}
	}
	world := problem.NewCoordInstance("world", problem.GreatCircle, []float64{-100, 0, 100}, []float64{0, 10, 20}, nil)
	// Its widest gap already spans the antimeridian: the cities keep their
	// places, west to east, at most scaled by the middle latitude's cosine.
	x0, _ := WorldXY(world, 0)
	x1, _ := WorldXY(world, 1)
	x2, _ := WorldXY(world, 2)
	if !(x0 < x1 && x1 < x2) || math.Abs(x0+100) > 5 || math.Abs(x1) > 1e-9 {
		t.Errorf("a world map drew 100 W, 0 and 100 E at x %v, %v, %v", x0, x1, x2)
	}
}
