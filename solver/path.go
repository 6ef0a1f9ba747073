package solver

import (
	"fmt"
	"math"
	"slices"
)

// MaxOpenCities is the most cities of an instance OpenInstance takes: its
// matrix of (N+1)² distances stays within 100 MB.
const MaxOpenCities = 5000

// OpenInstance returns an EXPLICIT instance of in's cities and one more,
// the last (index in.N), at distance 0 from every other: its closed tours
// are in's open paths (Hamiltonian paths with free ends) of the same
// length, for engines that take distances from the instance. The extra
// city is drawn at the centroid of in's cities when in has coordinates.
func OpenInstance(in *Instance) (*Instance, error) {
	n := in.N
	if n > MaxOpenCities || n > math.MaxInt32 {
		return nil, fmt.Errorf("an open path of %d cities: at most %d (its matrix of distances is built in memory)", n, MaxOpenCities)
	}
	m := n + 1
	w := make([]int32, m*m)
	for i := range n {
		for j := i + 1; j < n; j++ {
			d := in.Dist(i, j)
			if d > math.MaxInt32 {
				return nil, fmt.Errorf("an open path: the distance of cities %d and %d is beyond the matrix's int32", i+1, j+1)
			}
			w[i*m+j], w[j*m+i] = int32(d), int32(d)
		}
	}
	out := &Instance{Name: in.Name, Comment: in.Comment, Path: in.Path, N: m, Metric: Explicit, Matrix: w, ScaleExp: in.ScaleExp}
	if in.HasCoords() {
		out.X, out.Y = centroidAppended(in.X), centroidAppended(in.Y)
	}
	for _, e := range in.FixedEdges {
		out.FixedEdges = append(out.FixedEdges, e)
	}
	return out, nil
}

// centroidAppended is v with its mean appended.
func centroidAppended(v []float64) []float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return append(slices.Clone(v), s/float64(max(len(v), 1)))
}

// WithEnds returns a copy of in whose fixed edges also hold the edge a–b
// (0-based cities), so that its tours, that edge dropped, are the paths
// from a to b.
func WithEnds(in *Instance, a, b int) (*Instance, error) {
	if a < 0 || a >= in.N || b < 0 || b >= in.N {
		return nil, fmt.Errorf("ends %d,%d: cities are 1..%d", a+1, b+1, in.N)
	}
	if a == b {
		return nil, fmt.Errorf("ends %d,%d: a path from a city to itself is a tour", a+1, b+1)
	}
	out := *in
	out.FixedEdges = append(slices.Clone(in.FixedEdges), [2]int{a, b})
	return &out, nil
}

// PathOfOpenTour returns the open path that t, a tour of OpenInstance(in)
// for an instance of n cities, gives: its cities after the extra one (n),
// in order.
func PathOfOpenTour(t []int, n int) ([]int, error) {
	if err := ValidateTour(t, n+1); err != nil {
		return nil, err
	}
	k := slices.Index(t, n)
	return append(slices.Clone(t[k+1:]), t[:k]...), nil
}

// PathBetween returns the path from a to b that t, a tour using the edge
// a–b, gives once that edge is dropped.
func PathBetween(t []int, a, b int) ([]int, error) {
	n := len(t)
	ia, ib := slices.Index(t, a), slices.Index(t, b)
	if ia < 0 || ib < 0 {
		return nil, fmt.Errorf("the tour lacks city %d or %d", a+1, b+1)
	}
	p := make([]int, 0, n)
	switch {
	case t[(ia+n-1)%n] == b: // … b a …: a walks forward to b
		for k := range n {
			p = append(p, t[(ia+k)%n])
		}
	case t[(ia+1)%n] == b: // … a b …: a walks backward to b
		for k := range n {
			p = append(p, t[(ia-k+n)%n])
		}
	default:
		return nil, fmt.Errorf("the tour does not use the edge %d-%d", a+1, b+1)
	}
	return p, nil
}

// PathLength is the length of the open path p of in: its n-1 edges, no
// closing one.
func PathLength(in *Instance, p []int) int64 {
	var l int64
	for i := 1; i < len(p); i++ {
		l += in.Dist(p[i-1], p[i])
	}
	return l
}

// FinishPath checks that p is a path through every city of in, from a to
// b when a ≥ 0, keeping in's fixed edges, and returns its exact length:
// what Finish is to a tour.
func FinishPath(in *Instance, p []int, a, b int) (int64, error) {
	if err := ValidateTour(p, in.N); err != nil {
		return 0, fmt.Errorf("path: %v", err)
	}
	if a >= 0 && (p[0] != a || p[len(p)-1] != b) {
		return 0, fmt.Errorf("path: from %d to %d, want from %d to %d", p[0]+1, p[len(p)-1]+1, a+1, b+1)
	}
	pos := make([]int, in.N)
	for i, c := range p {
		pos[c] = i
	}
	for _, e := range in.FixedEdges {
		if d := pos[e[0]] - pos[e[1]]; d != 1 && d != -1 {
			return 0, fmt.Errorf("path: does not use the fixed edge %d-%d", e[0]+1, e[1]+1)
		}
	}
	return PathLength(in, p), nil
}
