package canvas

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	imgdraw "image/draw"
	"math"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	fcanvas "fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"

	"github.com/tsplab/tsplab/canvas/export"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/gen"
	"github.com/tsplab/tsplab/solver/problem"
)

func toRGBA(img image.Image) *image.RGBA {
	if r, ok := img.(*image.RGBA); ok {
		return r
	}
	r := image.NewRGBA(img.Bounds())
	imgdraw.Draw(r, r.Rect, img, img.Bounds().Min, imgdraw.Src)
	return r
}

// tourViewWindow shows a new TourView alone in a test window of w×h.
func tourViewWindow(t *testing.T, w, h float32) (*TourView, fyne.Window) {
	test.NewTempApp(t)
	tv := NewTourView()
	win := test.NewWindow(tv)
	t.Cleanup(win.Close)
	win.Resize(fyne.NewSize(w, h))
	return tv, win
}

func TestTourViewShowsTourInWindow(t *testing.T) {
	tv, w := tourViewWindow(t, 300, 200)
	in := square()
	tv.SetScene(export.SceneFor(in, []int{0, 1, 2, 3}, nil, nil))
	img := toRGBA(w.Canvas().Capture())
	if n := countColor(img, export.TourColor); n < 100 {
		t.Errorf("window shows %d tour-coloured pixels, want the square's outline", n)
	}
	if !strings.Contains(tv.Scene().Title, "square — 400") {
		t.Errorf("title %q does not name the tour length 400", tv.Scene().Title)
	}
	// Clearing the tour removes it from the picture.
	tv.SetScene(export.Scene{Instance: in})
	if n := countColor(toRGBA(w.Canvas().Capture()), export.TourColor); n != 0 {
		t.Errorf("after clearing, %d tour-coloured pixels remain", n)
	}
}

func TestTourViewZoomPanFit(t *testing.T) {
	test.NewTempApp(t)
	tv := NewTourView()
	w := test.NewWindow(tv)
	defer w.Close()
	w.SetPadded(false)
	w.Resize(fyne.NewSize(400, 400))
	tv.SetScene(export.Scene{Instance: square(), Tour: []int{0, 1, 2, 3}})
	fit := tv.View()
	if fit.Zoom != 1 || fit.CX != 50 || fit.CY != 50 {
		t.Fatalf("new instance view %+v, want fitted (50,50) zoom 1", fit)
	}
	// Zooming in about a point keeps the world point under it in place.
	pos := fyne.NewPos(100, 300)
	before := tv.transform()
	wx, wy := before.Invert(100, 300)
	tv.Scrolled(&fyne.ScrollEvent{PointEvent: fyne.PointEvent{Position: pos}, Scrolled: fyne.Delta{DY: 10}})
	v := tv.View()
	if !(v.Zoom > 1.1) {
		t.Fatalf("scroll up: zoom %v, want > 1", v.Zoom)
	}
	after := tv.transform()
	px, py := after.Apply(wx, wy)
	if math.Abs(px-100) > 1e-6 || math.Abs(py-300) > 1e-6 {
		t.Errorf("point under the pointer moved to (%v,%v)", px, py)
	}
	// Dragging right and down moves the picture: the centre goes left and up in the world.
	tv.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(200, 200)}, Dragged: fyne.Delta{DX: 40, DY: 20}})
	tv.DragEnd()
	v2 := tv.View()
	if !(v2.CX < v.CX) || !(v2.CY > v.CY) {
		t.Errorf("drag (40,20): centre %v,%v -> %v,%v", v.CX, v.CY, v2.CX, v2.CY)
	}
	// A double tap fits again.
	test.DoubleTap(tv)
	if got := tv.View(); got != fit {
		t.Errorf("after double tap view %+v, want %+v", got, fit)
	}
	// Zoom stays within limits.
	for i := 0; i < 200; i++ {
		tv.ZoomAt(2, pos)
	}
	if z := tv.View().Zoom; z != MaxZoom {
		t.Errorf("zoom %v after zooming far in, want the limit %v", z, MaxZoom)
	}
}

