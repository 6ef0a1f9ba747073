package gen

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/tsplab/tsplab/solver/problem"
)

func TestGenerateKinds(t *testing.T) {
	for _, kind := range Kinds {
		for _, n := range []int{4, 10, 200, 1000} {
			in, err := Generate(kind, n, 7)
			if err != nil {
				t.Fatalf("%s %d: %v", kind, n, err)
			}
			if in.N != n || len(in.X) != n || len(in.Y) != n || in.Metric != problem.Euc2D {
				t.Fatalf("%s %d: got N=%d len(X)=%d metric %v", kind, n, in.N, len(in.X), in.Metric)
			}
			side := float64(squareSide(n))
			for i := range n {
				if (kind == "uniform" || kind == "clustered") && (in.X[i] > side || in.Y[i] > side) {
					t.Fatalf("%s %d: city %d at (%v,%v) outside [0,%v]^2", kind, n, i, in.X[i], in.Y[i], side)
				}
				negative := (in.X[i] < 0 || in.Y[i] < 0) && kind != "portcgen" // its clusters may spill below 0
				if in.X[i] != math.Trunc(in.X[i]) || in.Y[i] != math.Trunc(in.Y[i]) || negative {
					t.Fatalf("%s %d: city %d at (%v,%v): want non-negative integers", kind, n, i, in.X[i], in.Y[i])
				}
			}
			known := kind == "circle" || kind == "grid"
			if in.HasOptimum() != known {
				t.Fatalf("%s %d: HasOptimum = %v", kind, n, in.HasOptimum())
			}
			if known && !strings.Contains(in.Comment, "optimum "+strconv.FormatInt(in.Optimum, 10)) {
				t.Fatalf("%s %d: comment %q does not state optimum %d", kind, n, in.Comment, in.Optimum)
			}
		}
	}
}

func TestGenerateDeterministicAndDistinct(t *testing.T) {
	for _, kind := range []string{"uniform", "clustered"} {
		a, _ := Generate(kind, 500, 42)
		b, _ := Generate(kind, 500, 42)
		c, _ := Generate(kind, 500, 43)
		same, diff := true, false
		seen := map[[2]float64]bool{}
		for i := range a.N {
			if a.X[i] != b.X[i] || a.Y[i] != b.Y[i] {
				same = false
			}
			if a.X[i] != c.X[i] || a.Y[i] != c.Y[i] {
				diff = true
			}
			p := [2]float64{a.X[i], a.Y[i]}
			if seen[p] {
				t.Errorf("%s: duplicate point %v", kind, p)
			}
			seen[p] = true
		}
		if !same {
			t.Errorf("%s: same seed gave different instances", kind)
		}
		if !diff {
			t.Errorf("%s: seeds 42 and 43 gave the same instance", kind)
		}
	}
}

func TestGenerateErrors(t *testing.T) {
	cases := []struct {
		kind string
		n    int
		want string
	}{
		{"spiral", 10, "unknown kind"},
		{"uniform", 0, "at least 1"},
		{"grid", 9, "even n"},
		{"grid", 2, "even n"},
		{"circle", MaxCircle + 1, "circle supports"},
		{"uniform", MaxN + 1, "larger than"},
	}
	for _, c := range cases {
		_, err := Generate(c.kind, c.n, 1)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Generate(%q, %d): err = %v, want it to mention %q", c.kind, c.n, err, c.want)
		}
	}
	if _, err := OptimalTour("uniform", 10); err == nil {
		t.Error("OptimalTour(uniform) gave no error")
	}
}

func TestGridShape(t *testing.T) {
	cases := map[int][2]int{4: {2, 2}, 6: {2, 3}, 400: {20, 20}, 12: {4, 3}, 30: {6, 5}, 14: {2, 7}, 10000: {100, 100}}
	for n, want := range cases {
		r, c, err := GridShape(n)
		if err != nil || r != want[0] || c != want[1] {
			t.Errorf("GridShape(%d) = %d, %d, %v; want %v", n, r, c, err, want)
		}
	}
}

