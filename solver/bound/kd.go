package bound

import (
	"math"

	"github.com/tsplab/tsplab/solver"
)

// kdTree is a k-d tree over a Euclidean-like instance's cities, preorder nodes with box, least penalty and component.
type kdTree struct {
	in    *solver.Instance
	perm  []int32 // cities, each node owning perm[lo:hi]
	nodes []kdNode
	lbOf  func(e2 float64) int64 // a lower bound of the metric at squared Euclidean distance e2
}

type kdNode struct {
	lo, hi      int32
	left, right int32 // child nodes, -1 in a leaf
	minX, maxX  float64
	minY, maxY  float64
	minPi       int64
	comp        int32
}

const kdLeaf = 8

// metricLowerBound maps a squared Euclidean distance to a lower bound of the TSPLIB distance (nil for other metrics).
func metricLowerBound(m solver.Metric) func(e2 float64) int64 {
	switch m {
	case solver.Euc2D:
		return func(e2 float64) int64 { return max(int64(math.Sqrt(e2)+0.5)-1, 0) }
	case solver.Ceil2D:
		return func(e2 float64) int64 { return max(int64(math.Ceil(math.Sqrt(e2)))-1, 0) }
	case solver.Att:
		return func(e2 float64) int64 { return max(int64(math.Ceil(math.Sqrt(e2/10.0)))-1, 0) }
	}
	return nil
}

// euclidLike reports whether the k-d tree evaluation applies to in.
func euclidLike(in *solver.Instance) bool {
	return metricLowerBound(in.Metric) != nil && len(in.X) == in.N && len(in.Y) == in.N && in.N > 0
}

func newKDTree(in *solver.Instance) *kdTree {
	t := &kdTree{in: in, perm: make([]int32, in.N), lbOf: metricLowerBound(in.Metric)}
	for i := range t.perm {
		t.perm[i] = int32(i)
	}
	t.nodes = make([]kdNode, 0, 2*in.N/kdLeaf+2)
	t.build(0, int32(in.N))
	return t
}

func (t *kdTree) build(lo, hi int32) int32 {
	id := int32(len(t.nodes))
	x, y := t.in.X, t.in.Y
	nd := kdNode{lo: lo, hi: hi, left: -1, right: -1,
		minX: math.Inf(1), maxX: math.Inf(-1), minY: math.Inf(1), maxY: math.Inf(-1)}
	for _, c := range t.perm[lo:hi] {
		nd.minX, nd.maxX = min(nd.minX, x[c]), max(nd.maxX, x[c])
		nd.minY, nd.maxY = min(nd.minY, y[c]), max(nd.maxY, y[c])
	}
	t.nodes = append(t.nodes, nd)
	if hi-lo <= kdLeaf {
		return id
	}
	coord := x
	if nd.maxY-nd.minY > nd.maxX-nd.minX {
		coord = y
	}
	mid := lo + (hi-lo)/2
	selectNth(t.perm[lo:hi], int(mid-lo), coord)
	l := t.build(lo, mid)
	r := t.build(mid, hi)
	t.nodes[id].left, t.nodes[id].right = l, r
	return id
}

