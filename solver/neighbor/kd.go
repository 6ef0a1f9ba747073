package neighbor

import (
	"math"
	"math/bits"
	"slices"
	"sync"

	"github.com/tsplab/tsplab/solver/problem"
)

// kdTree is a flat k-d tree split at the exact median (kdLess) of each box's wider side; searches keep points in
// (squared distance, index) order, so answers depend on the point set only.
type kdTree struct {
	pts    []kdPoint
	nodes  []kdNode
	leaves []int32 // the leaves, in preorder (so in the order of pts)
}

// kdPoint is a city in the tree.
type kdPoint struct {
	x, y float64
	id   int32
}

// kdNode is a kdTree node: left child next, right 0 for a leaf, parent -1 at the root.
type kdNode struct {
	minX, minY, maxX, maxY float64
	lo, hi                 int32 // the node's points are pts[lo:hi]
	right, parent          int32
	minID                  int32
}

// kdLeaf bounds a leaf's points: a short scan beats more nodes (docs/DECISIONS.md#kd-leaf).
const kdLeaf = 8

// kdParallelAbove is the subtree size above which halves build concurrently.
const kdParallelAbove = 1 << 15

// kdNodes returns the number of nodes of a tree of m points.
func kdNodes(m int) int {
	if m <= kdLeaf {
		return 1
	}
	return 1 + kdNodes(m/2) + kdNodes(m-m/2)
}

// newKDTree builds a k-d tree over in's coordinates (of subset when given).
func newKDTree(in *problem.Instance, subset ...int32) *kdTree {
	m := in.N
	if subset != nil {
		m = len(subset)
	}
	t := &kdTree{pts: make([]kdPoint, m)}
	for i := range t.pts {
		c := int32(i)
		if subset != nil {
			c = subset[i]
		}
		t.pts[i] = kdPoint{x: in.X[c], y: in.Y[c], id: c}
	}
	if m == 0 {
		return t
	}
	t.nodes = make([]kdNode, kdNodes(m))
	t.nodes[0].parent = -1
	var wg sync.WaitGroup
	t.build(0, 0, m, &wg)
	wg.Wait()
	t.leaves = make([]int32, 0, (m+kdLeaf-1)/kdLeaf*2)
	for i := range t.nodes {
		if t.nodes[i].right == 0 {
			t.leaves = append(t.leaves, int32(i))
		}
	}
	return t
}

// build makes node ni over pts[lo:hi] and its subtree.
func (t *kdTree) build(ni, lo, hi int, wg *sync.WaitGroup) {
	for {
		nd := &t.nodes[ni]
		p := t.pts[lo:hi]
		nd.lo, nd.hi = int32(lo), int32(hi)
		nd.minX, nd.minY, nd.maxX, nd.maxY = p[0].x, p[0].y, p[0].x, p[0].y
		nd.minID = p[0].id
		for _, q := range p[1:] {
			nd.minX, nd.maxX = min(nd.minX, q.x), max(nd.maxX, q.x)
			nd.minY, nd.maxY = min(nd.minY, q.y), max(nd.maxY, q.y)
			nd.minID = min(nd.minID, q.id)
		}
		if hi-lo <= kdLeaf {
			return
		}
		byY := nd.maxY-nd.minY > nd.maxX-nd.minX
		mid := (hi - lo) / 2
		kdSelect(p, mid, byY)
		right := ni + 1 + kdNodes(mid)
		nd.right = int32(right)
		t.nodes[ni+1].parent, t.nodes[right].parent = int32(ni), int32(ni)
		if rlo, rhi := lo+mid, hi; rhi-lo > kdParallelAbove {
			wg.Go(func() { t.build(right, rlo, rhi, wg) })
		} else {
			t.build(right, rlo, rhi, wg)
		}
		ni, hi = ni+1, lo+mid
	}
}

// kdLess orders points by x (byY: y), then the other coordinate, then index: a total order.
func kdLess(a, b *kdPoint, byY bool) bool {
	va, vb, wa, wb := a.x, b.x, a.y, b.y
	if byY {
		va, vb, wa, wb = wa, wb, va, vb
	}
	if va != vb {
		return va < vb
	}
	if wa != wb {
		return wa < wb
	}
	return a.id < b.id
}

