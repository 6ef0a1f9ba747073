package export

import (
	"bytes"
	"image"
	"image/color"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/gen"
	"github.com/tsplab/tsplab/solver/problem"
)

// tourHue reports whether c has the hue of the tour in DefaultStyle
// (orange, at any of its tone-mapped alphas and heats): red well above
// blue and green below red. The background, the cities (pale grey), the
// best tour (green) and the optimal overlay (blue) do not.
func tourHue(c color.RGBA) bool {
	return int(c.R)-int(c.B) >= 60 && c.G < c.R
}

// hueCount returns how many pixels of img have the tour's hue.
func hueCount(img *image.RGBA) int {
	n := 0
	for i := 0; i+3 < len(img.Pix); i += 4 {
		if tourHue(color.RGBA{R: img.Pix[i], G: img.Pix[i+1], B: img.Pix[i+2]}) {
			n++
		}
	}
	return n
}

// boxArea returns the pixels of the instance's fitted bounding box in a
// w×h image.
func boxArea(in *problem.Instance, w, h int) float64 {
	b := BoundsOf(in)
	t := NewTransform(b, FitView(b), w, h)
	x0, y0 := t.Apply(b.MinX, b.MaxY)
	x1, y1 := t.Apply(b.MaxX, b.MinY)
	return (x1 - x0) * (y1 - y0)
}

// goodScene returns kind's instance of n cities and a space-filling-curve
// tour through them (short edges, like a good tour).
func goodScene(t testing.TB, kind string, n int) Scene {
	t.Helper()
	in, err := gen.Generate(kind, n, 1)
	if err != nil {
		t.Fatal(err)
	}
	return Scene{Instance: in, Tour: construct.SpaceFillingCurve(in)}
}

// checkTourVisible renders s and the cities alone at w×h and checks that
// the tour shows: at least minFrac of the instance's box has the tour's
// hue, the cities alone have none of it, and no pixel has the cities'
// colour on top of the tour.
func checkTourVisible(t *testing.T, s Scene, w, h int, minFrac float64) {
	t.Helper()
	st := DefaultStyle()
	var r Rasterizer
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	r.Render(img, s, FitView(r.Bounds(s.Instance)), st)
	stats := r.Stats()
	dots := RenderImage(Scene{Instance: s.Instance}, w, h, st)
	area := boxArea(s.Instance, w, h)
	got := hueCount(img)
	if float64(got) < minFrac*area {
		t.Errorf("%s: %d pixels of the tour's hue, want at least %.0f%% of the %.0f-pixel box (stats %+v)", s.Instance.Name, got, 100*minFrac, area, stats)
	}
	if n := hueCount(dots); n != 0 {
		t.Errorf("%s: the cities alone have %d pixels of the tour's hue", s.Instance.Name, n)
	}
	diff := 0
	for i := 0; i < len(img.Pix); i += 4 {
		if !bytes.Equal(img.Pix[i:i+3], dots.Pix[i:i+3]) {
			diff++
		}
	}
	if float64(diff) < minFrac*area {
		t.Errorf("%s: the tour changes %d pixels of the cities-only picture, want at least %.0f", s.Instance.Name, diff, minFrac*area)
	}
	if n := countColor(img, st.City); n != 0 {
		t.Errorf("%s: %d city-coloured pixels cover the tour (dot alpha %v)", s.Instance.Name, n, stats.DotAlpha)
	}
	if stats.DotAlpha != 0 {
		t.Errorf("%s: dots drawn with alpha %v at density %.2f, want them faded out", s.Instance.Name, stats.DotAlpha, stats.Density)
	}
}

func TestTourVisibleAtPla85900Size(t *testing.T) {
	for _, kind := range []string{"uniform", "clustered"} {
		checkTourVisible(t, goodScene(t, kind, 85900), 1600, 1000, 0.1)
	}
}

func TestTourVisibleAtOneMillion(t *testing.T) {
	if testing.Short() {
		t.Skip("a million cities: skipped with -short")
	}
	checkTourVisible(t, goodScene(t, "uniform", 1_000_000), 1600, 1000, 0.3)
}

