package export

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/gen"
	"github.com/tsplab/tsplab/solver/problem"
)

// square returns four cities on the corners of a 100×100 square.
func square() *problem.Instance {
	return problem.NewCoordInstance("square", problem.Euc2D, []float64{0, 100, 100, 0}, []float64{0, 0, 100, 100}, nil)
}

func countColor(img *image.RGBA, c color.RGBA) int {
	n := 0
	for i := 0; i+3 < len(img.Pix); i += 4 {
		if img.Pix[i] == c.R && img.Pix[i+1] == c.G && img.Pix[i+2] == c.B {
			n++
		}
	}
	return n
}

func at(img *image.RGBA, x, y int) color.RGBA { return img.RGBAAt(x, y) }

func TestRenderDrawsTourEdges(t *testing.T) {
	in := square()
	st := DefaultStyle()
	img := RenderImage(Scene{Instance: in, Tour: []int{0, 1, 2, 3}}, 200, 200, st)
	tr := NewTransform(BoundsOf(in), FitView(BoundsOf(in)), 200, 200)
	// The middle of every edge of the square is tour-coloured.
	for _, e := range [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 0}} {
		x0, y0 := tr.Apply(in.X[e[0]], in.Y[e[0]])
		x1, y1 := tr.Apply(in.X[e[1]], in.Y[e[1]])
		mx, my := int((x0+x1)/2+0.5), int((y0+y1)/2+0.5)
		if got := at(img, mx, my); got != st.Tour {
			t.Errorf("edge %v midpoint (%d,%d) = %v, want tour colour %v", e, mx, my, got, st.Tour)
		}
	}
	if got := at(img, 100, 100); got != st.Background {
		t.Errorf("centre = %v, want background %v", got, st.Background)
	}
	// The cities are drawn on top, at the corners.
	x, y := tr.Apply(0, 0)
	if got := at(img, int(x+0.5), int(y+0.5)); got != st.City {
		t.Errorf("city 0 at (%v,%v) = %v, want city colour", x, y, got)
	}
	// y grows upwards: city 0 (y=0) is below city 3 (y=100).
	_, y3 := tr.Apply(0, 100)
	if !(y > y3) {
		t.Errorf("city 0 at pixel y %v should be below city 3 at %v", y, y3)
	}
}

func TestRenderCrossingTourDiffersFromSquare(t *testing.T) {
	in := square()
	st := DefaultStyle()
	a := RenderImage(Scene{Instance: in, Tour: []int{0, 1, 2, 3}}, 100, 100, st)
	b := RenderImage(Scene{Instance: in, Tour: []int{0, 2, 1, 3}}, 100, 100, st)
	if got := at(b, 50, 50); got != st.Tour {
		t.Errorf("crossing tour: centre = %v, want tour colour", got)
	}
	if got := at(a, 50, 50); got == st.Tour {
		t.Errorf("square tour: centre is tour-coloured")
	}
}

func TestRenderLayersAndInvalidTours(t *testing.T) {
	in := square()
	st := DefaultStyle()
	img := RenderImage(Scene{Instance: in, Best: []int{0, 1, 2, 3}, Optimal: []int{0, 2, 1, 3}}, 100, 100, st)
	if countColor(img, st.Best) == 0 {
		t.Error("best tour not drawn")
	}
	if countColor(img, st.Optimal) == 0 {
		t.Error("optimal overlay not drawn")
	}
	// A tour of the wrong length or with out-of-range cities never panics.
	RenderImage(Scene{Instance: in, Tour: []int{0, 1}}, 50, 50, st)
	var r Rasterizer
	dst := image.NewRGBA(image.Rect(0, 0, 50, 50))
	r.Render(dst, Scene{Instance: in, Tour: []int{0, 1, 9, -1}}, View{Zoom: 1}, st)
	// No instance, or no coordinates: background only.
	for _, s := range []Scene{{}, {Instance: problem.NewMatrixInstance("m", 2, []int32{0, 1, 1, 0}), Tour: []int{0, 1}}} {
		img := RenderImage(s, 30, 20, st)
		if n := countColor(img, st.Background); n != 30*20 {
			t.Errorf("scene %v: %d background pixels, want all %d", s.Instance, n, 600)
		}
	}
}

func TestDashedLineLeavesGaps(t *testing.T) {
	st := DefaultStyle()
	img := image.NewRGBA(image.Rect(0, 0, 64, 8))
	fill(img, st.Background)
	line(img, 0, 4, 63, 4, st.Optimal, 4)
	on := countColor(img, st.Optimal)
	if on != 32 {
		t.Errorf("dashed 64-pixel line: %d pixels on, want 32", on)
	}
	fill(img, st.Background)
	line(img, 0, 4, 63, 4, st.Optimal, 0)
	if on := countColor(img, st.Optimal); on != 64 {
		t.Errorf("solid 64-pixel line: %d pixels on, want 64", on)
	}
}

func TestLineClipping(t *testing.T) {
	c := color.RGBA{255, 0, 0, 255}
	img := image.NewRGBA(image.Rect(0, 0, 100, 50))
	// Entirely outside: nothing drawn.
	line(img, -500, -10, 500, -20, c, 0)
	line(img, 200, 0, 300, 49, c, 0)
	if n := countColor(img, c); n != 0 {
		t.Fatalf("segments outside the image drew %d pixels", n)
	}
	// Crossing the image from far away: exactly one pixel per column.
	line(img, -1e6, 25, 1e6, 25, c, 0)
	if n := countColor(img, c); n != 100 {
		t.Errorf("horizontal line through the image drew %d pixels, want 100", n)
	}
	// A diagonal from outside to outside through the corners.
	img = image.NewRGBA(image.Rect(0, 0, 50, 50))
	line(img, -10, -10, 60, 60, c, 0)
	for i := 0; i < 50; i++ {
		if at(img, i, i) != c {
			t.Fatalf("diagonal pixel (%d,%d) not drawn", i, i)
		}
	}
}

