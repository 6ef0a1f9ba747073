package ils

import (
	"slices"
	"sync"
	"time"
)

// merger is the exchange of share "merge": every worker kicks in its own
// stretch of a common base tour, and the exchange applies to the base each
// worker's changes (the cities whose tour neighbours differ from the
// base's) that touch no city an earlier one changed and keep the tour one
// cycle, the shortest worker first. So the workers' kicks add up on one
// tour instead of finding the same improvements apart.
type merger struct {
	base    []int32 // the tour every worker started the epoch from
	basePos []int32
	baseLen int64
	// stretches: each worker's consecutive cities of the base, whose
	// descent is its own; regions: their first cities, those a kick
	// starts at; owner: the worker whose stretch holds a city
	stretches, regions [][]int32
	owner              []int32
	// aside: per worker, the cities its descent queued in other stretches,
	// handed to their owners at the merge (handOver); queued marks the
	// cities handOver collects
	aside   [][]int32
	queued  []bool
	touched [][]int32 // per worker: the cities whose neighbours changed
	// the merged tour as neighbour pairs, and the cities already changed
	// in this exchange (stamp == epoch)
	adj   []int32
	stamp []int32
	epoch int32
	old   []int32
}

// mergeEpoch is the time between the merges of a timed run: 200 ms was
// ahead of epochs of 50 and 200 kicks, whose barrier waits for the slowest
// worker (docs/DECISIONS.md#merge-epoch).
const mergeEpoch = 200 * time.Millisecond

// setBase makes t (length l) the base every worker takes and cuts it into
// stretches of consecutive cities from a random position, one a worker.
func (r *ilsRun) setBase(t []int32, l int64) {
	m := &r.mg
	n := len(t)
	if m.base == nil {
		m.base, m.basePos = make([]int32, n), make([]int32, n)
		m.adj, m.stamp = make([]int32, 2*n), make([]int32, n)
		m.owner, m.queued = make([]int32, n), make([]bool, n)
		m.stretches, m.regions = make([][]int32, r.w), make([][]int32, r.w)
		m.aside, m.touched = make([][]int32, r.w), make([][]int32, r.w)
		r.draining = make([]bool, r.w)
	}
	copy(m.base, t)
	for i, c := range t {
		m.basePos[c] = int32(i)
	}
	m.baseLen = l
	m.cut(r.searches[0].Rand().Intn(n), 2*r.o.cfg.maxSeg)
	for wk, s := range r.searches {
		if s.Length() != l || !slices.Equal(s.Tour(), t) {
			r.take(wk, t, m.basePos, l)
		}
		s.SetKickFrom(m.regions[wk])
	}
	r.handOver()
}

// cut cuts the base into len(m.stretches) stretches of consecutive
// cities from position off; a kick's two segments run on from its start,
// up to spill cities, so the last spill cities of a long stretch start
// none (its region ends before them).
func (m *merger) cut(off, spill int) {
	n, w := len(m.base), len(m.stretches)
	for wk := range w {
		lo, hi := wk*n/w, (wk+1)*n/w
		st := m.stretches[wk][:0]
		for i := lo; i < hi; i++ {
			c := m.base[(i+off)%n]
			st = append(st, c)
			m.owner[c] = int32(wk)
		}
		m.stretches[wk] = st
		if hi-lo > 2*spill {
			hi -= spill
		}
		m.regions[wk] = st[:hi-lo]
	}
}

// handOver queues every city a worker has queued or set aside with the
// worker whose stretch of the base holds it, in tour order: each city
// once, each worker descending its own stretch. Left where they were,
// the queues of a descent spread over the other stretches, so that the
// workers descended the same cities apart and the merge kept one of
// each (docs/DECISIONS.md#drain-own-stretch).
func (r *ilsRun) handOver() {
	m := &r.mg
	some := false
	for wk, s := range r.searches {
		for s.Queued() > 0 {
			m.queued[s.Pop()], some = true, true
		}
		for _, c := range m.aside[wk] {
			m.queued[c], some = true, true
		}
		m.aside[wk] = m.aside[wk][:0]
	}
	if !some {
		return
	}
	for _, c := range m.base {
		if m.queued[c] {
			m.queued[c] = false
			r.searches[m.owner[c]].Push(c)
		}
	}
}

