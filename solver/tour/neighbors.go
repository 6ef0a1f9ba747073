package tour

import (
	"cmp"
	"runtime"
	"slices"
	"sync"

	"gonum.org/v1/gonum/spatial/kdtree"

	"github.com/tsplab/tsplab/solver"
)

// Neighbors holds K candidate neighbours for every city, row-major: the
// candidates of city i are List[i*K : (i+1)*K], ascending by the exact
// TSPLIB distance in.Dist(i, ·) (ties by city index), never i itself.
type Neighbors struct {
	K    int
	List []int32
}

// Of returns the K candidates of city i, nearest first. The slice aliases
// nb.List: do not modify it.
func (nb *Neighbors) Of(i int) []int32 { return nb.List[i*nb.K : (i+1)*nb.K : (i+1)*nb.K] }

// N returns the number of cities the lists cover.
func (nb *Neighbors) N() int {
	if nb.K == 0 {
		return 0
	}
	return len(nb.List) / nb.K
}

// Contains reports whether j is among the candidates of i.
func (nb *Neighbors) Contains(i, j int) bool {
	for _, c := range nb.Of(i) {
		if int(c) == j {
			return true
		}
	}
	return false
}

// euclidLike reports whether the instance's distance is a non-decreasing
// function of the Euclidean distance between 2-D coordinates (EUC_2D,
// CEIL_2D, ATT), so that geometric searches over the plane find the
// exact-metric nearest cities.
func euclidLike(in *solver.Instance) bool {
	switch in.Metric {
	case solver.Euc2D, solver.Ceil2D, solver.Att:
		return len(in.X) == in.N && len(in.Y) == in.N && in.N > 0
	}
	return false
}

// NearestNeighbors returns the k nearest cities of every city (k is
// clipped to n-1; k < 0 counts as 0). For the 2-D Euclidean-like metrics
// (EUC_2D, CEIL_2D, ATT) candidates come from a k-d tree
// (gonum.org/v1/gonum/spatial/kdtree) over the coordinates and are then
// sorted by the exact metric; every other instance (EXPLICIT, GEO, 3-D,
// MAN_2D, MAX_2D) is searched by brute force in O(n²). Both run on all
// cores.
func NearestNeighbors(in *solver.Instance, k int) *Neighbors {
	n := in.N
	k = min(max(k, 0), max(n-1, 0))
	nb := &Neighbors{K: k, List: make([]int32, n*k)}
	if k == 0 {
		return nb
	}
	if euclidLike(in) {
		tree, _ := newKDTree(in)
		parallelFor(n, func(lo, hi int) {
			cand := make([]int32, 0, k+1)
			for i := lo; i < hi; i++ {
				keep := kdtree.NewNKeeper(k + 1)
				tree.NearestSet(keep, &kdPoint{x: in.X[i], y: in.Y[i], id: int32(i)})
				cand = cand[:0]
				for _, c := range keep.Heap {
					if id := c.Comparable.(*kdPoint).id; int(id) != i {
						cand = append(cand, id)
					}
				}
				sortByDist(in, i, cand)
				copy(nb.List[i*k:(i+1)*k], cand[:k])
			}
		})
		return nb
	}
	parallelFor(n, func(lo, hi int) {
		h := make(distHeap, 0, k)
		for i := lo; i < hi; i++ {
			h = h[:0]
			for j := 0; j < n; j++ {
				if j != i {
					h.offer(in.Dist(i, j), int32(j), k)
				}
			}
			row := nb.List[i*k : (i+1)*k]
			for x, e := range h {
				row[x] = e.id
			}
			sortByDist(in, i, row)
		}
	})
	return nb
}

// QuadrantNeighbors returns k candidates per city: the k/4 nearest in each
// of the four quadrants around the city (dx ≥ 0 or < 0 times dy ≥ 0 or
// < 0; coincident cities count as the first quadrant), filled up to k with
// the nearest cities not yet chosen, sorted by the exact metric. Quadrant
// candidates help on clustered instances, where plain nearest neighbours
// never leave a cluster (Johnson & McGeoch 1997, section 3.3). For
// instances without 2-D Euclidean-like coordinates it equals
// NearestNeighbors.
func QuadrantNeighbors(in *solver.Instance, k int) *Neighbors {
	n := in.N
	k = min(max(k, 0), max(n-1, 0))
	if !euclidLike(in) || k < 4 {
		return NearestNeighbors(in, k)
	}
	near := NearestNeighbors(in, k)
	tree, _ := newKDTree(in)
	per := k / 4
	nb := &Neighbors{K: k, List: make([]int32, n*k)}
	parallelFor(n, func(lo, hi int) {
		chosen := make([]int32, 0, k)
		for i := lo; i < hi; i++ {
			chosen = chosen[:0]
			q := &kdPoint{x: in.X[i], y: in.Y[i], id: int32(i)}
			for quad := range 4 {
				keep := &quadKeeper{NKeeper: kdtree.NewNKeeper(per), center: q, quad: quad}
				tree.NearestSet(keep, q)
				for _, c := range keep.Heap {
					if c.Comparable != nil {
						chosen = append(chosen, c.Comparable.(*kdPoint).id)
					}
				}
			}
			for _, c := range near.Of(i) {
				if len(chosen) == k {
					break
				}
				if !slices.Contains(chosen, c) {
					chosen = append(chosen, c)
				}
			}
			sortByDist(in, i, chosen)
			copy(nb.List[i*k:(i+1)*k], chosen)
		}
	})
	return nb
}