func TestTourViewNewToursKeepView(t *testing.T) {
	tv, _ := tourViewWindow(t, 200, 200)
	in := square()
	tv.SetScene(export.Scene{Instance: in})
	tv.ZoomAt(3, fyne.NewPos(50, 50))
	v := tv.View()
	tv.SetScene(export.Scene{Instance: in, Tour: []int{0, 1, 2, 3}, Best: []int{0, 2, 1, 3}})
	if tv.View() != v {
		t.Errorf("new tours of the same instance changed the view")
	}
	if s := tv.Scene(); len(s.Tour) != 4 || len(s.Best) != 4 {
		t.Errorf("scene tours %v %v", s.Tour, s.Best)
	}
	if img := tv.generate(120, 80); img.Bounds().Dx() != 120 || img.Bounds().Dy() != 80 {
		t.Errorf("raster size %v", img.Bounds())
	}
}

func TestCurvePlotsAndCSV(t *testing.T) {
	test.NewTempApp(t)
	c := NewCurve()
	w := test.NewWindow(c)
	defer w.Close()
	w.Resize(fyne.NewSize(300, 120))
	c.SetOptimum(900)
	for i, b := range []int64{2000, 1500, 1500, 1500, 1200, 1000} {
		c.Add(export.CurvePoint{Elapsed: time.Duration(i+1) * 100 * time.Millisecond, Best: b})
	}
	pts := c.Points()
	// The three equal values collapse into two points (the first and the latest time).
	if len(pts) != 5 {
		t.Fatalf("%d points kept, want 5: %v", len(pts), pts)
	}
	if pts[2].Best != 1500 || pts[2].Elapsed != 400*time.Millisecond {
		t.Errorf("plateau end %+v, want 1500 at 400ms", pts[2])
	}
	st := export.DefaultCurveStyle()
	img := c.generate(300, 120).(*image.RGBA)
	if countColor(img, st.Line) < 50 {
		t.Error("curve line not drawn")
	}
	if countColor(img, st.Optimum) == 0 {
		t.Error("optimum line not drawn")
	}
	var buf bytes.Buffer
	if err := export.WriteCurveCSV(&buf, &problem.Instance{}, pts); err != nil {
		t.Fatal(err)
	}
	want := "elapsed_s,best_length\n0.100,2000\n0.200,1500\n0.400,1500\n0.500,1200\n0.600,1000\n"
	if buf.String() != want {
		t.Errorf("CSV:\n%s\nwant:\n%s", buf.String(), want)
	}
	// the lengths in the file's units, not the instance's scaled integers
	buf.Reset()
	if err := export.WriteCurveCSV(&buf, &problem.Instance{ScaleExp: 3, Metric: problem.GreatCircle}, pts[:2]); err != nil {
		t.Fatal(err)
	}
	if want := "elapsed_s,best_length_m\n0.100,2\n0.200,1.5\n"; buf.String() != want {
		t.Errorf("CSV of a scaled lat,lon instance:\n%s\nwant:\n%s", buf.String(), want)
	}
	tmax, lo, hi := export.CurveRange(pts, 900, 2*time.Second)
	if tmax != 2*time.Second || lo != 900 || hi != 1500 { // the first point (2000) is left out
		t.Errorf("range %v %d %d", tmax, lo, hi)
	}
	c.Reset()
	if len(c.Points()) != 0 {
		t.Error("Reset kept points")
	}
}

func TestCurveBoundsItsPoints(t *testing.T) {
	c := NewCurve()
	for i := 0; i < MaxCurvePoints*2; i++ {
		c.add(export.CurvePoint{Elapsed: time.Duration(i), Best: int64(1e9 - i)})
	}
	pts := c.Points()
	if len(pts) > MaxCurvePoints {
		t.Errorf("%d points kept, limit %d", len(pts), MaxCurvePoints)
	}
	if pts[len(pts)-1].Best != int64(1e9-(MaxCurvePoints*2-1)) {
		t.Errorf("last point %+v is not the newest", pts[len(pts)-1])
	}
	for i := 1; i < len(pts); i++ {
		if pts[i].Elapsed <= pts[i-1].Elapsed {
			t.Fatalf("points out of order at %d", i)
		}
	}
}

