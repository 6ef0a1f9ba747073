package partition

// The LK step's alternate second level: where t2 follows t1 and no
// plain step from (t1, t2) gains, the edge (t2, t3) is added with t4
// after t3, which alone would split the tour, and a third exchange
// mends it: t5 a candidate of t4 between t2 and t3 (t6 either side of
// it), or beyond t3 (t6 before it) with a fourth exchange t7 between t2
// and t3 (t8 either side). The resulting tour's step goes on from
// (t1, t6) or (t1, t8) at level 2 or 3, as Lin and Kernighan's step
// does; each case is a sequence of 2-opt flips.

// altBreadth is how many of each level's choices the alternate step
// follows.
var altBreadth = [3]int{4, 3, 3}

// altCand is a choice of the alternate step: the edge (a, b) removed
// after an edge to a is added, diff the added less the removed length;
// in says a lies between t2 and t3, side that b follows a.
type altCand struct {
	a, b     int32
	diff     int64
	in, side bool
}

// altKeep inserts c among the breadth best (smallest diff) choices of cs.
func altKeep(cs []altCand, breadth int, c altCand) []altCand {
	j := len(cs)
	if j < breadth {
		cs = append(cs, c)
	} else if c.diff >= cs[j-1].diff {
		return cs
	} else {
		j--
	}
	for ; j > 0 && cs[j-1].diff > c.diff; j-- {
		cs[j] = cs[j-1]
	}
	cs[j] = c
	return cs
}

// alternate tries the alternate second level from t1 and its tour
// neighbour t2. It reports whether it found a step that gains, left made
// as improve expects (s.best after s.bestAt flips since mark); otherwise
// the tour is as it was, though perhaps held the other way round, so the
// direction from t1 to t2 is read again after every undo.
func (s *solo) alternate(t1, t2 int32, mark int) bool {
	fwd := s.l.Next(t1) == t2
	d12 := s.dist(t1, t2)
	var b3 [4]altCand
	c3 := b3[:0]
	t2n := s.succ(fwd, t2)
	for _, e := range s.nb[s.at[t2]:s.at[t2+1]] {
		t3, d23 := e.c, s.rowDist(t2, e)
		if d23 > d12 {
			break
		}
		if t3 == t1 || t3 == t2n {
			continue
		}
		if t4 := s.succ(fwd, t3); t4 != t1 {
			c3 = altKeep(c3, altBreadth[0], altCand{a: t3, b: t4, diff: d23 - s.dist(t3, t4)})
		}
	}
	for _, h := range c3 {
		if s.altThird(t1, t2, h.a, h.b, d12-h.diff, mark) {
			return true
		}
	}
	return false
}

// altThird tries the third exchanges after the edge (t2, t3) added and
// (t3, t4) removed, g2 the gain so far, and reports whether a step gains
// as alternate does: a t5 between t2 and t3 mends the tour at once, one
// beyond t3 needs a fourth exchange (altFourth).
func (s *solo) altThird(t1, t2, t3, t4 int32, g2 int64, mark int) bool {
	fwd := s.l.Next(t1) == t2
	t4n := s.succ(fwd, t4)
	var b5 [4]altCand
	c5 := b5[:0]
	for _, e := range s.nb[s.at[t4]:s.at[t4+1]] {
		t5, d45 := e.c, s.rowDist(t4, e)
		if d45 > g2 {
			break
		}
		if t5 == t1 || t5 == t2 || t5 == t3 || t5 == t4n {
			continue
		}
		if s.between(fwd, t2, t5, t3) {
			t6 := s.pred(fwd, t5)
			c5 = altKeep(c5, altBreadth[1], altCand{a: t5, b: t6, diff: d45 - s.dist(t5, t6), in: true})
			t6 = s.succ(fwd, t5)
			c5 = altKeep(c5, altBreadth[1], altCand{a: t5, b: t6, diff: d45 - s.dist(t5, t6), in: true, side: true})
		} else {
			t6 := s.pred(fwd, t5)
			c5 = altKeep(c5, altBreadth[1], altCand{a: t5, b: t6, diff: d45 - s.dist(t5, t6)})
		}
	}
	for _, e := range c5 {
		t5, t6 := e.a, e.b
		G := g2 - e.diff
		if !e.in {
			if s.altFourth(t1, t2, t3, t4, t5, t6, t4n, G, mark) {
				return true
			}
			continue
		}
		if s.hopeless(t1, t6, G) {
			continue
		}
		// t1 [t2..t6][t5..t3] t4 to t1 [t6..t2][t3..t5] t4, or
		// t1 [t2..t5][t6..t3] t4 to t1 [t6..t3][t2..t5] t4
		if !e.side {
			s.move(t1, t2, t6, t5)
			s.move(t2, t5, t3, t4)
		} else {
			s.move(t1, t2, t3, t4)
			s.move(t1, t3, t6, t5)
			s.move(t3, t5, t2, t4)
		}
		if s.altGo(t1, t6, G, 2, mark, t2, t3, t4, t5, t6) {
			return true
		}
	}
	return false
}