// sortByDist sorts cities ascending by their exact distance from i, ties
// by index.
func sortByDist(in *solver.Instance, i int, cs []int32) {
	slices.SortFunc(cs, func(a, b int32) int {
		if c := cmp.Compare(in.Dist(i, int(a)), in.Dist(i, int(b))); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
}

// parallelFor runs fn over [0,n) split into contiguous chunks, one
// goroutine per core.
func parallelFor(n int, fn func(lo, hi int)) {
	w := min(runtime.GOMAXPROCS(0), n)
	if w <= 1 || n < 256 {
		fn(0, n)
		return
	}
	// Chunks smaller than n/w balance uneven work (clustered instances).
	chunk := max(64, n/(w*8))
	var next int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range w {
		wg.Go(func() {
			for {
				mu.Lock()
				lo := next
				next += chunk
				mu.Unlock()
				if lo >= n {
					return
				}
				fn(lo, min(lo+chunk, n))
			}
		})
	}
	wg.Wait()
}

// distHeap is a bounded max-heap of (distance, city), used to keep the k
// smallest while scanning.
type distHeap []distEntry

type distEntry struct {
	d  int64
	id int32
}

func (h distEntry) less(o distEntry) bool { // "further than" in heap order
	return h.d > o.d || (h.d == o.d && h.id > o.id)
}

// offer adds (d, id) if the heap holds fewer than k entries or id is
// nearer than the furthest kept.
func (h *distHeap) offer(d int64, id int32, k int) {
	e := distEntry{d, id}
	s := *h
	if len(s) < k {
		s = append(s, e)
		for c := len(s) - 1; c > 0; {
			p := (c - 1) / 2
			if !s[c].less(s[p]) {
				break
			}
			s[c], s[p] = s[p], s[c]
			c = p
		}
		*h = s
		return
	}
	if !s[0].less(e) {
		return
	}
	s[0] = e
	for p := 0; ; {
		c := 2*p + 1
		if c >= len(s) {
			break
		}
		if c+1 < len(s) && s[c+1].less(s[c]) {
			c++
		}
		if !s[c].less(s[p]) {
			break
		}
		s[c], s[p] = s[p], s[c]
		p = c
	}
}

// kdPoint is a city in the k-d tree.
type kdPoint struct {
	x, y float64
	id   int32
}

var (
	_ kdtree.Comparable = (*kdPoint)(nil)
	_ kdtree.Interface  = kdPoints(nil)
	_ kdtree.Keeper     = (*quadKeeper)(nil)
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
func (p kdPoints) Pivot(d kdtree.Dim) int {
	return kdtree.Partition(kdPlane{p, d}, kdtree.MedianOfRandoms(kdPlane{p, d}, 100))
}

// kdPlane sorts kdPoints along one dimension.
type kdPlane struct {
	p kdPoints
	d kdtree.Dim
}

func (p kdPlane) Len() int { return len(p.p) }
func (p kdPlane) Less(i, j int) bool {
	if p.d == 0 {
		return p.p[i].x < p.p[j].x
	}
	return p.p[i].y < p.p[j].y
}
func (p kdPlane) Swap(i, j int)                          { p.p[i], p.p[j] = p.p[j], p.p[i] }
func (p kdPlane) Slice(start, end int) kdtree.SortSlicer { return kdPlane{p.p[start:end], p.d} }

// newKDTree builds a k-d tree over the instance's 2-D coordinates.
func newKDTree(in *solver.Instance) (*kdtree.Tree, kdPoints) {
	pts := make(kdPoints, in.N)
	backing := make([]kdPoint, in.N)
	for i := range pts {
		backing[i] = kdPoint{x: in.X[i], y: in.Y[i], id: int32(i)}
		pts[i] = &backing[i]
	}
	return kdtree.New(slices.Clone(pts), false), pts
}

// quadKeeper keeps only the points of one quadrant around center.
type quadKeeper struct {
	*kdtree.NKeeper
	center *kdPoint
	quad   int
}

// Keep implements kdtree.Keeper.
func (k *quadKeeper) Keep(c kdtree.ComparableDist) {
	p := c.Comparable.(*kdPoint)
	if p.id == k.center.id || quadrant(p.x-k.center.x, p.y-k.center.y) != k.quad {
		return
	}
	k.NKeeper.Keep(c)
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
