package bound

import (
	"context"
	"errors"
	"math"
	"sync/atomic"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/internal/parallel"
	"github.com/tsplab/tsplab/solver/internal/unionfind"
)

// oneTree is a minimum 1-tree under Precision·d(i,j) + π_i + π_j.
type oneTree struct {
	parent []int32 // tree edges (i, parent[i]); -1 at the root
	leaf   int32   // the special leaf
	extra  int32   // the other end of its second edge
	weight int64   // the 1-tree's weight minus 2·Σπ, scaled by Precision
	degree []int32 // degrees in the 1-tree
}

// evaluate returns the minimum 1-tree of the complete graph under pi: Borůvka over kd when set, else Prim in O(n²).
func evaluate(ctx context.Context, in *solver.Instance, kd *kdTree, g *graph, pi []int64) (*oneTree, error) {
	var parent []int32
	var err error
	if kd != nil {
		parent, err = boruvkaKD(ctx, kd, g, pi)
	} else {
		parent, err = primDense(ctx, in, pi)
	}
	if err != nil {
		return nil, err
	}
	return completeOneTree(ctx, in, kd, parent, pi)
}

// completeOneTree adds the second edge of the leaf where it is dearest, over the complete graph.
func completeOneTree(ctx context.Context, in *solver.Instance, kd *kdTree, parent []int32, pi []int64) (*oneTree, error) {
	n := in.N
	deg := make([]int32, n)
	var sum int64
	for i, p := range parent {
		if p >= 0 {
			deg[i]++
			deg[p]++
			sum += Precision*in.Dist(i, int(p)) + pi[i] + pi[p]
		}
	}
	best, err := leafSecondEdges(ctx, in, kd, parent, deg, pi)
	if err != nil {
		return nil, err
	}
	t := &oneTree{parent: parent, leaf: -1, extra: -1, degree: deg}
	top := int64(math.MinInt64)
	for v := range n {
		if deg[v] == 1 && best[v].a >= 0 && best[v].w > top {
			top = best[v].w
			t.leaf = int32(v)
			t.extra = best[v].a + best[v].b - int32(v)
		}
	}
	if t.leaf >= 0 {
		sum += top
		deg[t.leaf]++
		deg[t.extra]++
	}
	t.weight = sum - 2*sumPi(pi)
	return t, nil
}

// leafSecondEdges returns each tree leaf's cheapest edge to a city other than its tree neighbour, its second-cheapest.
func leafSecondEdges(ctx context.Context, in *solver.Instance, kd *kdTree, parent, deg []int32, pi []int64) ([]edgeKey, error) {
	n := in.N
	nbr := make([]int32, n) // the tree neighbour of each leaf
	for i, p := range parent {
		if p >= 0 {
			if deg[i] == 1 {
				nbr[i] = p
			}
			if deg[p] == 1 {
				nbr[p] = int32(i)
			}
		}
	}
	best := make([]edgeKey, n)
	err := parallel.ForContext(ctx, n, func(lo, hi int) {
		q := &query{t: kd, pi: pi, skip: -2}
		for v := lo; v < hi; v++ {
			if deg[v] != 1 {
				continue
			}
			if kd != nil {
				q.i, q.ex, q.best = int32(v), nbr[v], noEdge
				q.run()
				best[v] = q.best
				continue
			}
			b := noEdge
			for j := 0; j < n; j++ {
				if j == v || int32(j) == nbr[v] {
					continue
				}
				if k := mkKey(Precision*in.Dist(v, j)+pi[v]+pi[j], int32(v), int32(j)); k.less(b) {
					b = k
				}
			}
			best[v] = b
		}
	})
	return best, err
}

// primDense is Prim's algorithm on the complete graph, O(n²).
func primDense(ctx context.Context, in *solver.Instance, pi []int64) ([]int32, error) {
	n := in.N
	parent := make([]int32, n)
	key := make([]int64, n)
	done := make([]bool, n)
	for i := range key {
		key[i] = math.MaxInt64
		parent[i] = -1
	}
	if n == 0 {
		return parent, nil
	}
	key[0] = 0
	for it := range n {
		if it&63 == 63 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		u, bk := -1, int64(math.MaxInt64)
		for i := range n {
			if !done[i] && (u < 0 || key[i] < bk) {
				u, bk = i, key[i]
			}
		}
		done[u] = true
		for j := range n {
			if done[j] {
				continue
			}
			if w := Precision*in.Dist(u, j) + pi[u] + pi[j]; w < key[j] {
				key[j] = w
				parent[j] = int32(u)
			}
		}
	}
	return parent, nil
}

