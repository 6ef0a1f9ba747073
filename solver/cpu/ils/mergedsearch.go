package ils

import (
	"context"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/cpu/partition"
	"github.com/tsplab/tsplab/solver/neighbor"
)

// The first descent of the merge search runs on all workers at once: one
// round of the partition search without kicks (partition.Descend) cuts the
// start tour into segments with fixed ends and each worker descends its
// own segment as a sub-instance with the sequential 3-opt move, a descent
// over the cities next to other segments joining them; then each worker
// descends its stretch of the base tour with the run's own moves on the
// whole tour, in the merge epochs (drain), before it kicks: only from
// the cities of its own stretch, those its moves queue elsewhere going to
// their stretch's worker at the merge (handOver). A descent of the whole
// tour with the 5-opt move on one worker takes seconds from 10,000
// cities (docs/DECISIONS.md#first-descent).

// descendTogether makes the workers' start tour the base of the merge
// epochs (setBase) after the first descent on all workers (above), and
// queues each worker's stretch of it for drain. It returns false when
// the run stopped first.
func (r *ilsRun) descendTogether() bool {
	c, s0 := r.c, r.searches[0]
	ctx, cancel := c.SetupContext()
	defer cancel()
	s0nb, s0k := s0.Neighbors()
	nb := &neighbor.Lists{K: s0k, List: s0nb, Ranked: s0.Ranked()}
	t, l, ok := partition.Descend(r.partEnv(), ctx, s0.Tour(), nb, s0.Dist())
	if !ok {
		return false
	}
	// the workers' move counters go on from the partition search's
	for wk, s := range r.searches {
		s.SetEvaluated(c.Moves[wk].V.Load())
	}
	c.Offer(t, l)
	if c.Done() {
		return false
	}
	r.setBase(t, l)
	r.pushStretches()
	c.SetPhase(solver.PhaseSearch)
	return true
}

// drain is worker wk's descent over the cities of its stretch in its
// queue (all of them after descendTogether) with the run's moves, before
// its kicks, until the queue is empty or the epoch ends; a later epoch
// goes on with the rest. It returns false when the run stopped.
func (r *ilsRun) drain(wk int, check func() bool) bool {
	s := r.searches[wk]
	l := s.Length()
	s.SetJournal(false)
	r.descendOwn(wk, func() bool {
		return check() || r.epochOver()
	})
	s.SetJournal(true)
	if s.Length() < l {
		r.c.Offer(s.Tour(), s.Length())
	}
	return !r.c.Done()
}

// descendOwn is worker wk's descent from the cities in its queue that
// lie in its stretch, until the queue is empty or stop returns true (it
// then returns false); the cities of other stretches that its moves
// queue are set aside for their owners (handOver).
func (r *ilsRun) descendOwn(wk int, stop func() bool) bool {
	m := &r.mg
	own := func(c int32) bool {
		if m.owner != nil && m.owner[c] != int32(wk) {
			m.aside[wk] = append(m.aside[wk], c)
			return false
		}
		return true
	}
	return r.searches[wk].OptimizeFrom(stop, own)
}

// pushStretches queues every worker's stretch for its descent (drain).
func (r *ilsRun) pushStretches() {
	for wk, s := range r.searches {
		for _, c := range r.mg.stretches[wk] {
			s.Push(c)
		}
	}
}

// redo queues again, after the merge dropped worker wk's changes, the
// cities they touched when the worker drained its queue in the epoch: a
// descent finds them again on the merged tour (kicks would not); the
// merge then hands them to their stretches' workers.
func (r *ilsRun) redo(wk int) {
	if !r.draining[wk] {
		return
	}
	s := r.searches[wk]
	for _, c := range r.mg.touched[wk] {
		s.Push(c)
	}
}

// searchBeside reports whether the merge search starts at once on
// quadrant lists and takes the alpha-nearness lists of the ascent opts
// describes when they are there (alphaLater): when the ascent runs on an
// accelerator, or takes one core of more than two. Otherwise one core
// improves the start tour beside it (preSearch) and the search waits.
func (r *ilsRun) searchBeside(opts solver.AscentOptions) bool {
	o := r.o
	merge := o.cfg.share == shareMerge && o.cfg.sync > 0 && o.kicks == 0
	return merge && r.together() && !r.usePartition() && (opts.Device != nil || r.w > 2)
}

// quadrantBeside starts the ascent opts describes in the background
// (alphaLater) and returns the quadrant lists of k candidates the workers
// search on until its alpha-nearness lists are there.
func (r *ilsRun) quadrantBeside(ctx context.Context, opts solver.AscentOptions, k int) (*neighbor.Lists, error) {
	q, err := neighbor.QuadrantContext(ctx, r.in, k)
	if err != nil {
		return nil, err
	}
	r.alphaLater(ctx, opts, k, solver.ListsQuadrant)
	return q, nil
}

// together reports whether the first descent of the merge search runs
// on all workers (descendTogether): it cuts the tour into paths with
// coordinates, as the partition search does.
func (r *ilsRun) together() bool {
	in := r.in
	return r.w > 1 && in.Metric != solver.Explicit && in.HasCoords() && in.N >= 4*partition.MinSegment
}
