package neighbor

import (
	"sync"

	"github.com/tsplab/tsplab/solver/internal/parallel"
	"github.com/tsplab/tsplab/solver/problem"
)

// ClusteredRatio is the quadrant to nearest candidates' distance ratio from which an instance counts as clustered
// (docs/DECISIONS.md#clustered-stitch).
const ClusteredRatio = 1.5

// ClusteredSample is the most cities a clustering check visits (all took seconds at ten million).
const ClusteredSample = 1 << 16

// QuadrantRatio is the total distance to k quadrant candidates over that to the k nearest, over at most sample cities;
// 1 without 2-D Euclidean-like coordinates or below 4 candidates.
func QuadrantRatio(in *problem.Instance, k, sample int) float64 {
	k = min(k, in.N-1)
	if !EuclidLike(in) || k < 4 || sample <= 0 {
		return 1
	}
	tree := newKDTree(in)
	step := int32(max(1, (in.N+sample-1)/sample))
	var mu sync.Mutex
	var near, quad float64
	parallel.For(len(tree.leaves), func(lo, hi int) {
		w := newQuadRows(in, tree, k, nil, nil)
		chosen := make([]int32, 0, k)
		var n, q float64
		for _, leaf := range tree.leaves[lo:hi] {
			nd := &tree.nodes[leaf]
			for _, p := range tree.pts[nd.lo:nd.hi] {
				if p.id%step == 0 {
					var nearest []int32
					chosen, nearest = w.rowInto(leaf, p, chosen[:0])
					n += w.sum(p.id, nearest)
					q += w.sum(p.id, chosen)
				}
			}
		}
		mu.Lock()
		near, quad = near+n, quad+q
		mu.Unlock()
	})
	if near <= 0 {
		return 1
	}
	return quad / near
}

// sum is the total distance from city i to the cities cs.
func (w *quadRows) sum(i int32, cs []int32) float64 {
	var s float64
	for _, c := range cs {
		s += float64(w.in.Dist(int(i), int(c)))
	}
	return s
}
