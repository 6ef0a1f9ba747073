package construct

import (
	"math"

	"github.com/tsplab/tsplab/solver/internal/parallel"
	"github.com/tsplab/tsplab/solver/internal/radix"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/problem"
)

// hilbertOrder is the curve's resolution: a 2^16 × 2^16 grid.
const hilbertOrder = 16

// SpaceFillingCurve returns the cities in Hilbert-curve order (Bartholdi & Platzman), without coordinates the
// nearest-neighbour tour.
func SpaceFillingCurve(in *problem.Instance) []int {
	n := in.N
	if n <= 0 {
		return []int{}
	}
	if in.Metric == problem.Explicit || len(in.X) != n || len(in.Y) != n {
		var nb *neighbor.Lists
		if n > 2000 {
			nb = neighbor.Nearest(in, 8)
		}
		return NearestNeighbor(in, 0, nb)
	}
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	for i := range n {
		minX, maxX = min(minX, in.X[i]), max(maxX, in.X[i])
		minY, maxY = min(minY, in.Y[i]), max(maxY, in.Y[i])
	}
	// One scale for both axes keeps the curve's cells square.
	span := max(maxX-minX, maxY-minY)
	scale := 0.0
	if span > 0 && !math.IsInf(span, 0) {
		scale = float64(uint32(1)<<hilbertOrder-1) / span
	}
	// the cities by curve index, a stable radix sort so that ties keep file order: a comparison sort takes 1.6 s of
	// ten million cities, most of the end of a stopped run, which compares its tour with this one
	keys, ids := make([]uint64, n), make([]int32, n)
	parallel.For(n, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			x := uint32(clampUnit((in.X[i] - minX) * scale))
			y := uint32(clampUnit((in.Y[i] - minY) * scale))
			keys[i], ids[i] = hilbertIndex(x, y), int32(i)
		}
	})
	radix.Sort(keys, 2*hilbertOrder, ids)
	t := make([]int, n)
	for p, c := range ids {
		t[p] = int(c)
	}
	return t
}

// clampUnit keeps a scaled coordinate on the grid (NaN becomes 0).
func clampUnit(v float64) float64 {
	if !(v > 0) {
		return 0
	}
	return min(v, float64(uint32(1)<<hilbertOrder-1))
}

// hilbertIndex returns grid cell (x, y)'s position along the Hilbert curve.
func hilbertIndex(x, y uint32) uint64 {
	const side = uint32(1) << hilbertOrder
	var d uint64
	for s := side / 2; s > 0; s /= 2 {
		var rx, ry uint32
		if x&s != 0 {
			rx = 1
		}
		if y&s != 0 {
			ry = 1
		}
		d += uint64(s) * uint64(s) * uint64((3*rx)^ry)
		if ry == 0 {
			if rx == 1 {
				x = side - 1 - x
				y = side - 1 - y
			}
			x, y = y, x
		}
	}
	return d
}
