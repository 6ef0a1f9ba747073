package cpu

import (
	"context"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/neighbor"
)

// The partition search's pieces take alpha-nearness candidates once an
// ascent beside the search has made them: each piece's lists hold the
// alpha-nearest cities inside it first, filled up with the nearest (or,
// on quadrant rounds, the quadrant) ones, as LKH's 5 alpha-nearest reach
// across the gaps between clusters where the nearest never do.

// startPartAlpha starts the Held–Karp ascent behind the partition
// search's alpha lists (OptPartAlpha), on the run's accelerator when it
// has one, within half the time limit; a run with a kicks budget and no
// time limit waits for it, on the ascent's own schedule, so that it
// stays deterministic.
func (r *ilsRun) startPartAlpha(ctx context.Context) {
	if r.o.partAlpha == 0 || crowded(r.in.N, r.w) {
		return
	}
	opts := solver.AscentOptions{Time: r.p.TimeLimit / 2, Device: r.aid.Device}
	if r.p.TimeLimit > 0 {
		r.alphaLater(ctx, opts, alphaNeighbors, "nearest and quadrant")
		return
	}
	res, err := r.aid.Ascents.Alpha(ctx, r.in, alphaNeighbors, opts)
	if err != nil {
		if ctx.Err() == nil {
			r.alpha.Store(&alphaLists{err: err})
		}
		return
	}
	l := &neighbor.Lists{K: res.K, List: res.List}
	r.alpha.Store(&alphaLists{l: l, note: alphaNote(res.Stats), stats: res.Stats})
}

// takeAlpha gives the pieces from this round on the alpha lists of the
// ascent beside the search once they are there (startPartAlpha), and
// stops the run when the ascent failed.
func (pr *partRun) takeAlpha() {
	r := pr.r
	a := r.alpha.Load()
	if a == nil || r.alphaTaken {
		return
	}
	r.alphaTaken = true
	if a.err != nil {
		r.c.stop.Store(true)
		return
	}
	r.listNote, r.stats = a.note, a.stats
	r.stats.AlphaListsAt = time.Since(r.start)
	pr.alpha = a.l
}

// alphaFrom is where a piece's lists come from once the alpha lists are
// taken: the alpha-nearest inside and the piece's own kind (quadrant,
// else the nearest lists near), the first ones kept first under
// partalpha 1, both merged by distance under 2.
func (pr *partRun) alphaFrom(kind listKind, near *neighbor.Lists) [2]*neighbor.Lists {
	if kind == listQuadrant && pr.nb[1] != pr.nb[0] {
		return [2]*neighbor.Lists{pr.alpha, pr.nb[1]}
	}
	return [2]*neighbor.Lists{pr.alpha, near}
}
