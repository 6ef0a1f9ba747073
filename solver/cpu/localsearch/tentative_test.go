package localsearch

// The reference the virtual close3 functions are tested against: it
// applies every step of a chain and undoes the failed ones.

// setTentative makes s's chains apply each step and undo it.
func setTentative(s *Search) { s.close3 = (*Search).closeTentative }

// closeTentative is the reference close3 function.
func (s *Search) closeTentative(t1, t2, t3, t4 int32, g2 int64) bool {
	j0 := len(s.journal)
	rec := s.record
	s.record = true
	s.move2(t2, t1, t3, t4)
	ok := s.extend(t1, t4, g2, 0)
	if !ok {
		s.undoTo(j0)
	} else if !rec {
		s.journal = s.journal[:j0]
	}
	s.record = rec
	if ok {
		s.pushChain(t1, t2, t3, t4)
	}
	return ok
}

// extend looks for a 2-opt step that breaks the tentative edge (last, t1)
// and closes the tour with a positive total gain, given g2, the gain of
// the chain before (last, t1) was added. A step that does not close with
// a gain is applied tentatively and extended again, up to s.depth steps
// (a move of up to s.depth+2 exchanged edges). On success the steps stay
// applied, the length is updated and the steps' cities are in
// s.chain[:s.chainLen].
func (s *Search) extend(t1, last int32, g2 int64, level int) bool {
	d := s.d
	tried := 0
	breadth := extendBreadth[min(level, len(extendBreadth)-1)]
	for i, t5 := range s.nb[int(last)*s.k : int(last)*s.k+s.k] {
		g := g2 - s.nbDist(last, i, t5)
		if g <= 0 || tried >= breadth {
			break
		}
		if t5 == t1 || t5 == s.succ(last) || t5 == s.pred(last) {
			continue
		}
		t6 := s.succ(t5)
		if s.succ(t1) == last {
			t6 = s.pred(t5)
		}
		if t6 == t1 || s.isFixed(t5, t6) {
			continue
		}
		tried++
		s.moves++
		d56 := d.At(t5, t6)
		s.chain[2*level], s.chain[2*level+1] = t5, t6
		if gain := g + d56 - d.At(t6, t1); gain > 0 {
			s.move2(last, t1, t5, t6)
			s.length -= gain
			s.chainLen = 2*level + 2
			return true
		}
		if level+1 < s.depth {
			mark := len(s.journal)
			s.move2(last, t1, t5, t6)
			if s.extend(t1, t6, g+d56, level+1) {
				return true
			}
			s.undoTo(mark)
		}
	}
	return false
}