// TestGridOptimum checks the grid's tour is valid, has only unit steps,
// and that no two points are closer than a unit step (so n steps is a
// lower bound on any tour).
func TestGridOptimum(t *testing.T) {
	for _, n := range []int{4, 6, 8, 12, 30, 400, 1000} {
		in, err := Generate("grid", n, 1)
		if err != nil {
			t.Fatal(err)
		}
		tour, _ := OptimalTour("grid", n)
		if err := problem.ValidateTour(tour, n); err != nil {
			t.Fatalf("grid %d: %v", n, err)
		}
		if got := problem.TourLength(in, tour); got != int64(n*GridSpacing) || in.Optimum != got {
			t.Fatalf("grid %d: tour length %d, Optimum %d, want %d", n, got, in.Optimum, n*GridSpacing)
		}
		if n <= 400 {
			for i := range n {
				for j := i + 1; j < n; j++ {
					if d := in.Dist(i, j); d < GridSpacing {
						t.Fatalf("grid %d: cities %d and %d only %d apart", n, i, j, d)
					}
				}
			}
		}
	}
}

// TestCircleOptimumCertificate checks, on the rounded integer distances,
// that any tour other than the angular one is at least as long: such a
// tour has at least two edges between non-neighbours, so it is at least
// (n-2)·(shortest edge) + 2·(shortest non-neighbour edge) long.
func TestCircleOptimumCertificate(t *testing.T) {
	sizes := []int{5, 6, 7, 10, 50, 200, 1000}
	if !testing.Short() {
		sizes = append(sizes, 3000)
	}
	for _, n := range sizes {
		in, err := Generate("circle", n, 1)
		if err != nil {
			t.Fatal(err)
		}
		if got := problem.TourLength(in, problem.IdentityTour(n)); got != in.Optimum {
			t.Fatalf("circle %d: angular tour %d, Optimum %d", n, got, in.Optimum)
		}
		minAll, minFar := int64(math.MaxInt64), int64(math.MaxInt64)
		for i := range n {
			for j := i + 1; j < n; j++ {
				d := in.Dist(i, j)
				minAll = min(minAll, d)
				if j-i != 1 && j-i != n-1 {
					minFar = min(minFar, d)
				}
			}
		}
		if lb := int64(n-2)*minAll + 2*minFar; lb < in.Optimum {
			t.Fatalf("circle %d: other tours may be as short as %d < %d", n, lb, in.Optimum)
		}
	}
}

// TestSmallOptimaExhaustive compares the stated optimum with every tour
// of small circle and grid instances.
func TestSmallOptimaExhaustive(t *testing.T) {
	for _, c := range []struct {
		kind string
		n    int
	}{{"circle", 3}, {"circle", 4}, {"circle", 5}, {"circle", 8}, {"grid", 4}, {"grid", 6}, {"grid", 8}} {
		in, err := Generate(c.kind, c.n, 3)
		if err != nil {
			t.Fatal(err)
		}
		if best := bruteForce(in); best != in.Optimum {
			t.Errorf("%s %d: exhaustive optimum %d, stated %d", c.kind, c.n, best, in.Optimum)
		}
	}
}

func bruteForce(in *problem.Instance) int64 {
	perm := problem.IdentityTour(in.N)
	best := int64(math.MaxInt64)
	var rec func(k int)
	rec = func(k int) { // city 0 fixed first
		if k == len(perm) {
			best = min(best, problem.TourLength(in, perm))
			return
		}
		for i := k; i < len(perm); i++ {
			perm[k], perm[i] = perm[i], perm[k]
			rec(k + 1)
			perm[k], perm[i] = perm[i], perm[k]
		}
	}
	rec(1)
	return best
}

func BenchmarkGenerateUniform100k(b *testing.B) {
	for b.Loop() {
		if _, err := Generate("uniform", 100000, 1); err != nil {
			b.Fatal(err)
		}
	}
}

// TestDIMACSBestParse: every recorded best known length is of a challenge
// instance that ParseDIMACS names, with that length.
func TestDIMACSBestParse(t *testing.T) {
	if len(dimacsBest) < 20 {
		t.Fatalf("only %d best known lengths", len(dimacsBest))
	}
	for name, b := range dimacsBest {
		d, ok := ParseDIMACS(name)
		if !ok || d.N == 0 || d.BestKnown <= 0 || d.BestKnown != b.length {
			t.Errorf("%s: %+v, %v", name, d, ok)
		}
	}
}
