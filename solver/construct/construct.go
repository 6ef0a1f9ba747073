package construct

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"

	"github.com/tsplab/tsplab/solver/internal/unionfind"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/problem"
)

// Random returns a uniformly random permutation of 0..n-1.
func Random(n int, rng *rand.Rand) []int {
	t := problem.IdentityTour(max(n, 0))
	rng.Shuffle(len(t), func(i, j int) { t[i], t[j] = t[j], t[i] })
	return t
}

// NearestNeighbor returns the nearest-neighbour tour from city start (clamped), with nb's candidates, else PointSet or O(n²).
func NearestNeighbor(in *problem.Instance, start int, nb *neighbor.Lists) []int {
	t, _ := NearestNeighborContext(context.Background(), in, start, nb)
	return t
}

// checkEvery is the construction steps between looks at the context.
const checkEvery = 1024

// NearestNeighborContext is NearestNeighbor giving up with ctx's error when ctx ends.
func NearestNeighborContext(ctx context.Context, in *problem.Instance, start int, nb *neighbor.Lists) ([]int, error) {
	n := in.N
	if n <= 0 {
		return []int{}, nil
	}
	start = min(max(start, 0), n-1)
	t := make([]int, 0, n)
	if nb == nil || nb.K == 0 || nb.N() != n {
		visited := make([]bool, n)
		cur := start
		visited[cur] = true
		t = append(t, cur)
		for len(t) < n {
			if len(t)%checkEvery == 0 && ctx.Err() != nil {
				return nil, ctx.Err()
			}
			best, bd := -1, int64(0)
			for j := 0; j < n; j++ {
				if visited[j] {
					continue
				}
				if d := in.Dist(cur, j); best < 0 || d < bd {
					best, bd = j, d
				}
			}
			cur = best
			visited[cur] = true
			t = append(t, cur)
		}
		return t, nil
	}
	return nearestWithLists(ctx, in, start, nb, nil, 0)
}

// RandomizedNearestNeighborContext is NearestNeighborContext over nb taking the second candidate at a share second of
// the steps: varied start tours for random-restart climbs.
func RandomizedNearestNeighborContext(ctx context.Context, in *problem.Instance, start int, nb *neighbor.Lists, rng *rand.Rand, second float64) ([]int, error) {
	n := in.N
	if n <= 0 {
		return []int{}, nil
	}
	if nb == nil || nb.K == 0 || nb.N() != n {
		return nil, errors.New("randomized nearest neighbour: candidate lists of the instance's cities are required")
	}
	return nearestWithLists(ctx, in, min(max(start, 0), n-1), nb, rng, second)
}

// nearestWithLists builds the nearest-neighbour tour over the lists (rng set: the second candidate at share second).
func nearestWithLists(ctx context.Context, in *problem.Instance, start int, nb *neighbor.Lists, rng *rand.Rand, second float64) ([]int, error) {
	n := in.N
	t := make([]int, 0, n)
	all := make([]int32, n)
	for i := range all {
		all[i] = int32(i)
	}
	left := neighbor.NewPointSet(in, all)
	cur := start
	left.Remove(cur)
	t = append(t, cur)
	for len(t) < n {
		if len(t)%checkEvery == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		near, second2 := nearestTwo(in, cur, nb.Of(cur), left, nb.Ranked)
		next := near
		if rng != nil && rng.Float64() < second && second2 >= 0 {
			next = second2 // take the second nearest unvisited candidate
		}
		if next < 0 {
			next = left.Nearest(cur)
		}
		cur = next
		left.Remove(cur)
		t = append(t, cur)
	}
	return t, nil
}

// nearestTwo returns the nearest and second-nearest unvisited candidates of cur in row (-1: none): the row's first two
// when it is nearest first, else by distance, ties by city, as a ranked row's order (alpha lists) says nothing of it.
func nearestTwo(in *problem.Instance, cur int, row []int32, left *neighbor.PointSet, ranked bool) (int, int) {
	near, second := -1, -1
	var dNear, dSecond int64
	for _, c32 := range row {
		c := int(c32)
		if !left.Has(c) || ranked && (c == near || c == second) {
			continue
		}
		if !ranked {
			if near >= 0 {
				return near, c
			}
			near = c
			continue
		}
		switch d := in.Dist(cur, c); {
		case near < 0 || d < dNear || d == dNear && c < near:
			second, dSecond = near, dNear
			near, dNear = c, d
		case second < 0 || d < dSecond || d == dSecond && c < second:
			second, dSecond = c, d
		}
	}
	return near, second
}

// candEdge is a candidate edge for Greedy.
type candEdge struct {
	d    int64
	a, b int32
}

// Greedy returns the greedy-edge tour (Johnson & McGeoch 1997, 2.2) over nb's edges (nil: 10 nearest), fragments joined.
func Greedy(in *problem.Instance, nb *neighbor.Lists) []int {
	t, _ := GreedyContext(context.Background(), in, nb)
	return t
}