func TestTourViewDenseInWindow(t *testing.T) {
	tv, w := tourViewWindow(t, 500, 400)
	for _, c := range []struct {
		kind string
		n    int
	}{{"clustered", 85900}, {"uniform", 85900}, {"uniform", 1_000_000}} {
		if c.n > 100_000 && testing.Short() {
			continue
		}
		s := goodScene(t, c.kind, c.n)
		tv.SetScene(export.SceneFor(s.Instance, s.Tour, nil, nil))
		img := toRGBA(w.Canvas().Capture())
		if n := hueCount(img); n < 20000 {
			t.Errorf("%s: window shows %d pixels of the tour's hue", s.Instance.Name, n)
		}
		if n := countColor(img, export.DefaultStyle().City); n > 500 {
			t.Errorf("%s: %d city-coloured pixels: dots cover the tour", s.Instance.Name, n)
		}
		tv.SetScene(export.Scene{Instance: s.Instance})
		if n := hueCount(toRGBA(w.Canvas().Capture())); n != 0 {
			t.Errorf("%s, cities alone: %d pixels of the tour's hue", s.Instance.Name, n)
		}
	}
}

// square returns four cities on the corners of a 100×100 square.
func square() *problem.Instance {
	return problem.NewCoordInstance("square", problem.Euc2D, []float64{0, 100, 100, 0}, []float64{0, 0, 100, 100}, nil)
}

// countColor returns how many pixels of img have c's colour.
func countColor(img *image.RGBA, c color.RGBA) int {
	n := 0
	for i := 0; i+3 < len(img.Pix); i += 4 {
		if img.Pix[i] == c.R && img.Pix[i+1] == c.G && img.Pix[i+2] == c.B {
			n++
		}
	}
	return n
}

// hueCount returns how many pixels of img have the tour's hue in
// export.DefaultStyle: red well above blue, green below red.
func hueCount(img *image.RGBA) int {
	n := 0
	for i := 0; i+3 < len(img.Pix); i += 4 {
		if int(img.Pix[i])-int(img.Pix[i+2]) >= 60 && img.Pix[i+1] < img.Pix[i] {
			n++
		}
	}
	return n
}

// goodScene returns kind's instance of n cities and a space-filling-curve
// tour through them.
func goodScene(t testing.TB, kind string, n int) export.Scene {
	t.Helper()
	in, err := gen.Generate(kind, n, 1)
	if err != nil {
		t.Fatal(err)
	}
	return export.Scene{Instance: in, Tour: construct.SpaceFillingCurve(in)}
}

// TestTourViewLegend: the legend names the dashed optimal overlay and the
// tint of recent changes while they are drawn, as visible texts, and the
// tint's entry goes when the run is done.
func TestTourViewLegend(t *testing.T) {
	tv, _ := tourViewWindow(t, 400, 300)
	in := square()
	shown := func() []string {
		var out []string
		var walk func(o fyne.CanvasObject)
		walk = func(o fyne.CanvasObject) {
			switch v := o.(type) {
			case *fcanvas.Text:
				if v.Visible() && v.Text != "" && v.Text != tv.Scene().Title {
					out = append(out, v.Text)
				}
			case *fyne.Container:
				if v.Visible() {
					for _, c := range v.Objects {
						walk(c)
					}
				}
			}
		}
		for _, o := range test.WidgetRenderer(tv).Objects() {
			walk(o)
		}
		return out
	}
	live := export.Scene{Instance: in, Tour: []int{0, 1, 2, 3}, Optimal: []int{0, 1, 2, 3}}
	tv.SetScene(live)
	got := strings.Join(shown(), ",")
	for _, want := range []string{LegendTour, LegendOptimal, LegendChanged} {
		if !strings.Contains(got, want) {
			t.Errorf("live scene: legend %q lacks %q", got, want)
		}
	}
	done := live
	done.Done = true
	tv.SetScene(done)
	if got := strings.Join(shown(), ","); strings.Contains(got, LegendChanged) || !strings.Contains(got, LegendOptimal) {
		t.Errorf("finished run: legend %q", got)
	}
	tv.SetScene(export.Scene{Instance: in})
	if got := shown(); len(got) != 0 {
		t.Errorf("bare instance: legend %v", got)
	}
}

