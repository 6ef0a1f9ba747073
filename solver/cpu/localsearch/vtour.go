package localsearch

// vtour is the tour as a few 2-opt steps would leave it: a cyclic sequence of forward or backward runs of positions,
// so succ, pred and a step cost O(runs). Deeper sequential moves search on it (extendVirtual).
type vtour struct {
	s    *Search
	m    int
	runs [maxRuns]vrun
}

// vrun is positions lo..hi, walked down when rev.
type vrun struct {
	lo, hi int32
	rev    bool
}

// maxRuns bounds a vtour's runs: one and two more per step.
const maxRuns = 1 + 2*(MaxDepth+1)

// reset makes v s's tour as it is.
func (v *vtour) reset(s *Search) {
	v.s, v.m = s, 1
	v.runs[0] = vrun{0, int32(s.n - 1), false}
}

// find returns the index of the run holding position p.
func (v *vtour) find(p int32) int {
	for i := 0; i < v.m; i++ {
		if r := &v.runs[i]; p >= r.lo && p <= r.hi {
			return i
		}
	}
	panic("vtour: position outside every run")
}

// first is the city a run starts with, last the one it ends with.
func (v *vtour) first(r vrun) int32 {
	if r.rev {
		return v.s.tour[r.hi]
	}
	return v.s.tour[r.lo]
}

func (v *vtour) last(r vrun) int32 {
	if r.rev {
		return v.s.tour[r.lo]
	}
	return v.s.tour[r.hi]
}

func (v *vtour) succ(c int32) int32 {
	p := v.s.pos[c]
	if v.m == 1 {
		return v.s.succ(c)
	}
	i := v.find(p)
	r := v.runs[i]
	if !r.rev && p < r.hi {
		return v.s.tour[p+1]
	}
	if r.rev && p > r.lo {
		return v.s.tour[p-1]
	}
	i++
	if i == v.m {
		i = 0
	}
	return v.first(v.runs[i])
}

func (v *vtour) pred(c int32) int32 {
	p := v.s.pos[c]
	if v.m == 1 {
		return v.s.pred(c)
	}
	i := v.find(p)
	r := v.runs[i]
	if !r.rev && p > r.lo {
		return v.s.tour[p-1]
	}
	if r.rev && p < r.hi {
		return v.s.tour[p+1]
	}
	i--
	if i < 0 {
		i = v.m - 1
	}
	return v.last(v.runs[i])
}

// splitBefore makes c the first city of a run and returns that run.
func (v *vtour) splitBefore(c int32) int {
	p := v.s.pos[c]
	i := v.find(p)
	r := v.runs[i]
	var a, b vrun // a before b in the walk
	switch {
	case !r.rev && p == r.lo, r.rev && p == r.hi:
		return i
	case !r.rev:
		a, b = vrun{r.lo, p - 1, false}, vrun{p, r.hi, false}
	default:
		a, b = vrun{p + 1, r.hi, true}, vrun{r.lo, p, true}
	}
	copy(v.runs[i+2:v.m+1], v.runs[i+1:v.m])
	v.runs[i], v.runs[i+1] = a, b
	v.m++
	return i + 1
}

// reversePath reverses the walk from city a to city b (a first).
func (v *vtour) reversePath(a, b int32) {
	after := v.succ(b)
	if after == a {
		return // the whole tour: the same cycle
	}
	v.splitBefore(a)
	v.splitBefore(after)
	ia := v.find(v.s.pos[a])
	ie := v.find(v.s.pos[after])
	// runs ia .. ie-1 hold the path; when they wrap, reverse the rest instead
	lo, hi := ia, ie-1
	if ia > ie-1 {
		lo, hi = ie, ia-1
	}
	for lo < hi {
		v.runs[lo], v.runs[hi] = v.runs[hi], v.runs[lo]
		v.runs[lo].rev = !v.runs[lo].rev
		v.runs[hi].rev = !v.runs[hi].rev
		lo++
		hi--
	}
	if lo == hi {
		v.runs[lo].rev = !v.runs[lo].rev
	}
}

// move2 is Search.move2 on the virtual tour.
func (v *vtour) move2(a, b, c, dd int32) {
	if v.succ(a) == b {
		v.reversePath(b, c)
	} else {
		v.reversePath(c, b)
	}
}

// extendVirtual looks on v for further 2-opt steps breaking (last, t1) that close with a positive total gain (g2 before),
// up to s.depth steps; on success it applies the first step and the chain for real.
func (s *Search) extendVirtual(v *vtour, t1, t2, t3, t4, last int32, g2 int64, level int) bool {
	d := s.d
	tried := 0
	breadth := extendBreadth[min(level, len(extendBreadth)-1)]
	// last's neighbours and direction are the same for every candidate: read once, each read walking v's runs
	nx, pv := int32(-1), int32(-1)
	fwd := false
	for i, t5 := range s.nb[int(last)*s.k : int(last)*s.k+s.k] {
		g := g2 - s.nbDist(last, i, t5)
		if tried >= breadth {
			break
		}
		if g <= 0 {
			if s.ranked {
				continue
			}
			break
		}
		if nx < 0 {
			nx, pv, fwd = v.succ(last), v.pred(last), v.succ(t1) == last
		}
		if t5 == t1 || t5 == nx || t5 == pv {
			continue
		}
		var t6 int32
		if fwd {
			t6 = v.pred(t5)
		} else {
			t6 = v.succ(t5)
		}
		if t6 == t1 || s.isFixed(t5, t6) {
			continue
		}
		tried++
		s.moves++
		d56 := d.At(t5, t6)
		s.chain[2*level], s.chain[2*level+1] = t5, t6
		if gain := g + d56 - d.At(t6, t1); gain > 0 {
			s.chainLen = 2*level + 2
			s.applyChain(t1, t2, t3, t4)
			s.length -= gain
			return true
		}
		if level+1 < s.depth {
			w := &s.vt[level+1]
			*w = *v
			w.move2(last, t1, t5, t6)
			if s.extendVirtual(w, t1, t2, t3, t4, t6, g+d56, level+1) {
				return true
			}
		}
	}
	return false
}

// applyChain applies a sequential move found on a virtual tour: the first step, then each step of s.chain.
func (s *Search) applyChain(t1, t2, t3, t4 int32) {
	s.move2(t2, t1, t3, t4)
	last := t4
	for l := 0; l < s.chainLen; l += 2 {
		t5, t6 := s.chain[l], s.chain[l+1]
		s.move2(last, t1, t5, t6)
		last = t6
	}
}
