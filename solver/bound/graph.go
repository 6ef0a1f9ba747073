package bound

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/internal/parallel"
	"github.com/tsplab/tsplab/solver/neighbor"
)

// graph is the symmetric candidate graph in compressed rows: city i's neighbours adj[off[i]:off[i+1]] ascending, distances in d.
type graph struct {
	off []int32
	adj []int32
	d   []int32
	rev []int32 // filled by export
}

// buildGraph joins every city to its k quadrant neighbours both ways, plus tree's edges, which keep it connected.
func buildGraph(ctx context.Context, in *solver.Instance, k int, tree []int32) (*graph, error) {
	n := in.N
	nb, err := neighbor.QuadrantContext(ctx, planeView(in), k)
	if err != nil {
		return nil, err
	}
	cnt, raw := adjacency(n, func(add func(a, b int32)) {
		for i := range n {
			for _, j := range nb.Of(i) {
				add(int32(i), j)
			}
			if p := tree[i]; p >= 0 {
				add(int32(i), p)
			}
		}
	})
	// Sort and deduplicate every row, then compact.
	g := &graph{off: make([]int32, n+1)}
	rowLen := make([]int32, n)
	err = parallel.ForContext(ctx, n, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			row := raw[cnt[i]:cnt[i+1]]
			slices.Sort(row)
			row = slices.Compact(row)
			rowLen[i] = int32(len(row))
		}
	})
	if err != nil {
		return nil, err
	}
	for i := range n {
		g.off[i+1] = g.off[i] + rowLen[i]
	}
	g.adj = make([]int32, g.off[n])
	g.d = make([]int32, g.off[n])
	var bad error
	var mu sync.Mutex
	err = parallel.ForContext(ctx, n, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			copy(g.adj[g.off[i]:g.off[i+1]], raw[cnt[i]:cnt[i]+rowLen[i]])
			for e := g.off[i]; e < g.off[i+1]; e++ {
				d := in.Dist(i, int(g.adj[e]))
				if d < 0 || d > math.MaxInt32/2 {
					mu.Lock()
					bad = fmt.Errorf("bound: distance %d between cities %d and %d is out of range", d, i+1, g.adj[e]+1)
					mu.Unlock()
				}
				g.d[e] = int32(d)
			}
		}
	})
	if err != nil {
		return nil, err
	}
	return g, bad
}

// planeView is what the quadrants are chosen on: for GreatCircle a sinusoidal projection, since the sphere's nearest
// cities never leave a cluster and the bound then falls far below the optimum.
func planeView(in *solver.Instance) *solver.Instance {
	if in.Metric != solver.GreatCircle || !in.HasCoords() {
		return in
	}
	var sx, sy float64
	for _, lon := range in.X {
		sx += math.Cos(lon * math.Pi / 180)
		sy += math.Sin(lon * math.Pi / 180)
	}
	mid := math.Atan2(sy, sx) * 180 / math.Pi
	// Metres times 10^ScaleExp, as the instance measures
	unit := solver.EarthRadius * math.Pow10(in.ScaleExp) * math.Pi / 180
	x, y := make([]float64, in.N), make([]float64, in.N)
	for i := range in.N {
		lon := math.Mod(in.X[i]-mid+540, 360) - 180 // in [-180, 180)
		x[i] = lon * math.Cos(in.Y[i]*math.Pi/180) * unit
		y[i] = in.Y[i] * unit
	}
	return solver.NewCoordInstance(in.Name, solver.Euc2D, x, y, nil)
}

// adjacency returns the compressed rows of the edges each adds (called twice: to count, then to fill).
func adjacency(n int, each func(add func(a, b int32))) (off, adj []int32) {
	off = make([]int32, n+1)
	each(func(a, b int32) { off[a+1]++; off[b+1]++ })
	for i := range n {
		off[i+1] += off[i]
	}
	adj = make([]int32, off[n])
	fill := slices.Clone(off[:n])
	each(func(a, b int32) {
		adj[fill[a]], adj[fill[b]] = b, a
		fill[a]++
		fill[b]++
	})
	return off, adj
}

// export returns g as a Graph, with the reverse of every edge.
func (g *graph) export() Graph {
	if g.rev == nil {
		g.rev = reverseEdges(g)
	}
	return Graph{Off: g.off, Adj: g.adj, Dist: g.d, Rev: g.rev}
}

// reverseEdges returns each edge's reverse's index, by binary search in the sorted rows.
func reverseEdges(g *graph) []int32 {
	n := len(g.off) - 1
	rev := make([]int32, len(g.adj))
	parallel.For(n, func(lo, hi int) {
		for u := lo; u < hi; u++ {
			for e := g.off[u]; e < g.off[u+1]; e++ {
				v := g.adj[e]
				row := g.adj[g.off[v]:g.off[v+1]]
				i, _ := slices.BinarySearch(row, int32(u))
				rev[e] = g.off[v] + int32(i)
			}
		}
	})
	return rev
}