// kdSelect puts p's m-th point at m by quickselect, sorting after 2·log₂(len(p)) rounds (no quadratic input).
func kdSelect(p []kdPoint, m int, byY bool) {
	lo, hi := 0, len(p)-1
	for rounds := 2 * bits.Len(uint(len(p))); hi > lo; rounds-- {
		if hi-lo < 12 || rounds == 0 {
			q := p[lo : hi+1]
			slices.SortFunc(q, func(a, b kdPoint) int {
				switch {
				case a.id == b.id:
					return 0
				case kdLess(&a, &b, byY):
					return -1
				}
				return 1
			})
			return
		}
		mid := lo + (hi-lo)/2
		if kdLess(&p[mid], &p[lo], byY) {
			p[mid], p[lo] = p[lo], p[mid]
		}
		if kdLess(&p[hi], &p[lo], byY) {
			p[hi], p[lo] = p[lo], p[hi]
		}
		if kdLess(&p[mid], &p[hi], byY) {
			p[mid], p[hi] = p[hi], p[mid]
		}
		piv := p[hi] // the median of the three
		i := lo
		for j := lo; j < hi; j++ {
			if kdLess(&p[j], &piv, byY) {
				p[i], p[j] = p[j], p[i]
				i++
			}
		}
		p[i], p[hi] = p[hi], p[i]
		switch {
		case i == m:
			return
		case m < i:
			hi = i - 1
		default:
			lo = i + 1
		}
	}
}

// boxDist2 returns the squared distance from (x, y) to node nd's box.
func (nd *kdNode) boxDist2(x, y float64) float64 {
	dx := max(nd.minX-x, 0, x-nd.maxX)
	dy := max(nd.minY-y, 0, y-nd.maxY)
	return dx*dx + dy*dy
}

// kdVisit is a stacked node with its box's squared distance.
type kdVisit struct {
	n  int32
	d2 float64
}

// inside returns the squared distance from (x, y) to nd's box's nearest side, within which nd's subtree is nearest.
func (nd *kdNode) inside(x, y float64) float64 {
	m := min(x-nd.minX, nd.maxX-x, y-nd.minY, nd.maxY-y)
	return m * m
}

// kdKeeper is what a search keeps (as gonum's kdtree.Keeper).
type kdKeeper interface {
	// skips reports whether nothing in nd, d2 from (x, y), can be kept.
	skips(nd *kdNode, x, y, d2 float64) bool
	// keepAll offers the points of pts but self.
	keepAll(pts []kdPoint, x, y float64, self int32)
	// radius2 is the squared distance beyond which nothing more is kept.
	radius2() float64
}

var _, _ kdKeeper = (*sortedKeep)(nil), (*quadKeeper)(nil)

// searchFrom offers k the points near (x, y) but self, from leaf up until k's radius lies inside the box searched.
func (t *kdTree) searchFrom(leaf int32, x, y float64, self int32, k kdKeeper, stack []kdVisit) []kdVisit {
	nd := &t.nodes[leaf]
	k.keepAll(t.pts[nd.lo:nd.hi], x, y, self)
	for c, a := leaf, nd.parent; a >= 0; c, a = a, t.nodes[a].parent {
		if t.nodes[c].inside(x, y) > k.radius2() {
			break
		}
		s := a + 1 // c's sibling
		if s == c {
			s = t.nodes[a].right
		}
		stack = t.search(s, t.nodes[s].boxDist2(x, y), x, y, self, k, stack)
	}
	return stack
}

// search offers k every point under root but self, pruning by boxes.
func (t *kdTree) search(root int32, d2, x, y float64, self int32, k kdKeeper, stack []kdVisit) []kdVisit {
	stack = append(stack[:0], kdVisit{root, d2})
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n, d2 := v.n, v.d2
		for {
			nd := &t.nodes[n]
			if k.skips(nd, x, y, d2) {
				break
			}
			if nd.right == 0 {
				k.keepAll(t.pts[nd.lo:nd.hi], x, y, self)
				break
			}
			l, r := n+1, nd.right
			dl, dr := t.nodes[l].boxDist2(x, y), t.nodes[r].boxDist2(x, y)
			if dr < dl {
				l, r, dl, dr = r, l, dr, dl
			}
			stack = append(stack, kdVisit{r, dr})
			n, d2 = l, dl
		}
	}
	return stack
}

// quadKeeper keeps a query's nearest points in each quadrant and overall.
type quadKeeper struct {
	h   [4]sortedKeep
	all sortedKeep // the nearest of any quadrant, to fill up with
	// closed: each quadrant holds its edges, so that a point on an axis
	// lies in two (Closed)
	closed bool
}

