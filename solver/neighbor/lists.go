package neighbor

import (
	"cmp"
	"container/heap"
	"context"
	"slices"

	"gonum.org/v1/gonum/spatial/kdtree"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/internal/parallel"
)

// Lists holds K candidate neighbours for every city, row-major: the
// candidates of city i are List[i*K : (i+1)*K], ascending by the exact
// TSPLIB distance in.Dist(i, ·) (ties by city index), never i itself.
type Lists struct {
	K    int
	List []int32
}

// Of returns the K candidates of city i, nearest first. The slice aliases
// nb.List: do not modify it.
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

// EuclidLike reports whether the instance's distance is a non-decreasing
// function of the Euclidean distance between 2-D coordinates (EUC_2D,
// CEIL_2D, ATT), so that geometric searches over the plane find the
// exact-metric nearest cities.
func EuclidLike(in *solver.Instance) bool {
	switch in.Metric {
	case solver.Euc2D, solver.Ceil2D, solver.Att:
		return len(in.X) == in.N && len(in.Y) == in.N && in.N > 0
	}
	return false
}

// Nearest returns the k nearest cities of every city (k is
// clipped to n-1; k < 0 counts as 0). For the 2-D Euclidean-like metrics
// (EUC_2D, CEIL_2D, ATT) the candidates are the k nearest in the plane,
// ties by city index, found in a k-d tree and sorted by the exact metric;
// every other instance (EXPLICIT, GEO, 3-D, MAN_2D, MAX_2D) is searched
// by brute force in O(n²) for the k nearest by the exact metric, ties by
// index. Both run on all cores; the lists depend on the instance and k
// alone, never on the number of cores or goroutines, so that runs with a
// seed repeat.
func Nearest(in *solver.Instance, k int) *Lists {
	nb, _ := NearestContext(context.Background(), in, k)
	return nb
}

// NearestContext is Nearest that gives up when ctx is done, returning
// ctx's error and no lists.
func NearestContext(ctx context.Context, in *solver.Instance, k int) (*Lists, error) {
	n := in.N
	k = min(max(k, 0), max(n-1, 0))
	nb := &Lists{K: k, List: make([]int32, n*k)}
	if k == 0 {
		return nb, nil
	}
	if EuclidLike(in) {
		tree, err := Await(ctx, func() *kdtree.Tree { return newKDTree(in) })
		if err != nil {
			return nil, err
		}
		err = parallel.ForContext(ctx, n, func(lo, hi int) {
			cand := make([]int32, 0, k+1)
			keep := newFloatHeap(k + 1)
			for i := lo; i < hi; i++ {
				keep.reset()
				searchKD(tree.Root, &kdPoint{x: in.X[i], y: in.Y[i], id: int32(i)}, keep, -1)
				cand = cand[:0]
				for _, id := range keep.id {
					if int(id) != i {
						cand = append(cand, id)
					}
				}
				sortByDist(in, i, cand)
				copy(nb.List[i*k:(i+1)*k], cand[:k])
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

// Quadrant returns k candidates per city: the k/4 nearest in each
// of the four quadrants around the city (dx ≥ 0 or < 0 times dy ≥ 0 or
// < 0; coincident cities count as the first quadrant), filled up to k with
// the nearest cities not yet chosen, sorted by the exact metric. Nearest
// means nearest in the plane, ties by city index, as for Nearest; the
// lists are as repeatable as Nearest's. Quadrant candidates help on
// clustered instances, where plain nearest neighbours never leave a
// cluster (Johnson & McGeoch 1997, section 3.3). For instances without
// 2-D Euclidean-like coordinates it equals Nearest.
func Quadrant(in *solver.Instance, k int) *Lists {
	nb, _ := QuadrantContext(context.Background(), in, k)
	return nb
}

// QuadrantContext is Quadrant that gives up when ctx is done, returning
// ctx's error and no lists.
func QuadrantContext(ctx context.Context, in *solver.Instance, k int) (*Lists, error) {
	n := in.N
	k = min(max(k, 0), max(n-1, 0))
	if !EuclidLike(in) || k < 4 {
		return NearestContext(ctx, in, k)
	}
	tree, err := Await(ctx, func() *kdtree.Tree { return newKDTree(in) })
	if err != nil {
		return nil, err
	}
	per := k / 4
	nb := &Lists{K: k, List: make([]int32, n*k)}
	err = parallel.ForContext(ctx, n, func(lo, hi int) {
		chosen := make([]int32, 0, k)
		nearest := make([]int32, 0, k)
		keep := &quadKeeper{all: newFloatHeap(k)}
		for q := range keep.h {
			keep.h[q] = newFloatHeap(per)
		}
		for i := lo; i < hi; i++ {
			chosen = chosen[:0]
			q := &kdPoint{x: in.X[i], y: in.Y[i], id: int32(i)}
			keep.center = q
			keep.all.reset()
			for _, h := range keep.h {
				h.reset()
			}
			searchKD(tree.Root, q, keep, -1)
			for _, h := range keep.h {
				chosen = append(chosen, h.id...)
			}
			nearest = append(nearest[:0], keep.all.id...)
			sortByDist(in, i, nearest)
			for _, c := range nearest {
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
	if err != nil {
		return nil, err
	}
	return nb, nil
}

// sortByDist sorts cities ascending by their exact distance from i, ties
// by index.
func sortByDist(in *solver.Instance, i int, cs []int32) {
	var buf [32]distEntry
	es := buf[:0]
	for _, c := range cs {
		es = append(es, distEntry{in.Dist(i, int(c)), c})
	}
	slices.SortFunc(es, func(a, b distEntry) int {
		if a.d != b.d {
			return cmp.Compare(a.d, b.d)
		}
		return cmp.Compare(a.id, b.id)
	})
	for x, e := range es {
		cs[x] = e.id
	}
}

// Await runs fn, a step that cannot stop part-way (building a k-d tree,
// sorting), and returns its result, or ctx's error as soon as ctx is
// done. A step given up on finishes in the background and its result is
// dropped: the caller returns in time, at the cost of that step's
// remaining work.
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

// Among calls visit(e, c) for every city e of cities and each city c
// among its about k nearest others in cities (the k nearest by the exact
// metric; for Euclidean-like instances, the k+1 nearest by the plane's
// distance, e itself left out; ties by city index in both). It searches a
// k-d tree of the subset for Euclidean-like instances and scans the
// subset otherwise. The cities each city visits depend on the set of
// cities alone, not on the order they are listed in.
func Among(in *solver.Instance, cities []int32, k int, visit func(e, c int32)) {
	if k <= 0 {
		return
	}
	if EuclidLike(in) {
		tree := newKDTree(in, cities...)
		keep := newFloatHeap(k + 1)
		for _, e := range cities {
			keep.reset()
			searchKD(tree.Root, &kdPoint{x: in.X[e], y: in.Y[e], id: e}, keep, -1)
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

// distHeap is a bounded max-heap of (distance, city) on container/heap,
// used to keep the k smallest while scanning: the farthest kept is at the
// top.
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

// offer adds (d, id) if the heap holds fewer than k entries or id is
// nearer than the farthest kept. Most offers end at the first test.
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
