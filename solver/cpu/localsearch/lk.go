package localsearch

// The Lin–Kernighan step (Lin and Kernighan 1973, as chained
// Lin–Kernighan implementations run it): from t1 and a tour neighbour t2,
// a sequence of 2-opt flips, each adding an edge from the free end to one
// of its candidates and removing the tour edge beside that candidate that
// keeps one cycle, the closing edge back to t1 re-formed after every
// flip. The candidates of the first levels are ordered by the gain after
// their removed edge (a look-ahead) and followed lkBreadth wide, deeper
// levels follow the best one only, up to lkMaxDepth flips; an edge the
// step added is never removed again nor a removed one added. The flips
// are made on a virtual tour (vtour), and at the end of a path the flips
// up to the one after which closing gained most, when that gain is
// positive, are applied to the tour (each a reversal of the shorter side,
// journaled); otherwise the next candidate is tried.

// lkBreadth is how many candidates the first levels of an LK step follow;
// deeper levels follow one.
var lkBreadth = [...]int{lkWidest, 3, 3, 2}

// lkWidest is the breadth of the first level.
const lkWidest = 4

// lkMaxDepth bounds the flips of one LK step.
const lkMaxDepth = 25

// lkState is the scratch state of the LK step of one search.
type lkState struct {
	// the edges the step added and removed so far, as pairs
	added, removed []int32
	// best is the largest positive closing gain of the current path and
	// bestLevel the flip after which it closes; path the path's flips
	best      int64
	bestLevel int
	path      [lkMaxDepth]lkCand
	cands     [len(lkBreadth)][lkWidest]lkCand
	// vt[i] is the tour after the path's first i flips
	vt [lkMaxDepth + 1]vtour
}

// lkRuns is the room of an LK step's virtual tours: two runs a flip.
const lkRuns = 3 + 2*lkMaxDepth

// lkCand is a flip of an LK step: the edge (last, t3) added and (t3, t4)
// removed, g the gain before the closing edge.
type lkCand struct {
	t3, t4 int32
	g      int64
}

// tryLK is the LK step as the deep move: it applies the first improving
// step it finds from t1, trying both of t1's tour edges.
func tryLK(s *Search, t1 int32) bool {
	if s.lk == nil {
		s.lk = &lkState{}
	}
	k := s.lk
	for dir := 0; dir < 2; dir++ {
		t2 := s.succ(t1)
		if dir == 1 {
			t2 = s.pred(t1)
		}
		if s.isFixed(t1, t2) {
			continue
		}
		k.added, k.removed = k.added[:0], append(k.removed[:0], t1, t2)
		k.best = 0
		v := &k.vt[0]
		v.resetRoom(s, lkRuns)
		if !s.lkStep(v, t1, t2, s.d.At(t1, t2), 0) {
			continue
		}
		s.Push(t1)
		s.Push(t2)
		last := t2
		for _, c := range k.path[:k.bestLevel+1] {
			s.move2(last, t1, c.t3, c.t4)
			s.Push(c.t3)
			s.Push(c.t4)
			last = c.t4
		}
		s.length -= k.best
		return true
	}
	return false
}

// lkStep extends the step whose free end is last on the virtual tour v,
// with gain G before the closing edge (last, t1), by one flip at depth
// level and deeper. It reports whether the path ended with a positive
// closing gain (k.best after k.path's first k.bestLevel+1 flips).
func (s *Search) lkStep(v *vtour, t1, last int32, G int64, level int) bool {
	k := s.lk
	d := s.d
	breadth := 1
	if level < len(lkBreadth) {
		breadth = lkBreadth[level]
	}
	var one [1]lkCand
	cands := one[:0]
	if level < len(k.cands) {
		cands = k.cands[level][:0]
	}
	fwd := v.succ(t1) == last
	sl, pl := v.succ(last), v.pred(last)
	// past the levels that backtrack, an added edge must leave more
	// than the best close so far and a little more each level
	floor := int64(0)
	if level >= len(lkBreadth) {
		floor = k.best + int64(level)
	}
	for i, t3 := range s.nb[int(last)*s.k : int(last)*s.k+s.k] {
		g1 := G - s.nbDist(last, i, t3)
		if g1 <= floor {
			break
		}
		if t3 == t1 || t3 == sl || t3 == pl || lkHas(k.removed, last, t3) {
			continue
		}
		// walking from last to t1 and on reaches t3 before t4
		var t4 int32
		if fwd {
			t4 = v.pred(t3)
		} else {
			t4 = v.succ(t3)
		}
		if t4 == t1 || s.isFixed(t3, t4) || lkHas(k.added, t3, t4) {
			continue
		}
		s.moves++
		g := g1 + d.At(t3, t4)
		// insert by g, largest first, keeping breadth
		j := len(cands)
		if j < breadth {
			cands = cands[:j+1]
		} else if g <= cands[j-1].g {
			continue
		} else {
			j--
		}
		for ; j > 0 && cands[j-1].g < g; j-- {
			cands[j] = cands[j-1]
		}
		cands[j] = lkCand{t3, t4, g}
	}
	for _, c := range cands {
		// a flip after which no candidate of t4 gains (its nearest is
		// the first) and whose close does not gain is never made
		cg := c.g - d.At(c.t4, t1)
		deeper := level+1 < lkMaxDepth && c.g > s.nbDist(c.t4, 0, s.nb[int(c.t4)*s.k])
		if cg <= k.best && !deeper {
			continue
		}
		k.path[level] = c
		if cg > k.best {
			k.best, k.bestLevel = cg, level
		}
		if !deeper {
			return true
		}
		na, nr := len(k.added), len(k.removed)
		k.added = append(k.added, last, c.t3)
		k.removed = append(k.removed, c.t3, c.t4)
		w := &k.vt[level+1]
		w.copyFrom(v)
		w.move2(last, t1, c.t3, c.t4)
		if s.lkStep(w, t1, c.t4, c.g, level+1) {
			return true
		}
		k.added, k.removed = k.added[:na], k.removed[:nr]
	}
	// the end of a path: its best close, if it gains
	return k.best > 0
}

// lkHas reports whether the edge (a, b) is among the pairs of e.
func lkHas(e []int32, a, b int32) bool {
	for i := 0; i+1 < len(e); i += 2 {
		if (e[i] == a && e[i+1] == b) || (e[i] == b && e[i+1] == a) {
			return true
		}
	}
	return false
}
