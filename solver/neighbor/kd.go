package neighbor

import (
	"math"

	"gonum.org/v1/gonum/spatial/kdtree"

	"github.com/tsplab/tsplab/solver"
)

// The k-d tree is gonum's (spatial/kdtree, built with kdtree.New); the
// searches below walk its exported nodes with typed keepers instead of
// NearestSet, which boxes every candidate into an interface: at 100 000
// cities that is most of the time.

// kdPoint is a city in the k-d tree.
type kdPoint struct {
	x, y float64
	id   int32
}

var (
	_ kdtree.Comparable = (*kdPoint)(nil)
	_ kdtree.Interface  = kdPoints(nil)
	_ keeper            = (*floatHeap)(nil)
	_ keeper            = (*quadKeeper)(nil)
)

// Compare implements kdtree.Comparable.
func (p *kdPoint) Compare(c kdtree.Comparable, d kdtree.Dim) float64 {
	q := c.(*kdPoint)
	if d == 0 {
		return p.x - q.x
	}
	return p.y - q.y
}

// Dims implements kdtree.Comparable.
func (p *kdPoint) Dims() int { return 2 }

// Distance implements kdtree.Comparable: the squared Euclidean distance.
func (p *kdPoint) Distance(c kdtree.Comparable) float64 {
	q := c.(*kdPoint)
	dx, dy := p.x-q.x, p.y-q.y
	return dx*dx + dy*dy
}

// kdPoints is the list the tree is built from.
type kdPoints []*kdPoint

func (p kdPoints) Index(i int) kdtree.Comparable         { return p[i] }
func (p kdPoints) Len() int                              { return len(p) }
func (p kdPoints) Slice(start, end int) kdtree.Interface { return p[start:end] }

// Pivot implements kdtree.Interface: it moves the median of p along d,
// in kdPlane's total order, to the middle, the lesser points before it
// and the greater after, and returns its index. The median of a set is
// unique in a total order, so the tree is a function of the cities
// alone: however the selection runs, every build gives the same tree
// (gonum's MedianOfRandoms, used before, draws from math/rand and gave a
// different tree on every build).
func (p kdPoints) Pivot(d kdtree.Dim) int {
	m := len(p) / 2
	selectNth(kdPlane{p, d}, m)
	return m
}

// selectNth reorders p so that its m-th point in kdPlane's order is at m,
// the lesser before it and the greater after (Hoare's quickselect). The
// partition pivots come from a splitmix64 sequence with a fixed start:
// expected linear time on sorted or patterned inputs, and the same steps
// on every build.
func selectNth(p kdPlane, m int) {
	lo, hi := 0, len(p.p)
	state := uint64(hi)
	for hi-lo > 1 {
		state += 0x9e3779b97f4a7c15
		z := state
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		z ^= z >> 31
		at := lo + kdtree.Partition(kdPlane{p.p[lo:hi], p.d}, int(z%uint64(hi-lo)))
		switch {
		case at == m:
			return
		case m < at:
			hi = at
		default:
			lo = at + 1
		}
	}
}

// kdPlane sorts kdPoints along one dimension.
type kdPlane struct {
	p kdPoints
	d kdtree.Dim
}

func (p kdPlane) Len() int { return len(p.p) }

