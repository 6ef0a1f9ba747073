package neighbor

import (
	"container/heap"
	"context"
	"slices"

	"github.com/tsplab/tsplab/solver/internal/parallel"
	"github.com/tsplab/tsplab/solver/problem"
)

// Lists holds K candidates a city, city i's at List[i*K : (i+1)*K], nearest first.
type Lists struct {
	K    int
	List []int32
	// Ranked is set when the rows are in the order of another rank than distance (alpha-nearness), so that a scan for
	// a gain passes a candidate too far rather than ending at it.
	Ranked bool
}

// Of returns city i's K candidates, nearest first unless Ranked (aliasing nb.List).
func (nb *Lists) Of(i int) []int32 { return nb.List[i*nb.K : (i+1)*nb.K : (i+1)*nb.K] }

// N returns the number of cities the lists cover.
func (nb *Lists) N() int {
	if nb.K == 0 {
		return 0
	}
	return len(nb.List) / nb.K
}

// Contains reports whether j is among the candidates of i.
func (nb *Lists) Contains(i, j int) bool {
	return slices.Contains(nb.Of(i), int32(j))
}

// EuclidLike reports whether the metric grows with the plane's distance (EUC_2D, CEIL_2D, ATT).
func EuclidLike(in *problem.Instance) bool {
	switch in.Metric {
	case problem.Euc2D, problem.Ceil2D, problem.Att:
		return len(in.X) == in.N && len(in.Y) == in.N && in.N > 0
	}
	return false
}

// Nearest returns every city's k nearest (k clipped to 0..n-1), by k-d tree for EUC_2D, CEIL_2D and ATT, else O(n²),
// sorted by the exact metric, ties by index.
func Nearest(in *problem.Instance, k int) *Lists {
	nb, _ := NearestContext(context.Background(), in, k)
	return nb
}

