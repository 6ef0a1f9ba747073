package construct

import (
	"cmp"
	"math/bits"
	"slices"

	"github.com/tsplab/tsplab/solver/internal/parallel"
	"github.com/tsplab/tsplab/solver/internal/radix"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/problem"
)

// candidateEdges lists every candidate edge of nb once (a < b) in a serial scan's order, on all cores.
func candidateEdges(in *problem.Instance, nb *neighbor.Lists) []candEdge {
	n, k := in.N, nb.K
	if k > 64 {
		return candidateEdgesSerial(in, nb)
	}
	// own[i] has bit x set when nb.Of(i)[x] gives an edge from i's side (a pair in both lists counts from j's).
	own := make([]uint64, n)
	count := make([]int32, n+1)
	parallel.For(n, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			var m uint64
			for x, j := range nb.Of(i) {
				if int32(i) < j || !nb.Contains(int(j), i) {
					m |= 1 << x
				}
			}
			own[i], count[i+1] = m, int32(bits.OnesCount64(m))
		}
	})
	for i := range n {
		count[i+1] += count[i]
	}
	edges := make([]candEdge, count[n])
	parallel.For(n, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			at := count[i]
			for x, j := range nb.Of(i) {
				if own[i]&(1<<x) != 0 {
					a, b := min(int32(i), j), max(int32(i), j)
					edges[at] = candEdge{in.Dist(int(a), int(b)), a, b}
					at++
				}
			}
		}
	})
	return edges
}

// candidateEdgesSerial is candidateEdges in one scan.
func candidateEdgesSerial(in *problem.Instance, nb *neighbor.Lists) []candEdge {
	var edges []candEdge
	for i := range in.N {
		for _, j := range nb.Of(i) {
			a, b := int32(i), j
			if a > b {
				if nb.Contains(int(b), int(a)) {
					continue
				}
				a, b = b, a
			}
			edges = append(edges, candEdge{in.Dist(int(a), int(b)), a, b})
		}
	}
	return edges
}

// compareEdges orders candidate edges by length, then by their ends.
func compareEdges(x, y candEdge) int {
	return cmp.Or(cmp.Compare(x.d, y.d), cmp.Compare(x.a, y.a), cmp.Compare(x.b, y.b))
}

// sortEdges sorts edges by length then ends, radix-sorted where they pack (docs/DECISIONS.md#radix-sort).
func sortEdges(edges []candEdge) {
	if len(edges) < 1024 || !sortEdgesPacked(edges) {
		slices.SortFunc(edges, compareEdges)
	}
}

// sortEdgesPacked is sortEdges by packed keys; false, edges untouched, when they do not pack.
func sortEdgesPacked(edges []candEdge) bool {
	var maxD int64
	var maxV int32
	for _, e := range edges {
		if e.d < 0 || e.a < 0 || e.b < 0 {
			return false
		}
		maxD, maxV = max(maxD, e.d), max(maxV, e.a, e.b)
	}
	vb, db := uint(bits.Len32(uint32(maxV))), uint(bits.Len64(uint64(maxD)))
	if db+2*vb > 64 {
		return false
	}
	keys := make([]uint64, len(edges))
	for x, e := range edges {
		keys[x] = uint64(e.d)<<(2*vb) | uint64(e.a)<<vb | uint64(e.b)
	}
	radix.Sort(keys, db+2*vb, nil)
	mask := uint64(1)<<vb - 1
	for x, k := range keys {
		edges[x] = candEdge{int64(k >> (2 * vb)), int32(k >> vb & mask), int32(k & mask)}
	}
	return true
}
