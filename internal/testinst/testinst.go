// Package testinst makes the random and degenerate instances that the
// tests of tour, construct, neighbor, cpu and gpu share, and the readers'
// gzip data. Only tests import it.
package testinst

import (
	"bytes"
	"compress/gzip"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tsplab/tsplab/solver/problem"
)

// coords returns an instance of n cities whose x and y draw gives.
func coords(n int, name string, m problem.Metric, draw func() float64) *problem.Instance {
	x, y := make([]float64, n), make([]float64, n)
	for i := range n {
		x[i], y[i] = draw(), draw()
	}
	return problem.NewCoordInstance(name, m, x, y, nil)
}

// Euc returns a uniform random EUC_2D instance on a side×side square.
func Euc(n int, side float64, rng *rand.Rand) *problem.Instance {
	return coords(n, "rand", problem.Euc2D, func() float64 { return rng.Float64() * side })
}

// IntEuc returns a uniform EUC_2D instance with integer coordinates in [0, side).
func IntEuc(n int, side float64, rng *rand.Rand) *problem.Instance {
	return coords(n, "uniform", problem.Euc2D, func() float64 { return math.Floor(rng.Float64() * side) })
}

// Grid returns an instance of metric m on a small integer grid, full of ties.
func Grid(n, side int, m problem.Metric, rng *rand.Rand) *problem.Instance {
	return coords(n, "grid", m, func() float64 { return float64(rng.IntN(side)) })
}

// Explicit returns a symmetric EXPLICIT instance with random weights.
func Explicit(n int, rng *rand.Rand) *problem.Instance {
	m := make([]int32, n*n)
	for i := range n {
		for j := i + 1; j < n; j++ {
			d := int32(rng.IntN(1000))
			m[i*n+j], m[j*n+i] = d, d
		}
	}
	return problem.NewMatrixInstance("explicit", n, m)
}

// Mix returns a uniform, an EXPLICIT and a coarse-grid instance of size n.
func Mix(n int, rng *rand.Rand) []*problem.Instance {
	return []*problem.Instance{Euc(n, 1000, rng), Explicit(n, rng), Grid(n, 8, problem.Euc2D, rng)}
}

// Degenerate returns two instances of n cities: all on one point (EUC_2D) and on one vertical line (CEIL_2D).
func Degenerate(n int) (point, column *problem.Instance) {
	same := make([]float64, n)
	for i := range same {
		same[i] = 7
	}
	col := make([]float64, n)
	for i := range col {
		col[i] = float64(i % 97)
	}
	return problem.NewCoordInstance("point", problem.Euc2D, same, same, nil),
		problem.NewCoordInstance("column", problem.Ceil2D, same, col, nil)
}

// MustValid fails the test when tour is not a tour of in.
func MustValid(tb testing.TB, in *problem.Instance, tour []int, what string) {
	tb.Helper()
	if err := problem.ValidateTour(tour, in.N); err != nil {
		tb.Fatalf("%s on %s n=%d: %v", what, in.Name, in.N, err)
	}
}

// Gzip returns text gzipped, for the readers' tests.
func Gzip(t testing.TB, text string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write([]byte(text)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
