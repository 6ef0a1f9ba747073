package tour

import (
	"math"

	"github.com/tsplab/tsplab/solver"
)

// MaxMatrixEntries bounds the distance matrix NewDist builds (4 bytes
// each: 64 MiB, n up to 4096). Larger instances compute distances.
const MaxMatrixEntries = 1 << 24

// MatrixMaxEUC2D is the largest EUC_2D instance NewDist gives a matrix:
// beyond it square roots from cached coordinates beat a matrix that
// outgrows the caches (BenchmarkDist).
const MatrixMaxEUC2D = 1000

// Dist gives the exact TSPLIB distance as solver.Instance.Dist does, read
// fastest: from a matrix that fits the caches, inline for EUC_2D and
// CEIL_2D, else from the instance. It is safe for concurrent use.
type Dist struct {
	m    []int32
	n    int
	x, y []float64 // EUC_2D or CEIL_2D coordinates when m is nil
	ceil bool      // CEIL_2D: the distance rounded up, not to the nearest
	in   *solver.Instance
}

// NewDist returns the distances of in with a matrix when in has one, or
// when it has at most MaxMatrixEntries entries and in is not an EUC_2D
// instance of more than MatrixMaxEUC2D cities.
func NewDist(in *solver.Instance) *Dist { return NewDistMatrixMax(in, MatrixMaxEUC2D) }

// NewDistMatrixMax is NewDist with the EUC_2D matrix bound set to
// eucMax cities (0: never a matrix for EUC_2D coordinates).
func NewDistMatrixMax(in *solver.Instance, eucMax int) *Dist {
	d := LazyDist(in)
	if d.m == nil && (in.Metric != solver.Euc2D || in.N <= eucMax) {
		d.m = in.DistMatrix(MaxMatrixEntries)
	}
	return d
}

// LazyDist returns the distances of in without building a matrix: for a
// one-off pass over few pairs, where building one would cost more than
// the pass.
func LazyDist(in *solver.Instance) *Dist {
	d := &Dist{n: in.N, in: in, m: in.Matrix}
	if in.Matrix == nil && (in.Metric == solver.Euc2D || in.Metric == solver.Ceil2D) {
		d.x, d.y, d.ceil = in.X, in.Y, in.Metric == solver.Ceil2D
	}
	return d
}

// At returns the distance between cities a and b. The matrix lookup
// inlines; the other paths cost a call.
func (d *Dist) At(a, b int32) int64 {
	if d.m != nil {
		return int64(d.m[int(a)*d.n+int(b)])
	}
	return d.other(a, b)
}

// Matrix returns the row-major distance matrix, or nil when d computes
// distances. Callers must not modify it.
func (d *Dist) Matrix() []int32 { return d.m }

// Coords returns the coordinates when d computes EUC_2D or CEIL_2D
// distances from them (no matrix), and whether it rounds up (CEIL_2D),
// so that a hot loop can inline them; else nil.
func (d *Dist) Coords() (x, y []float64, ceil bool) {
	if d.m != nil {
		return nil, nil, false
	}
	return d.x, d.y, d.ceil
}

// N returns the number of cities.
func (d *Dist) N() int { return d.n }

// other computes EUC_2D or CEIL_2D from the coordinates (exactly as
// in.Dist) or asks the instance.
func (d *Dist) other(a, b int32) int64 {
	if d.x != nil {
		dx, dy := d.x[a]-d.x[b], d.y[a]-d.y[b]
		return d.round(math.Sqrt(dx*dx + dy*dy))
	}
	return d.in.Dist(int(a), int(b))
}

// round is TSPLIB's rounding of the Euclidean distance r (Round).
func (d *Dist) round(r float64) int64 { return Round(r, d.ceil) }

// Round is TSPLIB's rounding of a Euclidean distance r: up for CEIL_2D
// (ceil), else to the nearest integer; small enough to inline in a hot
// loop that computes distances from coordinates itself.
func Round(r float64, ceil bool) int64 {
	if ceil {
		return int64(math.Ceil(r)) // one instruction on amd64 (ROUNDSD), no branch to mispredict
	}
	return int64(r + 0.5)
}

// Row sets dst[k] = d(c, t[k]) for every k in [from, len(t)): the
// distances from one city to the cities of a tour in tour order, the
// inner loop of whole-neighbourhood evaluations, without a call per pair.
func (d *Dist) Row(c int32, t []int32, from int, dst []int64) {
	switch {
	case d.m != nil:
		row := d.m[int(c)*d.n : int(c)*d.n+d.n]
		for k := from; k < len(t); k++ {
			dst[k] = int64(row[t[k]])
		}
	case d.x != nil:
		x, y, cx, cy := d.x, d.y, d.x[c], d.y[c]
		for k := from; k < len(t); k++ {
			dx, dy := cx-x[t[k]], cy-y[t[k]]
			dst[k] = d.round(math.Sqrt(dx*dx + dy*dy))
		}
	default:
		for k := from; k < len(t); k++ {
			dst[k] = d.in.Dist(int(c), int(t[k]))
		}
	}
}

// Length returns the length of the closed tour t.
func (d *Dist) Length(t []int32) int64 {
	if len(t) == 0 {
		return 0
	}
	var s int64
	prev := t[len(t)-1]
	for _, c := range t {
		s += d.At(prev, c)
		prev = c
	}
	return s
}
