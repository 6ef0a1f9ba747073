package problem

import (
	"math"
	"testing"
)

// EstimateOptimum is BHHConstant·√(N·A) over the bounding box, for large
// plane instances only.
func TestEstimateOptimum(t *testing.T) {
	n := EstimateMinN
	x, y := make([]float64, n), make([]float64, n)
	for i := range n {
		x[i], y[i] = float64(i%100)*40, float64(i/100)*10 // a 3960 × 990 box
	}
	in := NewCoordInstance("grid", Euc2D, x, y, nil)
	est, ok := in.EstimateOptimum()
	want := BHHConstant * math.Sqrt(float64(n)*3960*990)
	if !ok || math.Abs(est-want) > 1e-6*want {
		t.Errorf("estimate %v %v, want %v", est, ok, want)
	}
	small := NewCoordInstance("sq", Euc2D, []float64{0, 1, 1, 0}, []float64{0, 0, 1, 1}, nil)
	geo := NewCoordInstance("g", Geo, x, y, nil)
	line := NewCoordInstance("l", Euc2D, x, make([]float64, n), nil)
	for _, c := range []*Instance{small, geo, line, nil} {
		if _, ok := c.EstimateOptimum(); ok {
			t.Errorf("%v: an estimate", c)
		}
	}
}
