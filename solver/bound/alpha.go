package bound

import (
	"cmp"
	"context"
	"errors"
	"math"
	"math/bits"
	"slices"

	"github.com/tsplab/tsplab/solver/internal/parallel"
	"github.com/tsplab/tsplab/solver/neighbor"
)

// AlphaCandidates returns k candidates per city by alpha-nearness (Helsgaun 2000, 4.1): of 2k (at least 16) quadrant
// neighbours, the k growing the final tree least, listed so (ties by weight, then city), as LKH ranks them, because
// the 5-opt move follows only the first few of a row below its first step (docs/DECISIONS.md#alpha-rank).
func (r Result) AlphaCandidates(k int) (*neighbor.Lists, error) {
	return r.AlphaCandidatesContext(context.Background(), k)
}

// AlphaCandidatesContext is AlphaCandidates giving up with ctx's error when ctx ends, so that a run stopped after its
// ascent does not wait for the lists (a second on two cores at 316,228 cities).
func (r Result) AlphaCandidatesContext(ctx context.Context, k int) (*neighbor.Lists, error) {
	if r.in == nil || r.tree == nil {
		return nil, errors.New("bound: no 1-tree: compute the bound first")
	}
	in := r.in
	n := in.N
	k = min(max(k, 0), n-1)
	pool, err := neighbor.QuadrantContext(ctx, in, min(max(2*k, 16), n-1))
	if err != nil {
		return nil, err
	}
	lift := newPathMax(r.tree.parent, func(i, j int32) int64 {
		return Precision*in.Dist(int(i), int(j)) + r.Pi[i] + r.Pi[j]
	})
	out := &neighbor.Lists{K: k, List: make([]int32, n*k), Ranked: true}
	type cand struct {
		alpha, w int64
		j        int32
	}
	err = parallel.ForContext(ctx, n, func(lo, hi int) {
		cs := make([]cand, 0, pool.K)
		for i := lo; i < hi; i++ {
			cs = cs[:0]
			for _, j := range pool.Of(i) {
				w := Precision*in.Dist(i, int(j)) + r.Pi[i] + r.Pi[j]
				cs = append(cs, cand{w - lift.max(int32(i), j), w, j})
			}
			slices.SortFunc(cs, func(a, b cand) int {
				return cmp.Or(cmp.Compare(a.alpha, b.alpha), cmp.Compare(a.w, b.w), cmp.Compare(a.j, b.j))
			})
			row := out.List[i*k : (i+1)*k]
			for x := range row {
				row[x] = cs[x].j
			}
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// pathMax answers "the dearest edge on the tree path between i and j" by binary lifting.
type pathMax struct {
	depth []int32
	up    [][]int32
	top   [][]int64
}

func newPathMax(parent []int32, weight func(i, j int32) int64) *pathMax {
	n := len(parent)
	p := &pathMax{depth: make([]int32, n)}
	// Depths in an order where parents come first.
	order := make([]int32, 0, n)
	kids := make([][]int32, n)
	root := int32(0)
	for v, u := range parent {
		if u < 0 {
			root = int32(v)
		} else {
			kids[u] = append(kids[u], int32(v))
		}
	}
	order = append(order, root)
	for x := 0; x < len(order); x++ {
		for _, c := range kids[order[x]] {
			p.depth[c] = p.depth[order[x]] + 1
			order = append(order, c)
		}
	}
	maxDepth := slices.Max(p.depth)
	levels := max(bits.Len32(uint32(maxDepth)), 1)
	p.up = make([][]int32, levels)
	p.top = make([][]int64, levels)
	p.up[0] = make([]int32, n)
	p.top[0] = make([]int64, n)
	for v, u := range parent {
		if u < 0 {
			p.up[0][v], p.top[0][v] = int32(v), math.MinInt64
		} else {
			p.up[0][v], p.top[0][v] = u, weight(int32(v), u)
		}
	}
	for l := 1; l < levels; l++ {
		up, top := make([]int32, n), make([]int64, n)
		pu, pt := p.up[l-1], p.top[l-1]
		for v := range n {
			m := pu[v]
			up[v] = pu[m]
			top[v] = max(pt[v], pt[m])
		}
		p.up[l], p.top[l] = up, top
	}
	return p
}

// max returns the dearest edge weight on the path between a and b.
func (p *pathMax) max(a, b int32) int64 {
	best := int64(math.MinInt64)
	if p.depth[a] < p.depth[b] {
		a, b = b, a
	}
	for diff, l := p.depth[a]-p.depth[b], 0; diff > 0; diff, l = diff>>1, l+1 {
		if diff&1 != 0 {
			best = max(best, p.top[l][a])
			a = p.up[l][a]
		}
	}
	if a == b {
		return best
	}
	for l := len(p.up) - 1; l >= 0; l-- {
		if p.up[l][a] != p.up[l][b] {
			best = max(best, p.top[l][a], p.top[l][b])
			a, b = p.up[l][a], p.up[l][b]
		}
	}
	return max(best, p.top[0][a], p.top[0][b])
}
