package cpu

import (
	"context"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/tour"
)

// companionLink is an ILS run's side of a solver.Companion (a search
// beside the engine, GPU auto's tour windows): where the engine's one
// tour settles (every round of the partition search, every crossover
// exchange of the whole-tour workers) it folds the companion's newest
// offer into that tour by partition crossover, so the tour keeps what
// either found in the regions where they differ and never gets longer,
// and publishes the result for the companion to go on from. A nil link
// (no companion in the run's context) does nothing.
type companionLink struct {
	x     *solver.Companion
	offer []int32
	seen  []uint32
	stamp uint32
	g     gpx
	// the claim an offer improved, and the tour with its path put in
	claim, spliced []int32
}

// newCompanionLink returns the link to the companion ctx carries, or nil.
func newCompanionLink(ctx context.Context) *companionLink {
	x := solver.CompanionFrom(ctx)
	if x == nil {
		return nil
	}
	return &companionLink{x: x}
}

// crossIn folds the companion's newest offer not yet taken into tour t
// (length l): the partition crossover of the two, the shorter as A. It
// returns the child when it is shorter than t (a buffer of the link's,
// valid until the next call), else t and l. An offer that is not a tour
// of t's cities, or lacks one of the fixed edges, is dropped; its length
// is recomputed here, whatever the companion said.
func (lk *companionLink) crossIn(d *tour.Dist, t []int32, l int64, fixed [][2]int) ([]int32, int64) {
	if lk == nil {
		return t, l
	}
	o, _, ok := lk.x.TakeOffer(lk.offer)
	lk.offer = o
	if !ok || !lk.isTour(o, len(t)) || !keepsFixed(o, fixed) {
		return t, l
	}
	if c, ok := lk.x.OfferedClaim(lk.claim); ok {
		// the offer changed only the claim's inner cities: its path
		// goes into t whole (the partition crossover alone would drop
		// the parts of it that are infeasible components, nested
		// reversals, where t is the shorter tour). Outside the claim
		// the offer is the engine's own older tour, which the partition
		// crossover would not better: the splice is the whole fold.
		lk.claim = c
		st, gain, ok := lk.splice(d, t, o, c)
		if !ok || gain <= 0 {
			return t, l
		}
		lk.x.Folded(gain)
		return st, l - gain
	}
	ol := d.Length(o)
	a, la, b := t, l, o
	if ol < l {
		a, la, b = o, ol, t
	}
	child, cl := lk.g.cross(d, a, la, b, fixed)
	if cl >= l {
		return t, l
	}
	lk.x.Folded(l - cl)
	return child, cl
}

// splice returns t with the path of claim c (its cities, in the order
// they were claimed) replaced by o's path between the same two end
// cities, where both tours hold c's cities as one path between them (a
// buffer of the link's, valid until the next call), and the length that
// takes off t: the two paths' lengths apart, as nothing else changes.
func (lk *companionLink) splice(d *tour.Dist, t, o, c []int32) ([]int32, int64, bool) {
	n, m := len(t), len(c)
	if m < 2 || m > n {
		return nil, 0, false
	}
	lk.newStamp(n)
	for _, ct := range c {
		lk.seen[ct] = lk.stamp
	}
	in := func(ct int32) bool { return lk.seen[ct] == lk.stamp }
	ta, td, ok := pathAt(t, c[0], c[m-1], m, in)
	if !ok {
		return nil, 0, false
	}
	oa, od, ok := pathAt(o, c[0], c[m-1], m, in)
	if !ok {
		return nil, 0, false
	}
	lk.spliced = append(lk.spliced[:0], t...)
	var gain int64
	prevT, prevO := c[0], c[0]
	for j := range m {
		pt := ((ta+td*j)%n + n) % n
		ct, co := t[pt], o[((oa+od*j)%n+n)%n]
		lk.spliced[pt] = co
		if j > 0 {
			gain += d.At(prevT, ct) - d.At(prevO, co)
		}
		prevT, prevO = ct, co
	}
	return lk.spliced, gain, true
}

// spent records the time since t0 as the engine's time spent on the
// companion.
func (lk *companionLink) spent(t0 time.Time) {
	if lk != nil {
		lk.x.Spent(time.Since(t0))
	}
}

// publish hands tour t (length l) to the companion.
func (lk *companionLink) publish(t []int32, l int64) {
	if lk != nil {
		lk.x.Publish(t, l)
	}
}

// isTour reports whether o is a permutation of 0..n-1.
func (lk *companionLink) isTour(o []int32, n int) bool {
	if len(o) != n {
		return false
	}
	lk.newStamp(n)
	for _, c := range o {
		if c < 0 || int(c) >= n || lk.seen[c] == lk.stamp {
			return false
		}
		lk.seen[c] = lk.stamp
	}
	return true
}

// newStamp starts a new marking of cities 0..n-1 in lk.seen: a city is
// marked when its entry equals lk.stamp.
func (lk *companionLink) newStamp(n int) {
	if len(lk.seen) != n {
		lk.seen, lk.stamp = make([]uint32, n), 0
	}
	lk.stamp++
	if lk.stamp == 0 {
		clear(lk.seen)
		lk.stamp = 1
	}
}

// keepsFixed reports whether every fixed edge joins neighbours of tour o.
func keepsFixed(o []int32, fixed [][2]int) bool {
	if len(fixed) == 0 {
		return true
	}
	pos := make([]int32, len(o))
	for i, c := range o {
		pos[c] = int32(i)
	}
	for _, e := range fixed {
		if !adjacent(pos, int32(e[0]), int32(e[1])) {
			return false
		}
	}
	return true
}

// companion folds the companion's offer into the partition search's tour
// and publishes the tour, between two rounds.
func (pr *partRun) companion() {
	lk := pr.r.comp
	if lk == nil {
		return
	}
	defer lk.spent(time.Now())
	if t, l := lk.crossIn(pr.global.d, pr.t, pr.length, pr.r.in.FixedEdges); l < pr.length {
		copy(pr.t, t)
		pr.length = l
		pr.r.c.offer(pr.t, pr.length)
	}
	lk.publish(pr.t, pr.length)
	pr.readClaim()
}
