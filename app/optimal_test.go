package app

import (
	"slices"
	"testing"
	"time"

	"github.com/tsplab/tsplab/canvas"
	"github.com/tsplab/tsplab/solver"
)

// A best tour as short as the file's optimal tour but another one is
// said to be another optimal tour, and the optimal tour is not drawn
// beneath it as if they differed: before the run (the opened start tour)
// and after it.
func TestAnotherOptimalTourIsNoDifference(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	p := ap.Single
	// a square with its first corner twice: two optimal tours differ in
	// which copy the edge from the second corner reaches
	in := solver.NewCoordInstance("sq", solver.Euc2D, []float64{0, 10, 10, 0, 0}, []float64{0, 0, 10, 10, 0}, nil)
	in.Optimum, in.OptimumSource = 40, "test"
	fileOpt, other := []int{0, 4, 1, 2, 3}, []int{4, 0, 1, 2, 3}
	p.SetInstance(in, fileOpt)
	if !slices.Contains(canvas.LegendFor(p.View.Scene()), canvas.LegendOptimal) {
		t.Fatal("the optimal tour is not drawn before any tour")
	}
	check := func(when string) {
		t.Helper()
		if sc := p.View.Scene(); sc.Optimal != nil || slices.Contains(canvas.LegendFor(sc), canvas.LegendOptimal) {
			t.Errorf("%s: the optimal tour is drawn as a difference (legend %v)", when, canvas.LegendFor(sc))
		}
		if g := p.numbers.value["Gap"].Text; g != "0.00 % (another optimal tour)" {
			t.Errorf("%s: Gap shows %q", when, g)
		}
	}
	p.SetStartTour(other, "other.tour", false)
	check("opened")
	s := fakeSettings(200 * time.Millisecond)
	p.SetSettings(s)
	if err := p.RunFor(0); err != nil {
		t.Fatal(err)
	}
	settle(t, p)
	check("after the run")
	if !solver.SameCycle(other, []int{1, 0, 4, 3, 2}) || solver.SameCycle(other, fileOpt) {
		t.Error("SameCycle")
	}
}