// altFourth tries the fourth exchanges that mend the tour after a t5
// beyond t3 and t6 before it, G the gain so far (t7 a candidate of t6
// between t2 and t3, t8 either side of it), and reports whether a step
// gains as alternate does.
func (s *solo) altFourth(t1, t2, t3, t4, t5, t6, t4n int32, G int64, mark int) bool {
	fwd := s.l.Next(t1) == t2
	var b7 [4]altCand
	c7 := b7[:0]
	for _, e := range s.nb[s.at[t6]:s.at[t6+1]] {
		t7, d67 := e.c, s.rowDist(t6, e)
		if d67 > G {
			break
		}
		if t7 == t1 || t7 == t2 || t7 == t3 || t7 == t4n || !s.between(fwd, t2, t7, t3) {
			continue
		}
		t8 := s.pred(fwd, t7)
		c7 = altKeep(c7, altBreadth[2], altCand{a: t7, b: t8, diff: d67 - s.dist(t7, t8)})
		t8 = s.succ(fwd, t7)
		c7 = altKeep(c7, altBreadth[2], altCand{a: t7, b: t8, diff: d67 - s.dist(t7, t8), side: true})
	}
	for _, f := range c7 {
		t7, t8 := f.a, f.b
		if s.hopeless(t1, t8, G-f.diff) {
			continue
		}
		// t1 [t2..t8][t7..t3][t4..t6] t5 to
		// t1 [t8..t2][t3..t7][t6..t4] t5, or
		// t1 [t2..t7][t8..t3][t4..t6] t5 to
		// t1 [t8..t3][t2..t7][t6..t4] t5
		if !f.side {
			s.move(t1, t2, t8, t7)
			s.move(t2, t7, t3, t4)
			s.move(t7, t4, t6, t5)
		} else {
			s.move(t1, t2, t6, t5)
			s.move(t1, t6, t8, t7)
			s.move(t3, t4, t2, t5)
		}
		if s.altGo(t1, t8, G-f.diff, 3, mark, t2, t3, t4, t5, t6, t7, t8) {
			return true
		}
	}
	return false
}

// altGo goes on from an alternate step's tour, last next to t1 and G its
// gain before the closing edge, the exchanged cities t2, t3, ... in
// order (edges added t2t3, t4t5, t6t7, removed t3t4, t5t6, t7t8): the
// closing edge's gain counts, then the plain step at level. It reports
// whether the step gains; if not, the flips since mark are undone.
func (s *solo) altGo(t1, last int32, G int64, level, mark int, t ...int32) bool {
	if cg := G - s.dist(last, t1); cg > s.best {
		s.best, s.bestAt = cg, len(s.log)-mark
	}
	na, nr := s.added.n(), s.removed.n()
	for i := 0; i+1 < len(t); i++ {
		if i%2 == 0 {
			s.added.add(t[i], t[i+1])
		} else {
			s.removed.add(t[i], t[i+1])
		}
	}
	ok := s.step(t1, last, G, level, mark)
	s.added.drop(na)
	s.removed.drop(nr)
	if ok || s.best > 0 {
		return true
	}
	s.undo(mark)
	return false
}

// hopeless tells whether an alternate step whose tour would have last
// next to t1, its gain G before the closing edge, can gain nothing that
// altGo would keep: no best close yet, the closing edge gains no more,
// and the plain step at levels 2 and 3 (a floor of 0) finds no candidate
// of last nearer than G. Its flips would only be undone, so they are
// not made.
func (s *solo) hopeless(t1, last int32, G int64) bool {
	// the row's first candidate before the closing edge's distance, which
	// altGo computes again where the step goes on
	return s.best <= 0 && G <= s.nearest(last) && G-s.dist(last, t1) <= s.best
}

// succ is the city after x in the direction fwd (Next, else Prev).
func (s *solo) succ(fwd bool, x int32) int32 {
	if fwd {
		return s.l.Next(x)
	}
	return s.l.Prev(x)
}

// pred is the city before x in the direction fwd.
func (s *solo) pred(fwd bool, x int32) int32 {
	if fwd {
		return s.l.Prev(x)
	}
	return s.l.Next(x)
}

// between reports whether b lies on the path from a to c in the
// direction fwd.
func (s *solo) between(fwd bool, a, b, c int32) bool {
	if fwd {
		return s.l.Between(a, b, c)
	}
	return s.l.Between(c, b, a)
}
