package localsearch

// The bridge move is the non-sequential 4-opt double bridge: a gaining 2-exchange that splits the tour into two
// cycles, joined by a second through the smaller cycle (within bridgeMaxCycle cities). On drilling instances such
// moves separate the 5-opt move's optima from LKH-3's tours (docs/DECISIONS.md#bridge).

// bridgeMaxCycle is the most cities of the smaller cycle the bridge move tries (1,000 beat 50 on rl5934).
const bridgeMaxCycle = 1000

// tryBridge applies the first improving bridge move from t1 (it needs the 5-opt state).
func (s *Search) tryBridge(t1 int32) bool {
	k := s.k5
	d := s.d
	n := int32(s.n)
	for dir := 0; dir < 2; dir++ {
		next := s.succ
		if dir == 1 {
			next = s.pred
		}
		t2 := next(t1)
		if s.isFixed(t1, t2) {
			continue
		}
		d12 := d.At(t1, t2)
		nb := s.nb[int(t2)*s.k : int(t2)*s.k+s.k]
		for i, t3 := range nb {
			g1 := d12 - s.nbDist(t2, i, t3)
			if g1 <= 0 {
				if s.ranked {
					continue
				}
				break
			}
			t4 := next(t3)
			if t3 == t1 || t4 == t1 || t4 == t2 || s.isFixed(t3, t4) {
				continue
			}
			s.moves++
			G := g1 + d.At(t3, t4) - d.At(t4, t1)
			if G <= 0 {
				continue
			}
			// the cycles as forward arcs of positions, by the split's direction
			a1, b1, a2, b2 := s.pos[t2], s.pos[t3], s.pos[t4], s.pos[t1]
			if dir == 1 {
				a1, b1, a2, b2 = s.pos[t3], s.pos[t2], s.pos[t1], s.pos[t4]
			}
			l1 := (b1-a1+n)%n + 1
			if l1 > n-l1 {
				a1, b1, a2, b2, l1 = a2, b2, a1, b1, n-l1
			}
			if l1 < 2 || l1 > bridgeMaxCycle {
				continue
			}
			k.t[0], k.t[1], k.t[2], k.t[3] = t1, t2, t3, t4
			if s.bridgeClose(G, a1, l1, a2, b2) {
				return true
			}
		}
	}
	return false
}

// bridgeClose joins the split's two cycles (gain G) by the first join that makes the move gain.
func (s *Search) bridgeClose(G int64, a, l, lo, hi int32) bool {
	k := s.k5
	d := s.d
	n := int32(s.n)
	for x := int32(0); x < l-1; x++ {
		p := a + x
		if p >= n {
			p -= n
		}
		q := p + 1
		if q == n {
			q = 0
		}
		u, w := s.tour[p], s.tour[q]
		if s.isFixed(u, w) {
			continue
		}
		duw := d.At(u, w)
		for side := 0; side < 2; side++ {
			t5, t6 := u, w
			if side == 1 {
				t5, t6 = w, u
			}
			nb := s.nb[int(t6)*s.k : int(t6)*s.k+s.k]
			for i, t7 := range nb {
				g := G + duw - s.nbDist(t6, i, t7)
				if g <= 0 {
					if s.ranked {
						continue
					}
					break
				}
				if !inArc(s.pos[t7], lo, hi) {
					continue
				}
				for _, t8 := range [2]int32{s.succ(t7), s.pred(t7)} {
					s.moves++
					if !inArc(s.pos[t8], lo, hi) || s.isFixed(t7, t8) || (t7 == k.t[0] && t8 == k.t[3]) || (t7 == k.t[3] && t8 == k.t[0]) {
						continue
					}
					gain := g + d.At(t7, t8) - d.At(t8, t5)
					if gain <= 0 {
						continue
					}
					k.t[4], k.t[5], k.t[6], k.t[7] = t5, t6, t7, t8
					if !s.kFeasibleMates(4, bridgeMate) {
						continue
					}
					s.kApply(4)
					s.length -= gain
					for _, c := range k.t[:8] {
						s.Push(c)
					}
					return true
				}
			}
		}
	}
	return false
}

// bridgeMate is the slot a bridge move's added edge joins slot x to.
func bridgeMate(x int8, _ int) int8 {
	return [8]int8{3, 2, 1, 0, 7, 6, 5, 4}[x]
}