// boruvkaKD is Borůvka's algorithm on the complete graph, candidate edges bounding a pruned k-d tree search.
func boruvkaKD(ctx context.Context, kd *kdTree, g *graph, pi []int64) ([]int32, error) {
	in := kd.in
	n := in.N
	kd.setPenalties(pi)
	uf := unionfind.New(n)
	comp := make([]int32, n)
	local := make([]edgeKey, n)
	compBest := make([]atomic.Int64, n)
	win := make([]edgeKey, n)
	edges := make([][2]int32, 0, max(n-1, 0))
	for len(edges) < n-1 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for i := range comp {
			comp[i] = uf.Find(int32(i))
		}
		kd.setComponents(comp)
		for i := range compBest {
			compBest[i].Store(math.MaxInt64)
		}
		if err := cheapestOut(ctx, kd, g, pi, comp, local, compBest); err != nil {
			return nil, err
		}
		// The cheapest edge of every component, ties by end points.
		for i := range n {
			win[i] = noEdge
		}
		for i := range n {
			if c := comp[i]; local[i].less(win[c]) {
				win[c] = local[i]
			}
		}
		grew := false
		for c := range n {
			if k := win[c]; k.a >= 0 && uf.Union(k.a, k.b) {
				edges = append(edges, [2]int32{k.a, k.b})
				grew = true
			}
		}
		if !grew {
			return nil, errors.New("bound: spanning tree search found no edge between components")
		}
	}
	return treeParents(n, edges), nil
}

// cheapestOut sets each city's cheapest edge out of its component and each component's cheapest.
func cheapestOut(ctx context.Context, kd *kdTree, g *graph, pi []int64, comp []int32, local []edgeKey, compBest []atomic.Int64) error {
	n := kd.in.N
	err := parallel.ForContext(ctx, n, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			b := noEdge
			if g != nil {
				for e := g.off[i]; e < g.off[i+1]; e++ {
					j := g.adj[e]
					if comp[j] == comp[i] {
						continue
					}
					if k := mkKey(Precision*int64(g.d[e])+pi[i]+pi[j], int32(i), j); k.less(b) {
						b = k
					}
				}
			}
			local[i] = b
			atomicMin(&compBest[comp[i]], b.w)
		}
	})
	if err != nil {
		return err
	}
	return parallel.ForContext(ctx, n, func(lo, hi int) {
		q := &query{t: kd, pi: pi, comp: comp, ex: -1}
		for i := lo; i < hi; i++ {
			c := comp[i]
			q.i, q.skip, q.best = int32(i), c, local[i]
			q.limit = func() int64 { return compBest[c].Load() }
			q.run()
			local[i] = q.best
			atomicMin(&compBest[c], q.best.w)
		}
	})
}

// atomicMin lowers *a to v when v is smaller.
func atomicMin[T int64 | uint64, A interface {
	Load() T
	CompareAndSwap(old, new T) bool
}](a A, v T) {
	for {
		o := a.Load()
		if v >= o || a.CompareAndSwap(o, v) {
			return
		}
	}
}

// sumPi returns Σπ.
func sumPi(pi []int64) int64 {
	var s int64
	for _, p := range pi {
		s += p
	}
	return s
}

// treeParents roots the tree with the given edges at city 0.
func treeParents(n int, edges [][2]int32) []int32 {
	off, adj := adjacency(n, func(add func(a, b int32)) {
		for _, e := range edges {
			add(e[0], e[1])
		}
	})
	parent := make([]int32, n)
	for i := range parent {
		parent[i] = -2
	}
	if n == 0 {
		return parent
	}
	parent[0] = -1
	stack := []int32{0}
	for len(stack) > 0 {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, v := range adj[off[u]:off[u+1]] {
			if parent[v] == -2 {
				parent[v] = u
				stack = append(stack, v)
			}
		}
	}
	return parent
}
