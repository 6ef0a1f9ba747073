package neighbor

import (
	"math"
	"testing"

	"github.com/tsplab/tsplab/solver/gen"
	"github.com/tsplab/tsplab/solver/problem"
)

// TestQuadrantRatio: over every city the ratio is that of Quadrant's and
// Nearest's rows, on a sample it stays within a few per cent, and the
// DIMACS clustered kind counts as clustered where the uniform one does not.
func TestQuadrantRatio(t *testing.T) {
	for _, kind := range []string{"portcgen", "portgen"} {
		in, err := gen.Generate(kind, 20000, 20000)
		if err != nil {
			t.Fatal(err)
		}
		whole := listTotal(in, Quadrant(in, 8)) / listTotal(in, Nearest(in, 8))
		if r := QuadrantRatio(in, 8, in.N); math.Abs(r/whole-1) > 1e-9 {
			t.Fatalf("%s: ratio %.6f over every city, lists give %.6f", kind, r, whole)
		}
		r := QuadrantRatio(in, 8, 2000)
		if math.Abs(r/whole-1) > 0.05 {
			t.Fatalf("%s: ratio %.3f on a sample, %.3f over every city", kind, r, whole)
		}
		if got := r >= ClusteredRatio; got != (kind == "portcgen") {
			t.Fatalf("%s: ratio %.3f, clustered %v", kind, r, got)
		}
	}
	if r := QuadrantRatio(problem.NewCoordInstance("two", problem.Euc2D, []float64{0, 1}, []float64{0, 1}, nil), 8, 10); r != 1 {
		t.Fatalf("two cities: ratio %v, want 1", r)
	}
}

// listTotal is the total distance from every city to its candidates.
func listTotal(in *problem.Instance, nb *Lists) float64 {
	var s float64
	for c := range nb.N() {
		for _, x := range nb.Of(c) {
			s += float64(in.Dist(c, int(x)))
		}
	}
	return s
}
