package export

import (
	"image"
	"slices"
	"testing"
)

func TestHeatMapShowsWhereTheTourChanged(t *testing.T) {
	s := goodScene(t, "uniform", 20000)
	in := s.Instance
	st := DefaultStyle()
	var r Rasterizer
	v := FitView(r.Bounds(in))
	img := image.NewRGBA(image.Rect(0, 0, 800, 600))
	r.Render(img, s, v, st)
	if c := r.Stats().HeatCells; c != 0 {
		t.Fatalf("first snapshot: %d heated cells, want none", c)
	}
	// The next snapshot reverses a short stretch of the tour: two edges
	// change, next to each other on the space-filling curve.
	next := slices.Clone(s.Tour)
	slices.Reverse(next[5000:5040])
	s.Tour = next
	r.Render(img, s, v, st)
	cells := r.Stats().HeatCells
	if cells < 1 || cells > 4 {
		t.Fatalf("after a 2-opt move: %d heated cells, want 1 to 4", cells)
	}
	// The tint lies where the changed edges are, and nowhere else.
	var plain Rasterizer
	noHeat := st
	noHeat.Heat.A = 0
	want := image.NewRGBA(img.Rect)
	plain.Render(want, s, v, noHeat)
	tr := NewTransform(r.Bounds(in), v, 800, 600)
	a, b := next[4999], next[5000]
	mx, my := tr.Apply((r.wx[a]+r.wx[b])/2, (r.wy[a]+r.wy[b])/2)
	changed, far := 0, 0
	for y := 0; y < 600; y++ {
		for x := 0; x < 800; x++ {
			if img.RGBAAt(x, y) != want.RGBAAt(x, y) {
				changed++
				if (float64(x)-mx)*(float64(x)-mx)+(float64(y)-my)*(float64(y)-my) > 60*60 {
					far++
				}
			}
		}
	}
	if changed < 20 {
		t.Errorf("%d tinted pixels, want the changed cell's", changed)
	}
	if far != 0 {
		t.Errorf("%d tinted pixels more than 60 px from the changed edges", far)
	}
	// Drawing the same snapshot again (a pan, a resize) changes nothing.
	r.Render(img, s, v, st)
	if got := r.Stats().HeatCells; got != cells {
		t.Errorf("redraw of the same snapshot: %d heated cells, was %d", got, cells)
	}
	// Snapshots without changes let the heat decay away.
	for i := 0; i < 40; i++ {
		s.Tour = slices.Clone(next)
		r.Render(img, s, v, st)
	}
	if got := r.Stats().HeatCells; got != 0 {
		t.Errorf("after 40 unchanged snapshots: %d heated cells", got)
	}
}

// TestHeatStaysSmallWhenZoomedAndClearsWhenDone: zoomed in on a change,
// the tint covers cells of HeatCellPx on screen, not a cell of the
// instance grown into a block; a scene marked Done draws none.
func TestHeatStaysSmallWhenZoomedAndClearsWhenDone(t *testing.T) {
	s := goodScene(t, "uniform", 20000)
	in := s.Instance
	st := DefaultStyle()
	var r Rasterizer
	img := image.NewRGBA(image.Rect(0, 0, 800, 600))
	fit := FitView(r.Bounds(in))
	r.Render(img, s, fit, st)
	next := slices.Clone(s.Tour)
	slices.Reverse(next[5000:5040])
	s.Tour = next
	a, b := next[4999], next[5000]
	// Zoom 40 about the changed edge's midpoint.
	v := View{CX: (r.wx[a] + r.wx[b]) / 2, CY: (r.wy[a] + r.wy[b]) / 2, Zoom: 40}
	r.Render(img, s, v, st)
	var plain Rasterizer
	noHeat := st
	noHeat.Heat.A = 0
	want := image.NewRGBA(img.Rect)
	plain.Render(want, s, v, noHeat)
	tinted := 0
	for y := 0; y < 600; y++ {
		for x := 0; x < 800; x++ {
			if img.RGBAAt(x, y) != want.RGBAAt(x, y) {
				tinted++
			}
		}
	}
	// The changed edges' midpoints lie in at most 4 cells (a 1/48 cell
	// of the instance would cover 800 × 40 / 48 px on a side here).
	if tinted == 0 || tinted > 4*HeatCellPx*HeatCellPx {
		t.Errorf("%d tinted pixels at zoom 40, want 1 to 4 cells of %d px", tinted, HeatCellPx)
	}
	// The run ends: the same tour as a finished scene has no tint.
	s.Done = true
	r.Render(img, s, v, st)
	if c := r.Stats().HeatCells; c != 0 {
		t.Errorf("a finished run's scene: %d heated cells", c)
	}
	plain.Render(want, s, v, noHeat)
	for i := range img.Pix {
		if img.Pix[i] != want.Pix[i] {
			t.Fatal("a finished run's scene is tinted")
		}
	}
}