// exchangeMerge merges the workers' changes into the base tour (merger)
// and gives every worker the result, cut into new stretches.
func (r *ilsRun) exchangeMerge() {
	m := &r.mg
	n := len(m.base)
	var wg sync.WaitGroup
	for wk, s := range r.searches {
		m.touched[wk] = m.touched[wk][:0]
		if s.Length() <= m.baseLen {
			wg.Go(func() { m.touched[wk] = m.diff(s.Tour(), m.touched[wk]) })
		}
	}
	wg.Wait()
	for i, c := range m.base {
		m.adj[2*c], m.adj[2*c+1] = m.base[(i+n-1)%n], m.base[(i+1)%n]
	}
	m.epoch++
	l, merged := m.baseLen, 0
	// the shortest first, so the result is never longer than any
	// worker's tour; ties (changes of equal length, drift across a
	// plateau) are merged too
	order := r.byLength()
	for _, wk := range order {
		s, tc := r.searches[wk], m.touched[wk]
		if s.Length() > m.baseLen {
			break
		}
		if len(tc) == 0 {
			continue
		}
		if slices.ContainsFunc(tc, func(c int32) bool { return m.stamp[c] == m.epoch }) {
			r.redo(wk)
			continue
		}
		m.old = m.old[:0]
		for _, c := range tc {
			m.old = append(m.old, m.adj[2*c], m.adj[2*c+1])
			m.adj[2*c], m.adj[2*c+1] = s.Pred(c), s.Succ(c)
		}
		if m.cycleLen(tc[0]) != n {
			for i, c := range tc {
				m.adj[2*c], m.adj[2*c+1] = m.old[2*i], m.old[2*i+1]
			}
			r.redo(wk)
			continue
		}
		for _, c := range tc {
			m.stamp[c] = m.epoch
		}
		// the changes share no city, so no edge: their gains add up
		l -= m.baseLen - s.Length()
		merged++
	}
	if merged == 0 {
		// no worker changed the base without lengthening it
		r.setBase(m.base, m.baseLen)
		return
	}
	t := m.walk(make([]int32, 0, n))
	r.c.Offer(t, l)
	r.setBase(t, l)
}

// diff appends to out the cities whose neighbours in t differ from the
// base's.
func (m *merger) diff(t []int32, out []int32) []int32 {
	n := len(t)
	for i, c := range t {
		p, q := t[(i+n-1)%n], t[(i+1)%n]
		j := int(m.basePos[c])
		bp, bq := m.base[(j+n-1)%n], m.base[(j+1)%n]
		if !(p == bp && q == bq) && !(p == bq && q == bp) {
			out = append(out, c)
		}
	}
	return out
}

// next is the merged graph's neighbour of cur other than prev.
func (m *merger) next(prev, cur int32) int32 {
	if nx := m.adj[2*cur]; nx != prev {
		return nx
	}
	return m.adj[2*cur+1]
}

// cycleLen is the length of the merged graph's cycle through c (at most
// n+1: the graph is one of cycles, every city of degree two).
func (m *merger) cycleLen(c int32) int {
	prev, cur, k := int32(-1), c, 0
	for k <= len(m.stamp) {
		prev, cur = cur, m.next(prev, cur)
		k++
		if cur == c {
			break
		}
	}
	return k
}

// walk appends the merged cycle to t from the base's first city.
func (m *merger) walk(t []int32) []int32 {
	prev, cur := int32(-1), m.base[0]
	for range len(m.stamp) {
		t = append(t, cur)
		prev, cur = cur, m.next(prev, cur)
	}
	return t
}