// NearestContext is Nearest giving up with ctx's error when ctx ends.
func NearestContext(ctx context.Context, in *problem.Instance, k int) (*Lists, error) {
	n := in.N
	k = min(max(k, 0), max(n-1, 0))
	nb := &Lists{K: k, List: make([]int32, n*k)}
	if k == 0 {
		return nb, nil
	}
	if in.Metric == problem.GreatCircle && in.HasCoords() && n > sphereBrute {
		return sphereNearest(ctx, in, k)
	}
	if EuclidLike(in) {
		tree, err := Await(ctx, func() *kdTree { return newKDTree(in) })
		if err != nil {
			return nil, err
		}
		// Leaf by leaf: a goroutine's queries stay in one region of memory.
		err = parallel.ForContext(ctx, len(tree.leaves), func(lo, hi int) {
			keep := newSortedKeep(k)
			var stack []kdVisit
			var buf []distEntry
			for _, leaf := range tree.leaves[lo:hi] {
				nd := &tree.nodes[leaf]
				for _, p := range tree.pts[nd.lo:nd.hi] {
					keep.reset()
					stack = tree.searchFrom(leaf, p.x, p.y, p.id, &keep, stack)
					row := nb.List[int(p.id)*k : (int(p.id)+1)*k]
					copy(row, keep.id)
					buf = sortByDistBuf(in, int(p.id), row, buf)
				}
			}
		})
		if err != nil {
			return nil, err
		}
		return nb, nil
	}
	err := parallel.ForContext(ctx, n, func(lo, hi int) {
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
	if err != nil {
		return nil, err
	}
	return nb, nil
}

// Quadrant returns k candidates per city, the k/4 nearest in each quadrant filled up with the nearest, which leave
// clusters (Johnson & McGeoch 1997, 3.3); without 2-D coordinates, Nearest.
func Quadrant(in *problem.Instance, k int) *Lists {
	nb, _ := QuadrantContext(context.Background(), in, k)
	return nb
}

// QuadrantContext is Quadrant giving up with ctx's error when ctx ends.
func QuadrantContext(ctx context.Context, in *problem.Instance, k int) (*Lists, error) {
	quad, _, err := quadrantRows(ctx, in, k, false, false)
	return quad, err
}

// Closed returns, for chained Lin–Kernighan, the per nearest cities in each closed quadrant (its edges in it, so that
// a city on an axis counts in two quadrants), without filling up: a row of K = 4·per holds its distinct cities nearest
// first, its last repeated. On a grid-like instance (pla85900) the rows hold half as many cities as Quadrant's, as
// Concorde's linkern takes them; without 2-D coordinates, Nearest(in, 4·per).
func Closed(ctx context.Context, in *problem.Instance, per int) (*Lists, error) {
	quad, _, err := quadrantRows(ctx, in, 4*per, false, true)
	return quad, err
}

// NearestQuadrantContext returns both lists of (in, k) from one search.
func NearestQuadrantContext(ctx context.Context, in *problem.Instance, k int) (nearest, quad *Lists, err error) {
	quad, nearest, err = quadrantRows(ctx, in, k, true, false)
	if err != nil {
		return nil, nil, err
	}
	if nearest == nil { // Quadrant is Nearest here
		nearest = &Lists{K: quad.K, List: slices.Clone(quad.List)}
	}
	return nearest, quad, nil
}

// quadrantRows returns the quadrant lists (closed: Closed's) and, with withNearest where possible, the nearest ones.
func quadrantRows(ctx context.Context, in *problem.Instance, k int, withNearest, closed bool) (quad, near *Lists, err error) {
	n := in.N
	k = min(max(k, 0), max(n-1, 0))
	if !EuclidLike(in) || k < 4 {
		quad, err = NearestContext(ctx, in, k)
		return quad, nil, err
	}
	tree, err := Await(ctx, func() *kdTree { return newKDTree(in) })
	if err != nil {
		return nil, nil, err
	}
	quad = &Lists{K: k, List: make([]int32, n*k)}
	if withNearest {
		near = &Lists{K: k, List: make([]int32, n*k)}
	}
	err = parallel.ForContext(ctx, len(tree.leaves), func(lo, hi int) {
		w := newQuadRows(in, tree, k, quad, near)
		w.keep.closed = closed
		for _, leaf := range tree.leaves[lo:hi] {
			nd := &tree.nodes[leaf]
			for _, p := range tree.pts[nd.lo:nd.hi] {
				w.row(leaf, p)
			}
		}
	})
	if err != nil {
		return nil, nil, err
	}
	return quad, near, nil
}

// quadRows is one worker's part of quadrantRows.
type quadRows struct {
	in         *problem.Instance
	tree       *kdTree
	k          int
	quad, near *Lists
	nearest    []int32
	keep       *quadKeeper
	stack      []kdVisit
	buf        []distEntry
}

func newQuadRows(in *problem.Instance, tree *kdTree, k int, quad, near *Lists) *quadRows {
	w := &quadRows{in: in, tree: tree, k: k, quad: quad, near: near,
		nearest: make([]int32, 0, k), keep: &quadKeeper{all: newSortedKeep(k)}}
	for q := range w.keep.h {
		w.keep.h[q] = newSortedKeep(k / 4)
	}
	return w
}

// row fills city p's quadrant row (and nearest row) in leaf leaf.
func (w *quadRows) row(leaf int32, p kdPoint) {
	i, k := int(p.id), w.k
	w.rowInto(leaf, p, w.quad.List[i*k:i*k:(i+1)*k])
}

// rowInto appends p's quadrant row to chosen and returns it with p's nearest row.
func (w *quadRows) rowInto(leaf int32, p kdPoint, chosen []int32) (quad, nearest []int32) {
	i, k, keep := int(p.id), w.k, w.keep
	keep.all.reset()
	for q := range keep.h {
		keep.h[q].reset()
	}
	w.stack = w.tree.searchFrom(leaf, p.x, p.y, p.id, keep, w.stack)
	for _, h := range keep.h {
		for _, c := range h.id {
			// closed quadrants share the cities on their edges
			if !keep.closed || !slices.Contains(chosen, c) {
				chosen = append(chosen, c)
			}
		}
	}
	// keep.all holds the k nearest but i, Nearest's row once sorted
	nearest = w.nearest
	if w.near != nil {
		nearest = w.near.List[i*k : (i+1)*k]
		copy(nearest, keep.all.id)
	} else {
		nearest = append(nearest[:0], keep.all.id...)
		w.nearest = nearest
	}
	w.buf = sortByDistBuf(w.in, i, nearest, w.buf)
	for _, c := range nearest {
		if len(chosen) == k || keep.closed {
			break
		}
		if !slices.Contains(chosen, c) {
			chosen = append(chosen, c)
		}
	}
	w.buf = sortByDistBuf(w.in, i, chosen, w.buf)
	for len(chosen) < k && len(chosen) > 0 { // a closed row, not filled up, repeats its last
		chosen = append(chosen, chosen[len(chosen)-1])
	}
	return chosen, nearest
}

// sortByDist sorts cities by exact distance from i, ties by index.
func sortByDist(in *problem.Instance, i int, cs []int32) {
	var buf [32]distEntry
	sortByDistBuf(in, i, cs, buf[:0])
}

// sortByDistBuf is sortByDist with scratch space, an insertion sort.
func sortByDistBuf(in *problem.Instance, i int, cs []int32, buf []distEntry) []distEntry {
	es := buf[:0]
	for _, c := range cs {
		es = insertByDist(es, distEntry{in.Dist(i, int(c)), c})
	}
	for x, e := range es {
		cs[x] = e.id
	}
	return es
}

// insertByDist adds e to es, which stays nearest first.
func insertByDist(es []distEntry, e distEntry) []distEntry {
	j := len(es)
	es = append(es, e)
	for j > 0 && es[j-1].farther(e) {
		es[j] = es[j-1]
		j--
	}
	es[j] = e
	return es
}

// Await runs fn, which cannot stop part-way, returning ctx's error as soon as ctx is done (the result then dropped).
func Await[T any](ctx context.Context, fn func() T) (T, error) {
	var zero T
	if err := ctx.Err(); err != nil {
		return zero, err
	}
	if ctx.Done() == nil {
		return fn(), nil
	}
	done := make(chan T, 1)
	go func() { done <- fn() }()
	select {
	case v := <-done:
		return v, nil
	case <-ctx.Done():
		return zero, ctx.Err()
	}
}

// Among calls visit(e, c) for each city e of cities and its about k nearest others in cities, ties by index.
func Among(in *problem.Instance, cities []int32, k int, visit func(e, c int32)) {
	if k <= 0 {
		return
	}
	if EuclidLike(in) {
		tree := newKDTree(in, cities...)
		keep := newSortedKeep(k + 1)
		var stack []kdVisit
		for _, e := range cities {
			keep.reset()
			if len(tree.nodes) > 0 {
				stack = tree.search(0, 0, in.X[e], in.Y[e], -1, &keep, stack)
			}
			for _, c := range keep.id {
				if c != e {
					visit(e, c)
				}
			}
		}
		return
	}
	h := make(distHeap, 0, k)
	for _, e := range cities {
		h = h[:0]
		for _, c := range cities {
			if c != e {
				h.offer(in.Dist(int(e), int(c)), c, k)
			}
		}
		for _, x := range h {
			visit(e, x.id)
		}
	}
}

// distHeap is a max-heap of (distance, city) that keeps the k nearest.
type distHeap []distEntry

type distEntry struct {
	d  int64
	id int32
}

var _ heap.Interface = (*distHeap)(nil)

// farther orders entries by distance, then by city.
func (e distEntry) farther(o distEntry) bool {
	return e.d > o.d || (e.d == o.d && e.id > o.id)
}

func (h distHeap) Len() int           { return len(h) }
func (h distHeap) Less(i, j int) bool { return h[i].farther(h[j]) }
func (h distHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *distHeap) Push(x any)        { *h = append(*h, x.(distEntry)) }
func (h *distHeap) Pop() any {
	s := *h
	e := s[len(s)-1]
	*h = s[:len(s)-1]
	return e
}

// offer adds (d, id) while the heap has room or id is nearer than its farthest.
func (h *distHeap) offer(d int64, id int32, k int) {
	e := distEntry{d, id}
	if len(*h) < k {
		*h = append(*h, e)
		heap.Fix(h, len(*h)-1)
		return
	}
	if k == 0 || !(*h)[0].farther(e) {
		return
	}
	(*h)[0] = e
	heap.Fix(h, 0)
}