func TestDotsFadeWithDensity(t *testing.T) {
	st := DefaultStyle()
	var prev float64 = 2
	for _, n := range []int{200, 8000, 30000, 85900} {
		s := goodScene(t, "uniform", n)
		var r Rasterizer
		img := image.NewRGBA(image.Rect(0, 0, 800, 600))
		r.Render(img, s, FitView(r.Bounds(s.Instance)), st)
		a := r.Stats().DotAlpha
		if a > prev {
			t.Errorf("%d cities: dot alpha %v above %v of fewer cities", n, a, prev)
		}
		prev = a
		if d := r.Stats().Density; d <= SparseDots && (a != 1 || !r.Stats().DotsOver) {
			t.Errorf("%d cities at density %v: dots alpha %v over %v, want solid on top", n, d, a, r.Stats().DotsOver)
		}
	}
	if prev != 0 {
		t.Errorf("85,900 cities in 800×600: dot alpha %v, want 0", prev)
	}
	// Zoomed in far enough, the same cities are sparse again and drawn.
	s := goodScene(t, "uniform", 85900)
	var r Rasterizer
	img := image.NewRGBA(image.Rect(0, 0, 800, 600))
	v := FitView(r.Bounds(s.Instance))
	v.Zoom = 40
	r.Render(img, s, v, st)
	if !r.Stats().DotsOver || countColor(img, st.City) == 0 {
		t.Errorf("zoomed 40×: stats %+v, %d city pixels; want dots on top", r.Stats(), countColor(img, st.City))
	}
}

func TestRandomTourIsSampledWithinBudget(t *testing.T) {
	in, err := gen.Generate("uniform", 100_000, 2)
	if err != nil {
		t.Fatal(err)
	}
	s := Scene{Instance: in, Tour: construct.Random(in.N, rand.New(rand.NewPCG(5, 6)))}
	var r Rasterizer
	img := image.NewRGBA(image.Rect(0, 0, 1920, 1080))
	r.Render(img, s, FitView(r.Bounds(in)), DefaultStyle())
	st := r.Stats()
	if st.Sampled == 0 {
		t.Fatalf("random 100k tour at full HD was not sampled: %+v", st)
	}
	if st.Steps > StepBudget*5/4 {
		t.Errorf("stepped %d pixels, budget %d", st.Steps, StepBudget)
	}
	if st.Overlap < 10 {
		t.Errorf("overlap %v: a random tour's edges cross the picture many times over", st.Overlap)
	}
	if got, area := hueCount(img), boxArea(in, 1920, 1080); float64(got) < 0.5*area {
		t.Errorf("random tour covers %d tour-hued pixels of %.0f", got, area)
	}
	// A good tour of the same cities fits the budget and is drawn whole.
	s.Tour = construct.SpaceFillingCurve(in)
	r.Render(img, s, FitView(r.Bounds(in)), DefaultStyle())
	if st := r.Stats(); st.Sampled != 0 {
		t.Errorf("good tour sampled: %+v", st)
	}
}

func TestParallelRenderMatchesSerial(t *testing.T) {
	in, err := gen.Generate("clustered", 60_000, 3)
	if err != nil {
		t.Fatal(err)
	}
	s := Scene{Instance: in, Tour: construct.Random(in.N, rand.New(rand.NewPCG(1, 1))), Best: construct.SpaceFillingCurve(in)}
	render := func(procs int) *image.RGBA {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		var r Rasterizer
		img := image.NewRGBA(image.Rect(0, 0, 1000, 700))
		v := FitView(r.Bounds(in))
		v.Zoom = 1.7
		r.Render(img, s, v, DefaultStyle())
		r.Render(img, s, v, DefaultStyle()) // a second frame reuses the zeroed buffers
		return img
	}
	one, four := render(1), render(4)
	if !bytes.Equal(one.Pix, four.Pix) {
		t.Error("rendering on four goroutines differs from one")
	}
}

func TestBestTourDrawnWhereItDiffers(t *testing.T) {
	in := square()
	st := DefaultStyle()
	// The best tour crosses the square; the tour goes round it. The
	// crossing shows in the best tour's colour, the sides in the tour's.
	img := RenderImage(Scene{Instance: in, Tour: []int{0, 1, 2, 3}, Best: []int{0, 2, 1, 3}}, 100, 100, st)
	if got := at(img, 50, 50); got != st.Best {
		t.Errorf("centre %v, want the best tour's colour", got)
	}
	if countColor(img, st.Tour) < 100 {
		t.Error("tour not drawn over the best tour")
	}
	// A best tour equal to the tour but for its direction adds nothing.
	img = RenderImage(Scene{Instance: in, Tour: []int{0, 1, 2, 3}, Best: []int{3, 2, 1, 0}}, 100, 100, st)
	if n := countColor(img, st.Best); n != 0 {
		t.Errorf("%d best-coloured pixels for a best tour equal to the tour", n)
	}
	// Many cities: the swapped cities' edges show, nothing else does.
	s := goodScene(t, "uniform", 30000)
	best := append([]int(nil), s.Tour...)
	best[100], best[20000] = best[20000], best[100]
	s.Best = best
	var r Rasterizer
	img = image.NewRGBA(image.Rect(0, 0, 800, 600))
	r.Render(img, s, FitView(r.Bounds(s.Instance)), st)
	if n := countColor(img, st.Best); n < 20 {
		t.Errorf("%d best-coloured pixels: the swap's long edges are missing", n)
	}
}