// GreedyContext is Greedy giving up with ctx's error when ctx ends.
func GreedyContext(ctx context.Context, in *problem.Instance, nb *neighbor.Lists) ([]int, error) {
	n := in.N
	if n <= 3 {
		return problem.IdentityTour(max(n, 0)), nil
	}
	if nb == nil || nb.N() != n {
		var err error
		if nb, err = neighbor.NearestContext(ctx, in, 10); err != nil {
			return nil, err
		}
	}
	// The edges' sort is not cut short (seconds at ten million cities); the run returns when ctx ends.
	edges, err := neighbor.Await(ctx, func() []candEdge {
		edges := candidateEdges(in, nb)
		sortEdges(edges)
		return edges
	})
	if err != nil {
		return nil, err
	}
	f := newFragments(n)
	if err := f.add(ctx, edges); err != nil {
		return nil, err
	}

	// Greedy rounds over the free ends' nearest ends until a round joins under an eighth, then nearest-neighbour joins.
	for f.added < n-1 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		need, before := n-1-f.added, f.added
		more, err := neighbor.Await(ctx, func() []candEdge { return endEdges(in, f.ends(), 6) })
		if err != nil {
			return nil, err
		}
		if err := f.add(ctx, more); err != nil {
			return nil, err
		}
		if 8*(f.added-before) < need {
			break
		}
	}
	if f.added < n-1 {
		if err := f.join(ctx, in); err != nil {
			return nil, err
		}
	}
	if ends := f.ends(); len(ends) == 2 { // one path remains: close it
		f.link(ends[0], ends[1])
	}
	return f.walk(), nil
}

// fragments is a set of paths covering the cities: adj[2i], adj[2i+1] i's neighbours (-1: none), deg, uf and added.
type fragments struct {
	adj   []int32
	deg   []uint8
	uf    *unionfind.Sets
	added int
}

func newFragments(n int) *fragments {
	f := &fragments{adj: make([]int32, 2*n), deg: make([]uint8, n), uf: unionfind.New(n)}
	for i := range f.adj {
		f.adj[i] = -1
	}
	return f
}

// link adds the edge (a, b).
func (f *fragments) link(a, b int32) {
	f.adj[2*int(a)+int(f.deg[a])] = b
	f.adj[2*int(b)+int(f.deg[b])] = a
	f.deg[a]++
	f.deg[b]++
}

// add takes every edge joining the free ends of two paths until one covers every city, checking ctx every addCheck edges.
func (f *fragments) add(ctx context.Context, edges []candEdge) error {
	n := len(f.deg)
	for x, e := range edges {
		if f.added == n-1 {
			return nil
		}
		if x%addCheck == addCheck-1 && ctx.Err() != nil {
			return ctx.Err()
		}
		if f.deg[e.a] >= 2 || f.deg[e.b] >= 2 || !f.uf.Union(e.a, e.b) {
			continue
		}
		f.link(e.a, e.b)
		f.added++
	}
	return nil
}

// addCheck is how many edges add takes between looks at its context.
const addCheck = 1 << 18

// ends lists the cities of degree below 2.
func (f *fragments) ends() []int32 {
	var ends []int32
	for i, d := range f.deg {
		if d < 2 {
			ends = append(ends, int32(i))
		}
	}
	return ends
}

// walk is the tour the closed path makes, from city 0.
func (f *fragments) walk() []int {
	n := len(f.deg)
	t := make([]int, 0, n)
	prev, c := int32(-1), int32(0)
	for range n {
		t = append(t, int(c))
		nx := f.adj[2*c]
		if nx == prev {
			nx = f.adj[2*c+1]
		}
		prev, c = c, nx
	}
	return t
}

// endEdges returns edges between each given city and its k nearest among them.
func endEdges(in *problem.Instance, ends []int32, k int) []candEdge {
	m := len(ends)
	k = min(k, m-1)
	if k <= 0 {
		return nil
	}
	edges := make([]candEdge, 0, m*k)
	neighbor.Among(in, ends, k, func(a, b int32) {
		if a > b {
			a, b = b, a
		}
		edges = append(edges, candEdge{in.Dist(int(a), int(b)), a, b})
	})
	sortEdges(edges)
	return slices.CompactFunc(edges, func(x, y candEdge) bool { return x.a == y.a && x.b == y.b })
}

// join links the fragments nearest-neighbour fashion, the fallback when greedy rounds stall.
func (f *fragments) join(ctx context.Context, in *problem.Instance) error {
	adj := f.adj
	otherEnd := func(e int32) int32 {
		prev, cur := int32(-1), e
		for {
			nx := adj[2*cur]
			if nx == prev || nx < 0 {
				nx = adj[2*cur+1]
			}
			if nx < 0 || nx == prev {
				return cur
			}
			prev, cur = cur, nx
		}
	}
	endList := f.ends()
	if len(endList) == 0 {
		return nil
	}
	ends := neighbor.NewPointSet(in, endList)
	first := endList[0]
	ends.Remove(int(first))
	cur := otherEnd(first)
	ends.Remove(int(cur))
	for k := 0; ends.Len() > 0; k++ {
		if k%checkEvery == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		next := int32(ends.Nearest(int(cur)))
		ends.Remove(int(next))
		far := otherEnd(next)
		ends.Remove(int(far))
		f.link(cur, next)
		cur = far
	}
	return nil
}
