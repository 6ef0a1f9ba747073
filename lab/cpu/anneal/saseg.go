package anneal

// PSPM's segment moves (Or-opt) of 1 to seg cities, as the GPU kernel's (lab/gpu/pspm/pspm.cu); one evaluated move counts one.

// saMove is a segment move: l cities from first along next go between p and next p (rev: reversed).
type saMove struct {
	first, p int32
	l        int
	rev      bool
}

// segFirst returns the tour-order first city of the l cities from c (fwd: along next).
func (s *saSearch) segFirst(c int32, l int, fwd bool) int32 {
	if fwd {
		return c
	}
	for k := 1; k < l; k++ {
		c = s.l.Prev[c]
	}
	return c
}

// inSeg reports whether x is one of the l cities from first along next.
func (s *saSearch) inSeg(x, first int32, l int) bool {
	for k := 0; k < l; k++ {
		if x == first {
			return true
		}
		first = s.l.Next[first]
	}
	return false
}

// deltaSeg prices move m (p outside the segment and not just before it).
func (s *saSearch) deltaSeg(m saMove) int64 {
	if m.l == 1 {
		return s.deltaMove(m.first, m.p)
	}
	last := m.first
	for k := 1; k < m.l; k++ {
		last = s.l.Next[last]
	}
	a, b, q := s.l.Prev[m.first], s.l.Next[last], s.l.Next[m.p]
	out := s.edge[a] + s.edge[last] - s.d.At(a, b)
	pe, qe := m.first, last
	if m.rev {
		pe, qe = last, m.first
	}
	return s.d.At(m.p, pe) + s.d.At(qe, q) - s.edge[m.p] - out
}

// proposeSeg draws a segment move and returns its delta; with near moves, half of them put c beside a nearest city.
func (s *saSearch) proposeSeg() (saMove, int64) {
	c := int32(s.r.Intn(s.n))
	l := 1 + s.r.Intn(s.seg)
	bits := s.r.Uint64()
	first := s.segFirst(c, l, bits&1 == 0)
	if s.near && bits&2 == 0 {
		x := s.nb[int(c)*s.k+s.r.Intn(s.k)]
		after := bits&4 == 0 // c after x, else before it
		p, q := x, s.l.Next[x]
		if !after {
			p, q = s.l.Prev[x], x
		}
		if !s.inSeg(p, first, l) && !s.inSeg(q, first, l) {
			// c beside p: reversed unless c is the first city
			m := saMove{first: first, p: p, l: l, rev: (c == first) != after}
			return m, s.deltaSeg(m)
		}
	}
	a := s.l.Prev[first]
	m := saMove{first: first, l: l, rev: bits&8 == 0}
	for {
		m.p = int32(s.r.Intn(s.n))
		if m.p != a && !s.inSeg(m.p, first, l) {
			break
		}
	}
	return m, s.deltaSeg(m)
}

// applySeg makes move m as its segment's relocations (journaled); a worse move first saves the best (LWSA).
func (s *saSearch) applySeg(m saMove, delta int64) {
	if delta > 0 && s.cur < s.bestLen {
		s.bestLen = s.cur
		s.journal, s.journaling = s.journal[:0], true
	}
	var seg [3]int32
	seg[0] = m.first
	for k := 1; k < m.l; k++ {
		seg[k] = s.l.Next[seg[k-1]]
	}
	a, b, q := s.l.Prev[m.first], s.l.Next[seg[m.l-1]], s.l.Next[m.p]
	for k, x := range seg[:m.l] {
		to := m.p // reversed: each city right after p
		if k > 0 && !m.rev {
			to = seg[k-1]
		}
		if s.journaling {
			s.journal = append(s.journal, saUndo{x, s.l.Prev[x]})
		}
		s.l.Relocate(int(x), int(to))
	}
	s.cur += delta
	edges := [5]int32{a, m.p, seg[0], seg[1], seg[2]}
	for _, x := range edges[:2+m.l] {
		s.edge[x] = s.d.At(x, s.l.Next[x])
	}
	gains := [7]int32{a, b, m.p, q, seg[0], seg[1], seg[2]}
	for _, x := range gains[:4+m.l] {
		s.fixGain(x)
	}
	if len(s.journal) > s.n/journalShare {
		s.fold()
	}
}

// iterateSeg is iterate with segment moves.
func (s *saSearch) iterateSeg(t float64, pm int) {
	m, delta := s.proposeSeg()
	for k := 1; k < pm; k++ {
		m2, d2 := s.proposeSeg()
		if d2 < delta {
			m, delta = m2, d2
		}
	}
	if metropolis(s.r, delta, t) {
		s.applySeg(m, delta)
	}
}
