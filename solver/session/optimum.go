package session

import (
	"context"
	"errors"
	"math"
	"sync"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/bound"
)

// ExactMaxN is the largest instance whose optimum Prepare finds exactly (Held–Karp's DP, milliseconds at 15 cities),
// so the run stops at an optimal tour.
const ExactMaxN = 15

// ExactSource is the OptimumSource of an optimum Prepare proved.
const ExactSource = "exact (dynamic programme over the cities)"

// WithExactOptimum returns in, or a copy with its exact optimum when it has none, at most ExactMaxN cities and one fixed edge.
func WithExactOptimum(in *solver.Instance) *solver.Instance {
	if in.HasOptimum() || len(in.FixedEdges) > 1 || in.N < 3 || in.N > ExactMaxN {
		return in
	}
	from, to := 0, -1
	if len(in.FixedEdges) == 1 {
		from, to = in.FixedEdges[0][0], in.FixedEdges[0][1]
	}
	c := *in
	c.Optimum, c.OptimumSource = exactThrough(in, from, to), ExactSource
	return &c
}

// exactThrough is the length of an optimal tour of in through the edge from–to (to < 0: any tour), by Held and
// Karp's dynamic programme (at most about 20 cities).
func exactThrough(in *solver.Instance, from, to int) int64 {
	n := in.N
	if n <= 3 {
		return solver.TourLength(in, solver.IdentityTour(n))
	}
	m := n - 1
	city := make([]int, 0, m) // bit j stands for city[j]
	for c := range n {
		if c != from {
			city = append(city, c)
		}
	}
	full := 1 << m
	dp := make([]int64, full*m)
	for i := range dp {
		dp[i] = math.MaxInt64
	}
	for j, c := range city {
		dp[(1<<j)*m+j] = in.Dist(from, c)
	}
	for set := 1; set < full; set++ {
		for j := range m {
			d := dp[set*m+j]
			if d == math.MaxInt64 {
				continue
			}
			for k := range m {
				if set&(1<<k) == 0 {
					next := set | 1<<k
					dp[next*m+k] = min(dp[next*m+k], d+in.Dist(city[j], city[k]))
				}
			}
		}
	}
	best := int64(math.MaxInt64)
	for j, c := range city {
		if to < 0 || c == to {
			best = min(best, dp[(full-1)*m+j]+in.Dist(c, from))
		}
	}
	return best
}

// errProvenOptimum ends a run whose best tour reached the proven lower bound.
var errProvenOptimum = errors.New("the best tour equals the lower bound: optimal")

// provenStop stops a run once its best length meets the bound beside it.
type provenStop struct {
	mu     sync.Mutex
	bound  int64 // 0: none yet
	best   int64 // 0: none yet
	cancel context.CancelCauseFunc
}

// watchOptimum passes req's bound and snapshots through a provenStop when the run may stop at a proven optimum;
// done tells whether it stopped the run and releases the context.
func watchOptimum(ctx context.Context, req Request, bounded bool) (context.Context, Request, func() bool) {
	if !bounded || req.NoOptimumStop {
		return ctx, req, func() bool { return false }
	}
	rctx, cancel := context.WithCancelCause(ctx)
	w := &provenStop{cancel: cancel}
	onBound, onSnap := req.OnBound, req.OnSnapshot
	req.OnBound = func(r bound.Result) {
		w.note(r.Bound, 0)
		if onBound != nil {
			onBound(r)
		}
	}
	req.OnSnapshot = func(s solver.Snapshot) {
		w.note(0, s.BestLength)
		if onSnap != nil {
			onSnap(s)
		}
	}
	return rctx, req, func() bool {
		proven := errors.Is(context.Cause(rctx), errProvenOptimum) && ctx.Err() == nil
		cancel(nil)
		return proven
	}
}

// note records a bound or a best length and stops the run once they meet.
func (w *provenStop) note(lb, best int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if lb > 0 {
		w.bound = lb
	}
	if best > 0 && (w.best == 0 || best < w.best) {
		w.best = best
	}
	if w.bound > 0 && w.best > 0 && w.best <= w.bound {
		w.cancel(errProvenOptimum)
	}
}