// Less orders by the plane's coordinate, ties by the other coordinate
// and then by city index. The total order keeps the tree balanced when
// many cities share a coordinate, and on collinear cities it makes the
// degenerate plane split along the line, so that node boxes still
// separate (searches prune by boxes, see searchKD).
func (p kdPlane) Less(i, j int) bool {
	a, b := p.p[i], p.p[j]
	va, vb, wa, wb := a.x, b.x, a.y, b.y
	if p.d != 0 {
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

func (p kdPlane) Swap(i, j int)                          { p.p[i], p.p[j] = p.p[j], p.p[i] }
func (p kdPlane) Slice(start, end int) kdtree.SortSlicer { return kdPlane{p.p[start:end], p.d} }

// Bounds implements kdtree.Bounder: the bounding box of the points. The
// box's Min also carries the smallest city index inside, so that a search
// that breaks distance ties by index can skip a box whose points all tie
// with the farthest kept but come after it (cities sharing a point).
func (p kdPoints) Bounds() *kdtree.Bounding {
	if len(p) == 0 {
		return nil
	}
	lo, hi := *p[0], *p[0]
	for _, q := range p[1:] {
		lo.x, lo.y = min(lo.x, q.x), min(lo.y, q.y)
		hi.x, hi.y = max(hi.x, q.x), max(hi.y, q.y)
		lo.id = min(lo.id, q.id)
	}
	return &kdtree.Bounding{Min: &lo, Max: &hi}
}

// newKDTree builds a k-d tree over the instance's 2-D coordinates, of
// all cities or only of those listed in subset, with a bounding box in
// every node, which lets searches skip whole subtrees (see keeper.skip).
func newKDTree(in *solver.Instance, subset ...int32) *kdtree.Tree {
	return buildKDTree(in, true, subset)
}

func buildKDTree(in *solver.Instance, bounding bool, subset []int32) *kdtree.Tree {
	m := in.N
	if subset != nil {
		m = len(subset)
	}
	backing := make([]kdPoint, m)
	pts := make(kdPoints, m)
	for i := range pts {
		c := int32(i)
		if subset != nil {
			c = subset[i]
		}
		backing[i] = kdPoint{x: in.X[c], y: in.Y[c], id: c}
		pts[i] = &backing[i]
	}
	return kdtree.New(pts, bounding)
}

// keeper collects the points a k-d search offers. Keepers order points
// by squared distance from the query, ties by city index, so that what a
// search keeps is the same whatever the tree's shape or the order of the
// visit.
type keeper interface {
	// keep offers p at squared distance d2 from the query.
	keep(p *kdPoint, d2 float64)
	// bound is the squared distance beyond which nothing more is kept;
	// a point at exactly bound may still be kept if its index is small.
	bound() float64
	// skip reports whether nothing inside box b can be kept; c2 is the
	// squared distance from q to the splitting plane before b (-1 when b
	// is on the near side).
	skip(q *kdPoint, b *kdtree.Bounding, c2 float64) bool
}

// boxDist2 returns the squared distance from q to the box b.
func boxDist2(q *kdPoint, b *kdtree.Bounding) float64 {
	lo, hi := b.Min.(*kdPoint), b.Max.(*kdPoint)
	dx := max(lo.x-q.x, 0, q.x-hi.x)
	dy := max(lo.y-q.y, 0, q.y-hi.y)
	return dx*dx + dy*dy
}

// searchKD offers k every point of the subtree at n that may lie within
// k's bound of q, nearer side first. c2 is the squared distance from q
// to the parent's splitting plane when n is on the far side of it, -1
// otherwise; k.skip decides from it whether to read n's box.
func searchKD(n *kdtree.Node, q *kdPoint, k keeper, c2 float64) {
	for n != nil {
		if n.Bounding != nil && k.skip(q, n.Bounding, c2) {
			return
		}
		p := n.Point.(*kdPoint)
		dx, dy := p.x-q.x, p.y-q.y
		k.keep(p, dx*dx+dy*dy)
		c, tie := q.x-p.x, q.y-p.y
		if n.Plane != 0 {
			c, tie = tie, c
		}
		// On a tie the tree is split by the other coordinate (see
		// kdPlane.Less): follow it to the nearer side. Cities on q's
		// point are split by index: the lower indices, left, come first.
		near, far := n.Left, n.Right
		if c > 0 || (c == 0 && tie > 0) {
			near, far = far, near
		}
		searchKD(near, q, k, -1)
		// The far side lies beyond the splitting plane. A point exactly
		// at the bound may still win its tie by index, so only a plane
		// strictly beyond it ends the search; when the plane is at the
		// bound, degenerate (c == 0 for cities sharing a coordinate) or a
		// quadrant is still empty, the box may still rule the side out.
		if c*c > k.bound() {
			return
		}
		n, c2 = far, c*c
	}
}

// floatHeap keeps the cap nearest points offered, ties by city index: a
// max-heap on (squared distance, index). It is written out rather than
// built on container/heap: this is the inner loop of every k-d search,
// and the interface calls of heap.Fix made QuadrantNeighbors on 100 000
// cities about 15 % slower (BenchmarkQuadrantNeighbors100k, minimum of 3).
type floatHeap struct {
	d   []float64
	id  []int32
	max int
}

func newFloatHeap(capacity int) *floatHeap {
	return &floatHeap{d: make([]float64, 0, capacity), id: make([]int32, 0, capacity), max: capacity}
}

func (h *floatHeap) reset() { h.d, h.id = h.d[:0], h.id[:0] }

func (h *floatHeap) bound() float64 {
	if len(h.d) < h.max {
		return math.Inf(1)
	}
	if h.max == 0 {
		return -1
	}
	return h.d[0]
}

// above reports whether entry i comes after entry j: farther, or as far
// with a larger index.
func (h *floatHeap) above(i, j int) bool {
	return h.d[i] > h.d[j] || (h.d[i] == h.d[j] && h.id[i] > h.id[j])
}

// excludes reports whether the heap is full and every point at squared
// distance at least d2 with index at least id comes after all it keeps.
func (h *floatHeap) excludes(d2 float64, id int32) bool {
	if len(h.d) < h.max {
		return false
	}
	return h.max == 0 || d2 > h.d[0] || (d2 == h.d[0] && id > h.id[0])
}

// skip looks at the box only on the far side of a plane that gave
// nothing (c2 == 0, a coordinate shared with the query) or lies at the
// bound: reading boxes costs more than it saves otherwise.
func (h *floatHeap) skip(q *kdPoint, b *kdtree.Bounding, c2 float64) bool {
	if c2 < 0 || len(h.d) < h.max || (c2 != 0 && c2 < h.d[0]) {
		return false
	}
	return h.excludes(boxDist2(q, b), b.Min.(*kdPoint).id)
}

func (h *floatHeap) keep(p *kdPoint, d2 float64) {
	if len(h.d) < h.max {
		h.d = append(h.d, d2)
		h.id = append(h.id, p.id)
		for c := len(h.d) - 1; c > 0; {
			par := (c - 1) / 2
			if !h.above(c, par) {
				break
			}
			h.swap(c, par)
			c = par
		}
		return
	}
	if h.excludes(d2, p.id) {
		return
	}
	h.d[0], h.id[0] = d2, p.id
	for par := 0; ; {
		c := 2*par + 1
		if c >= len(h.d) {
			break
		}
		if c+1 < len(h.d) && h.above(c+1, c) {
			c++
		}
		if !h.above(c, par) {
			break
		}
		h.swap(c, par)
		par = c
	}
}

func (h *floatHeap) swap(i, j int) {
	h.d[i], h.d[j] = h.d[j], h.d[i]
	h.id[i], h.id[j] = h.id[j], h.id[i]
}

// quadKeeper keeps the nearest points of each quadrant around center,
// and the nearest of all (the center itself excluded), in one search.
type quadKeeper struct {
	center *kdPoint
	h      [4]*floatHeap
	all    *floatHeap // the nearest of any quadrant, to fill up with
}

func (k *quadKeeper) keep(p *kdPoint, d2 float64) {
	if p.id == k.center.id {
		return
	}
	k.all.keep(p, d2)
	k.h[quadrant(p.x-k.center.x, p.y-k.center.y)].keep(p, d2)
}

// skip reports whether box b lies, for every quadrant it meets, beyond
// that quadrant's bound. This keeps searches short when a quadrant is
// empty (a city on the hull, collinear cities), where bound stays
// infinite.
func (k *quadKeeper) skip(q *kdPoint, b *kdtree.Bounding, c2 float64) bool {
	if c2 < 0 {
		return false // near side: reading every box costs more than it saves
	}
	lo, hi := b.Min.(*kdPoint), b.Max.(*kdPoint)
	d2 := boxDist2(q, b)
	if !k.all.excludes(d2, lo.id) {
		return false
	}
	for quad, h := range k.h {
		right := quad&1 == 0 // dx >= 0
		up := quad&2 == 0    // dy >= 0
		if (right && hi.x < q.x) || (!right && lo.x >= q.x) || (up && hi.y < q.y) || (!up && lo.y >= q.y) {
			continue // the box misses this quadrant
		}
		if !h.excludes(d2, lo.id) {
			return false
		}
	}
	return true
}

func (k *quadKeeper) bound() float64 {
	b := k.all.bound()
	for _, h := range k.h {
		b = max(b, h.bound())
	}
	return b
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
