package problem

import "testing"

// TestInstanceGap: a known optimum of 0 is told from an unknown one.
func TestInstanceGap(t *testing.T) {
	in := NewCoordInstance("p", Euc2D, []float64{0, 0}, []float64{0, 0}, nil)
	if in.HasOptimum() {
		t.Fatal("a new instance has an optimum")
	}
	if _, ok := in.Gap(0); ok {
		t.Error("a gap without an optimum")
	}
	in.Optimum, in.OptimumSource = 0, "optima.csv"
	if !in.HasOptimum() {
		t.Fatal("a known optimum of 0 reads as unknown")
	}
	if g, ok := in.Gap(0); !ok || g != 0 {
		t.Errorf("Gap(0) with optimum 0 = %v, %v; want 0, true", g, ok)
	}
	if _, ok := in.Gap(5); ok {
		t.Error("a ratio to an optimum of 0")
	}
	in.Optimum = 100
	if g, ok := in.Gap(110); !ok || g != 10 {
		t.Errorf("Gap(110) with optimum 100 = %v, %v", g, ok)
	}
}