// selectNth reorders p so p[k] holds the city of rank k by coord.
func selectNth(p []int32, k int, coord []float64) {
	lo, hi := 0, len(p)-1
	for hi > lo {
		// median of three as the pivot
		m := lo + (hi-lo)/2
		a, b, c := coord[p[lo]], coord[p[m]], coord[p[hi]]
		piv := c
		switch {
		case (a <= b) == (b <= c):
			piv = b
		case (b <= a) == (a <= c):
			piv = a
		}
		i, j := lo, hi
		for i <= j {
			for coord[p[i]] < piv {
				i++
			}
			for coord[p[j]] > piv {
				j--
			}
			if i <= j {
				p[i], p[j] = p[j], p[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return
		}
	}
}

// setPenalties stores in every node the smallest penalty of its cities.
func (t *kdTree) setPenalties(pi []int64) {
	for id := len(t.nodes) - 1; id >= 0; id-- {
		nd := &t.nodes[id]
		if nd.left < 0 {
			m := int64(math.MaxInt64)
			for _, c := range t.perm[nd.lo:nd.hi] {
				m = min(m, pi[c])
			}
			nd.minPi = m
			continue
		}
		nd.minPi = min(t.nodes[nd.left].minPi, t.nodes[nd.right].minPi)
	}
}

// setComponents stores in every node its cities' common component, or -1.
func (t *kdTree) setComponents(comp []int32) {
	for id := len(t.nodes) - 1; id >= 0; id-- {
		nd := &t.nodes[id]
		if nd.left < 0 {
			c := comp[t.perm[nd.lo]]
			for _, p := range t.perm[nd.lo+1 : nd.hi] {
				if comp[p] != c {
					c = -1
					break
				}
			}
			nd.comp = c
			continue
		}
		nd.comp = -1
		if l, r := t.nodes[nd.left].comp, t.nodes[nd.right].comp; l == r {
			nd.comp = l
		}
	}
}

// edgeKey orders edges by weight then ends, so every weight is distinct, as Borůvka needs.
type edgeKey struct {
	w    int64
	a, b int32 // a < b; a == -1 for no edge
}

func mkKey(w int64, i, j int32) edgeKey {
	if i > j {
		i, j = j, i
	}
	return edgeKey{w, i, j}
}

var noEdge = edgeKey{w: math.MaxInt64, a: -1, b: -1}

func (k edgeKey) less(o edgeKey) bool {
	if k.w != o.w {
		return k.w < o.w
	}
	if k.a != o.a {
		return k.a < o.a
	}
	return k.b < o.b
}

// query is one search for the cheapest edge (i, j) with j outside component skip (-2: none) and j ∉ {i, ex}.
type query struct {
	t      *kdTree
	pi     []int64
	comp   []int32
	i      int32
	ex     int32
	skip   int32
	limit  func() int64 // current pruning bound on the weight, or nil
	best   edgeKey
	stack  []int32
	qx, qy float64
}

func (q *query) run() {
	t := q.t
	in := t.in
	piI := q.pi[q.i]
	q.qx, q.qy = in.X[q.i], in.Y[q.i]
	q.stack = append(q.stack[:0], 0)
	for len(q.stack) > 0 {
		id := q.stack[len(q.stack)-1]
		q.stack = q.stack[:len(q.stack)-1]
		nd := &t.nodes[id]
		if q.skip != -2 && nd.comp == q.skip {
			continue
		}
		thr := q.best.w
		if q.limit != nil {
			thr = min(thr, q.limit())
		}
		if Precision*q.boxLB(nd)+nd.minPi+piI > thr {
			continue
		}
		if nd.left < 0 {
			for _, p := range t.perm[nd.lo:nd.hi] {
				if p == q.i || p == q.ex || (q.skip != -2 && q.comp[p] == q.skip) {
					continue
				}
				w := Precision*in.Dist(int(q.i), int(p)) + piI + q.pi[p]
				if w > thr {
					continue
				}
				if k := mkKey(w, q.i, p); k.less(q.best) {
					q.best = k
					thr = w
				}
			}
			continue
		}
		// Nearer child last on the stack, so it is searched first.
		l, r := nd.left, nd.right
		if q.boxDist2(&t.nodes[l]) < q.boxDist2(&t.nodes[r]) {
			l, r = r, l
		}
		q.stack = append(q.stack, l, r)
	}
}

func (q *query) boxDist2(nd *kdNode) float64 {
	dx := max(nd.minX-q.qx, 0, q.qx-nd.maxX)
	dy := max(nd.minY-q.qy, 0, q.qy-nd.maxY)
	return dx*dx + dy*dy
}

func (q *query) boxLB(nd *kdNode) int64 { return q.t.lbOf(q.boxDist2(nd)) }