// TestTourViewRedrawsOnlyWhatChanged: setting the scene it shows again (a
// run in a set-up phase, or stuck on a tour) asks for no new raster; new
// tours, a new title or the end of the run do.
func TestTourViewRedrawsOnlyWhatChanged(t *testing.T) {
	tv, _ := tourViewWindow(t, 200, 200)
	r := test.WidgetRenderer(tv).(*tourViewRenderer)
	in := square()
	tour := []int{0, 1, 2, 3}
	s := export.Scene{Instance: in, Tour: tour, Title: "sq — 400"}
	tv.SetScene(s)
	n := r.frames
	tv.SetScene(s)
	tv.SetScene(export.Scene{Instance: in, Tour: tour, Title: "sq — 400"})
	if r.frames != n {
		t.Errorf("the same scene set twice more: %d raster refreshes, want none", r.frames-n)
	}
	done := s
	done.Done = true
	for i, next := range []export.Scene{
		{Instance: in, Tour: []int{0, 1, 2, 3}, Title: "sq — 400"}, // a new snapshot's tour
		{Instance: in, Tour: []int{0, 1, 2, 3}, Title: "sq — 390"},
		done,
	} {
		tv.SetScene(next)
		if r.frames != n+i+1 {
			t.Errorf("scene %d: %d raster refreshes, want %d", i, r.frames-n, i+1)
		}
	}
}

func TestCurveLabelsInTheInstancesUnits(t *testing.T) {
	test.NewTempApp(t)
	c := NewCurve()
	w := test.NewWindow(c)
	defer w.Close()
	w.Resize(fyne.NewSize(300, 120))
	c.SetOptimum(4000000)
	c.Add(export.CurvePoint{Elapsed: time.Second, Best: 4200000})
	r := test.WidgetRenderer(c).(*curveRenderer)
	if r.hi.Text != "4,200,000" || r.lo.Text != "4,000,000" {
		t.Errorf("labels %q %q, want the integers, digits grouped", r.hi.Text, r.lo.Text)
	}
	c.SetFormat(func(l int64) string { return fmt.Sprintf("%.1f", float64(l)/1e6) })
	r.update()
	if r.hi.Text != "4.2" || r.lo.Text != "4.0" {
		t.Errorf("labels %q %q, want 4.2 and 4.0 in the file's units", r.hi.Text, r.lo.Text)
	}
}

// TestFlatCurveAxisReadsARoundNumber: a curve that never drops (a small
// instance solved at once) spans up to a round number, not one unit
// more than its length (1247.5001 in a scaled matrix's units).
func TestFlatCurveAxisReadsARoundNumber(t *testing.T) {
	test.NewTempApp(t)
	in := &problem.Instance{Name: "m", ScaleExp: 4}
	c := NewCurve()
	c.SetFormat(in.FormatLength)
	c.Add(export.CurvePoint{Elapsed: 10 * time.Millisecond, Best: 12475000})
	c.Add(export.CurvePoint{Elapsed: time.Second, Best: 12475000})
	r := test.WidgetRenderer(c).(*curveRenderer)
	if r.hi.Text != "1250" || r.lo.Text != "1247.5" {
		t.Errorf("labels %q %q, want 1250 and 1247.5", r.hi.Text, r.lo.Text)
	}
	if _, lo, hi := export.CurveRange([]export.CurvePoint{{Best: 457192}}, 0, 0); lo != 457192 || hi != 458000 {
		t.Errorf("a flat curve at 457192 spans to %d", hi)
	}
}