// skips asks only the quadrants nd's box meets.
func (k *quadKeeper) skips(nd *kdNode, x, y, d2 float64) bool {
	if !k.all.excludes(d2, nd.minID) {
		return false
	}
	for quad := range k.h {
		right := quad&1 == 0 // dx >= 0
		up := quad&2 == 0    // dy >= 0
		if (right && nd.maxX < x) || (!right && nd.minX > x) || (up && nd.maxY < y) || (!up && nd.minY > y) ||
			!k.closed && ((!right && nd.minX == x) || (!up && nd.minY == y)) {
			continue // the box misses this quadrant
		}
		if !k.h[quad].excludes(d2, nd.minID) {
			return false
		}
	}
	return true
}

func (k *quadKeeper) keepAll(pts []kdPoint, x, y float64, self int32) {
	for _, p := range pts {
		if p.id != self {
			dx, dy := p.x-x, p.y-y
			d2 := dx*dx + dy*dy
			if !k.all.excludes(d2, p.id) {
				k.all.insert(d2, p.id)
			}
			q := quadrant(dx, dy)
			if h := &k.h[q]; !h.excludes(d2, p.id) {
				h.insert(d2, p.id)
			}
			if k.closed && (dx == 0 || dy == 0) {
				k.onAxes(q, dx, dy, d2, p.id)
			}
		}
	}
}

// onAxes keeps a point on an axis in the closed quadrants besides q, its
// half-open one, that hold it too.
func (k *quadKeeper) onAxes(q int, dx, dy, d2 float64, id int32) {
	for o := range k.h {
		if o != q && (dx == 0 || o&1 == q&1) && (dy == 0 || o&2 == q&2) && !k.h[o].excludes(d2, id) {
			k.h[o].insert(d2, id)
		}
	}
}

func (k *quadKeeper) radius2() float64 {
	r := k.all.radius2()
	for q := range k.h {
		r = max(r, k.h[q].radius2())
	}
	return r
}

// sortedKeep keeps the nearest points offered in a sorted slice, cheaper than a heap here.
type sortedKeep struct {
	d   []float64
	id  []int32
	max int
}

func newSortedKeep(capacity int) sortedKeep {
	return sortedKeep{d: make([]float64, 0, capacity), id: make([]int32, 0, capacity), max: capacity}
}

func (h *sortedKeep) reset() { h.d, h.id = h.d[:0], h.id[:0] }

// radius2 returns the squared distance beyond which h keeps nothing (+Inf until full).
func (h *sortedKeep) radius2() float64 {
	n := len(h.d)
	switch {
	case n < h.max:
		return math.Inf(1)
	case n == 0:
		return math.Inf(-1)
	}
	return h.d[n-1]
}

// excludes reports whether h is full and (d2, id) comes after its last.
func (h *sortedKeep) excludes(d2 float64, id int32) bool {
	n := len(h.d)
	if n < h.max {
		return false
	}
	return n == 0 || d2 > h.d[n-1] || (d2 == h.d[n-1] && id > h.id[n-1])
}

func (h *sortedKeep) skips(nd *kdNode, _, _, d2 float64) bool { return h.excludes(d2, nd.minID) }

func (h *sortedKeep) keepAll(pts []kdPoint, x, y float64, self int32) {
	for _, p := range pts {
		if p.id != self {
			dx, dy := p.x-x, p.y-y
			if d2 := dx*dx + dy*dy; !h.excludes(d2, p.id) {
				h.insert(d2, p.id)
			}
		}
	}
}

// insert adds point id at d2, which h does not exclude.
func (h *sortedKeep) insert(d2 float64, id int32) {
	n := len(h.d)
	if n < h.max {
		h.d, h.id = append(h.d, 0), append(h.id, 0)
		n++
	}
	// Shift the later points up, dropping the last when full, and insert (d2, id).
	j := n - 1
	for j > 0 && (h.d[j-1] > d2 || (h.d[j-1] == d2 && h.id[j-1] > id)) {
		h.d[j], h.id[j] = h.d[j-1], h.id[j-1]
		j--
	}
	h.d[j], h.id[j] = d2, id
}

// quadrant numbers the four quadrants of (dx, dy) 0..3.
func quadrant(dx, dy float64) int {
	q := 0
	if dx < 0 {
		q |= 1
	}
	if dy < 0 {
		q |= 2
	}
	return q
}
