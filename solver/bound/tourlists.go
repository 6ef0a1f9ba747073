package bound

import (
	"context"
	"fmt"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/neighbor"
)

// SparseAlpha returns k alpha-nearness candidates per city (as
// Result.AlphaCandidates) from an ascent on the sparse candidate graph
// alone: the quadrant neighbours of every city joined by the edges of
// tour (a tour of in, which keeps the graph connected), on opts.Device
// (the cores when nil), for at most opts.Time (0: its schedule), ended
// early with ctx. No bound is proven, so neither of the complete graph's
// evaluations Compute runs is needed (seconds on the cores at 100,000
// cities); the alpha values come from the minimum spanning tree of the
// candidate graph under the best penalties. The Result carries the
// ascent's figures and penalties; its Bound is not set.
func SparseAlpha(ctx context.Context, in *solver.Instance, tour []int32, k int, opts Options) (*neighbor.Lists, Result, error) {
	start := time.Now()
	n := in.N
	res := Result{in: in, Pi: make([]int64, n)}
	if n < 8 || len(tour) != n {
		return nil, res, fmt.Errorf("bound: a tour of all %d cities is needed for the sparse ascent", n)
	}
	// the tour as a path: parent links from its second city on
	parent := make([]int32, n)
	parent[tour[0]] = -1
	for i := 1; i < n; i++ {
		parent[tour[i]] = tour[i-1]
	}
	opts.Neighbors = opts.neighbors(n)
	g, err := buildGraph(ctx, in, opts.Neighbors, parent)
	if err != nil {
		return nil, res, err
	}
	res.g = g
	halt := func() bool {
		return ctx.Err() != nil || opts.Time > 0 && time.Since(start) >= opts.Time
	}
	dev, err := res.ascentDevice(ctx, opts)
	if err != nil {
		return nil, res, err
	}
	best, iters, stopped, err := ascent(dev, g, res.Pi, opts, start, halt)
	if cerr := dev.Close(); err == nil {
		err = cerr
	}
	if err == nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	if err != nil {
		return nil, res, err
	}
	if iters <= 1 && stopped {
		return nil, res, fmt.Errorf("bound: no ascent step within %v: %w", opts.Time, context.DeadlineExceeded)
	}
	res.Iterations, res.Stopped, res.Estimate = iters, stopped, float64(best)/Precision
	t := newSparseTree(g)
	t.run(res.Pi)
	res.tree = &oneTree{parent: t.parent}
	l, err := res.AlphaCandidates(k)
	if err != nil {
		return nil, res, err
	}
	res.Elapsed = time.Since(start)
	return l, res, nil
}