// TestTourAcrossTheAntimeridianIsDrawnShort: a lat,lon tour on both
// sides of the antimeridian (a ring 4 degrees wide) is drawn as the
// narrow ring it is, not with two edges across the whole map.
func TestTourAcrossTheAntimeridianIsDrawnShort(t *testing.T) {
	tv, w := tourViewWindow(t, 300, 200)
	lons := []float64{178, 178, 178, -178, -178, -178}
	lats := []float64{-10, -15, -20, -20, -15, -10}
	in := problem.NewCoordInstance("fiji-samoa", problem.GreatCircle, lons, lats, nil)
	tv.SetScene(export.SceneFor(in, []int{0, 1, 2, 3, 4, 5}, nil, nil))
	img := toRGBA(w.Canvas().Capture())
	if n := countColor(img, export.TourColor); n < 50 {
		t.Fatalf("%d tour-coloured pixels: no tour drawn", n)
	}
	b := img.Bounds()
	for _, x := range []int{b.Dx() / 4, b.Dx() * 3 / 4} {
		n := 0
		for y := b.Min.Y; y < b.Max.Y; y++ {
			if c := img.RGBAAt(b.Min.X+x, y); c.R == export.TourColor.R && c.G == export.TourColor.G && c.B == export.TourColor.B {
				n++
			}
		}
		if n > 0 {
			t.Errorf("the column at x=%d of %d crosses the tour (%d pixels): an edge drawn across the map", x, b.Dx(), n)
		}
	}
}

// curveTexts are the texts the plot shows, with where they lie.
func curveTexts(c *Curve) (texts []*fcanvas.Text, raster fyne.CanvasObject) {
	for _, o := range test.WidgetRenderer(c).Objects() {
		switch v := o.(type) {
		case *fcanvas.Text:
			if v.Visible() && v.Text != "" {
				texts = append(texts, v)
			}
		case *fcanvas.Raster:
			raster = v
		}
	}
	return texts, raster
}

// TestCurveLabelsBesideThePlot: before and during a run the plot keeps its
// axis titles; no label lies on the plot, where the dashed line is drawn;
// a legend names the dashed line, the optimum or the lower bound; lengths
// have their digits grouped.
func TestCurveLabelsBesideThePlot(t *testing.T) {
	test.NewTempApp(t)
	c := NewCurve()
	w := test.NewWindow(c)
	defer w.Close()
	w.Resize(fyne.NewSize(300, 120))
	has := func(what string) bool {
		texts, _ := curveTexts(c)
		for _, x := range texts {
			if x.Text == what {
				return true
			}
		}
		return false
	}
	for _, title := range []string{LengthTitle, TimeTitle} {
		if !has(title) {
			t.Errorf("before a run: no axis title %q", title)
		}
	}
	c.SetOptimum(454179)
	c.SetTimeSpan(5 * time.Second)
	for i, b := range []int64{700000, 600000, 500000, 460000} {
		c.Add(export.CurvePoint{Elapsed: time.Duration(i+1) * time.Second, Best: b})
	}
	c.Resize(fyne.NewSize(300, 120))
	test.WidgetRenderer(c).Layout(c.Size())
	for _, want := range []string{LengthTitle, TimeTitle, "optimum", "454,179", "5.0 s"} {
		if !has(want) {
			t.Errorf("during a run: no text %q", want)
		}
	}
	texts, raster := curveTexts(c)
	rp, rs := raster.Position(), raster.Size()
	for _, x := range texts {
		p, s := x.Position(), x.MinSize()
		if p.Y < rp.Y+rs.Height && p.Y+s.Height > rp.Y {
			t.Errorf("label %q at y %.0f..%.0f lies on the plot (y %.0f..%.0f)", x.Text, p.Y, p.Y+s.Height, rp.Y, rp.Y+rs.Height)
		}
	}
	c.SetBound(450000)
	if !has("lower bound") || has("optimum") {
		t.Error("a lower bound's line is not named as one")
	}
}