func TestTransformRoundTrip(t *testing.T) {
	b := Bounds{MinX: -5, MinY: 10, MaxX: 95, MaxY: 60}
	for _, v := range []View{FitView(b), {CX: 3, CY: 40, Zoom: 7.5}} {
		tr := NewTransform(b, v, 640, 480)
		for _, p := range [][2]float64{{0, 0}, {-5, 10}, {95, 60}, {33.3, 44.4}} {
			px, py := tr.Apply(p[0], p[1])
			x, y := tr.Invert(px, py)
			if math.Abs(x-p[0]) > 1e-9 || math.Abs(y-p[1]) > 1e-9 {
				t.Errorf("view %+v: %v -> (%v,%v) -> (%v,%v)", v, p, px, py, x, y)
			}
		}
	}
	// Fitted, the bounds lie inside the image with the margin.
	tr := NewTransform(b, FitView(b), 640, 480)
	x0, y0 := tr.Apply(b.MinX, b.MaxY)
	x1, y1 := tr.Apply(b.MaxX, b.MinY)
	m := math.Max(Margin*480, MinMargin) // 28 px: the title line stays clear
	if x0 < m-1e-9 || y0 < m-1e-9 || x1 > 640-m+1e-9 || y1 > 480-m+1e-9 {
		t.Errorf("fitted bounds map to (%v,%v)-(%v,%v), outside the %v margin", x0, y0, x1, y1, m)
	}
}

// benchScene returns a uniform n-city instance from solver/gen with a
// good tour (a space-filling curve: short edges) or a random permutation
// (edges across the whole image, the worst case and what a run shows in its
// first seconds), and the best tour a few swaps away.
func benchScene(b *testing.B, n int, random bool) Scene {
	b.Helper()
	in, err := gen.Generate("uniform", n, 1)
	if err != nil {
		b.Fatal(err)
	}
	tour := construct.SpaceFillingCurve(in)
	if random {
		tour = construct.Random(n, rand.New(rand.NewPCG(3, 4)))
	}
	best := append([]int(nil), tour...)
	best[10], best[20] = best[20], best[10]
	return Scene{Instance: in, Tour: tour, Best: best}
}

// benchRender draws s at 1920×1080 with the fitted view zoomed by zoom b.N
// times and reports milliseconds per frame.
func benchRender(b *testing.B, s Scene, zoom float64) {
	img := image.NewRGBA(image.Rect(0, 0, 1920, 1080))
	var r Rasterizer
	v := FitView(BoundsOf(s.Instance))
	v.Zoom = zoom
	st := DefaultStyle()
	r.Render(img, s, v, st) // the first frame sizes the buffers
	b.ResetTimer()
	cpu := cpuTime()
	for i := 0; i < b.N; i++ {
		r.Render(img, s, v, st)
	}
	cpu = cpuTime() - cpu
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/frame")
	// CPU time over all goroutines: on a busy machine the wall time
	// waits for cores, this does not.
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/frame")
	b.ReportMetric(float64(r.Stats().Steps), "steps")
}

// benchSnapshots draws s at 1920×1080 as a run's new snapshots would come:
// a new tour slice every frame, so the heat map of changes is updated.
func benchSnapshots(b *testing.B, s Scene) {
	img := image.NewRGBA(image.Rect(0, 0, 1920, 1080))
	var r Rasterizer
	v := FitView(r.Bounds(s.Instance))
	st := DefaultStyle()
	tours := [2][]int{s.Tour, append([]int(nil), s.Tour...)}
	slices.Reverse(tours[1][1000:1100])
	r.Render(img, s, v, st)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Tour = tours[i%2]
		r.Render(img, s, v, st)
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/frame")
}

// BenchmarkRender100k draws a 100,000-city instance with its current and
// best tours at 1920×1080 (the canvas's budget: 16 ms a frame).
func BenchmarkRender100k(b *testing.B) {
	b.Run("good", func(b *testing.B) { benchRender(b, benchScene(b, 100_000, false), 1) })
	b.Run("random", func(b *testing.B) { benchRender(b, benchScene(b, 100_000, true), 1) })
	b.Run("good-zoom8", func(b *testing.B) { benchRender(b, benchScene(b, 100_000, false), 8) })
	b.Run("good-snapshots", func(b *testing.B) { benchSnapshots(b, benchScene(b, 100_000, false)) })
}

// BenchmarkRender1M draws a 1,000,000-city instance with its current and
// best tours at 1920×1080 (the canvas's budget: 50 ms a frame).
func BenchmarkRender1M(b *testing.B) {
	b.Run("good", func(b *testing.B) { benchRender(b, benchScene(b, 1_000_000, false), 1) })
	b.Run("random", func(b *testing.B) { benchRender(b, benchScene(b, 1_000_000, true), 1) })
}

// RenderImage draws s into a new w×h image with the view that fits the
// whole instance.
func RenderImage(s Scene, w, h int, st Style) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	var r Rasterizer
	r.Render(img, s, FitView(r.Bounds(s.Instance)), st)
	return img
}
