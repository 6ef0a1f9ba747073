package localsearch

import "slices"

// The sequential 5-opt move (Lin–Kernighan as in Helsgaun 2000 and 2009): remove (t1,t2), add (t2,t3), and so on
// to (t9,t10), closing with (t2k,t1) when the gain is positive and the tour stays one cycle (kFeasible); partial gains
// stay positive. The first such close is applied (kApply, journaled).

// maxK is the most edges a sequential move exchanges.
const maxK = 5

// FiveOpt is the state of the 5-opt move of one local search.
type FiveOpt struct {
	// breadth[i] is the candidates added edge i+1 follows
	breadth [maxK - 1]int
	t       [2 * maxK]int32 // t1..t2k at t[0..2k-1]; removed edge i is (t[2i], t[2i+1])

	// the last feasibility check: the segments in tour order and the new tour as segments from segment 0
	first, last [maxK]int32
	seq         [maxK]int8 // segment index, +1, negated when reversed

	// the chain of try5opt: its gain (base), the best open step (openT, openK, openG) and the cities to queue
	base    int64
	openT   [2 * maxK]int32
	openK   int
	openG   int64
	touched []int32

	// the chain's excludable edges: orig[c] holds c's untouched old neighbours where mark[c] is the chain's id
	id   int32
	mark []int32
	orig [][2]int32
}

// kBreadth is the default breadth per level of the 5-opt move: narrow from the second level on, so that a descent
// evaluates a third of the moves of 5, 5, 3, 2 (830 a city against 2,760 in BenchmarkFiveOptDescent) at nearly the same
// depth (docs/DECISIONS.md#lk5-breadth).
var kBreadth = [maxK - 1]int{5, 3, 2, 1}

// NewFiveOpt returns a 5-opt move's scratch state for MoveSet.FiveOpt.
func NewFiveOpt() *FiveOpt { return &FiveOpt{breadth: kBreadth} }

// try5opt applies the first improving sequential move from t1: a 5-opt step, or else a Lin–Kernighan chain of the best
// feasible open steps, whose last removed edge must be excludable (as in LKH); a chain that never gains is undone
// (docs/DECISIONS.md#lk5-chains).
func (s *Search) try5opt(t1 int32) bool {
	k := s.k5
	for dir := 0; dir < 2; dir++ {
		t2 := s.succ(t1)
		if dir == 1 {
			t2 = s.pred(t1)
		}
		if s.isFixed(t1, t2) {
			continue
		}
		k.t[0], k.t[1] = t1, t2
		k.base, k.touched = 0, k.touched[:0]
		k.newChain(s.n)
		mark, rec, len0 := len(s.journal), s.record, s.length
		s.record = true
		G := s.d.At(t1, t2)
		ok := false
		for {
			k.openK, k.openG = 0, 0
			if s.kStep(1, G) {
				ok = true
				break
			}
			if k.openK == 0 {
				break
			}
			// the best open step, closed with a loss for now
			kk := k.openK
			k.t = k.openT
			for i := 0; i < kk; i++ {
				k.exclude(s, k.t[2*i], k.t[2*i+1])
			}
			s.kFeasible(kk)
			s.kApply(kk)
			closed := k.openG - s.d.At(k.t[2*kk-1], t1)
			s.length -= closed - k.base
			k.base = closed
			k.touched = append(k.touched, k.t[:2*kk]...)
			k.t[1] = k.t[2*kk-1]
			G = k.openG
		}
		s.record = rec
		if ok {
			if !rec {
				s.journal = s.journal[:mark]
			}
			for _, x := range k.touched {
				s.Push(x)
			}
			return true
		}
		if len(k.touched) > 0 {
			s.undoTo(mark)
			s.length = len0
		}
	}
	return false
}

// newChain starts a chain: no edge is marked removed.
func (k *FiveOpt) newChain(n int) {
	if len(k.mark) != n {
		k.mark, k.orig, k.id = make([]int32, n), make([][2]int32, n), 0
	}
	if k.id++; k.id == 1<<30 {
		clear(k.mark)
		k.id = 1
	}
}

// exclude records that the chain removes the tour edge (a, b).
func (k *FiveOpt) exclude(s *Search, a, b int32) {
	for _, e := range [2][2]int32{{a, b}, {b, a}} {
		c, o := e[0], e[1]
		if k.mark[c] != k.id {
			k.mark[c], k.orig[c] = k.id, [2]int32{s.pred(c), s.succ(c)}
		}
		for i := range k.orig[c] {
			if k.orig[c][i] == o {
				k.orig[c][i] = -1
			}
		}
	}
}

// excludable reports whether tour edge (a, b) predates the chain and is not removed by it.
func (k *FiveOpt) excludable(a, b int32) bool {
	return k.mark[a] != k.id || k.mark[b] != k.id || k.orig[a][0] == b || k.orig[a][1] == b
}

// kStep extends a chain of i removed edges of gain G by an added and a removed edge, then closes or goes deeper; at the
// deepest level it keeps the best feasible excludable close for the chain's next step.
func (s *Search) kStep(i int, G int64) bool {
	k := s.k5
	d := s.d
	t1, last := k.t[0], k.t[2*i-1]
	sl, pl := s.succ(last), s.pred(last)
	tried := 0
	for ci, c := range s.nb[int(last)*s.k : int(last)*s.k+s.k] {
		g := G - s.nbDist(last, ci, c)
		if tried >= k.breadth[i-1] {
			break
		}
		if g <= 0 {
			if s.ranked {
				continue
			}
			break
		}
		if c == sl || c == pl {
			continue // a tour edge
		}
		tried++
		k.t[2*i] = c
		for v := 0; v < 2; v++ {
			e := s.succ(c)
			if v == 1 {
				e = s.pred(c)
			}
			if s.isFixed(c, e) || k.removed(i, c, e) {
				continue
			}
			s.moves++
			k.t[2*i+1] = e
			G2 := g + d.At(c, e)
			if e != t1 {
				dc := d.At(e, t1)
				if gain := G2 - dc; gain > 0 && s.kFeasible(i+1) {
					s.kApply(i + 1)
					s.length -= gain - k.base
					for _, x := range k.t[:2*i+2] {
						s.Push(x)
					}
					k.touched = append(k.touched, k.t[:2*i+2]...)
					return true
				}
				if i+1 == maxK && G2 > k.openG && k.excludable(c, e) && s.kFeasible(i+1) {
					k.openT, k.openK, k.openG = k.t, i+1, G2
				}
			}
			if i+1 < maxK && s.kStep(i+1, G2) {
				return true
			}
		}
	}
	return false
}

// removed reports whether edge (a, b) is among the first i removed.
func (k *FiveOpt) removed(i int, a, b int32) bool {
	for j := 0; j < i; j++ {
		x, y := k.t[2*j], k.t[2*j+1]
		if (x == a && y == b) || (x == b && y == a) {
			return true
		}
	}
	return false
}

// kFeasible reports whether the k-exchange in t leaves one Hamiltonian cycle: the walk along segments and added
// edges from segment 0 meets all k segments. It leaves the segments and order in k5 for kApply.
func (s *Search) kFeasible(kk int) bool { return s.kFeasibleMates(kk, kMate) }

// kFeasibleMates is kFeasible with the added edges joining slots as mate says.
func (s *Search) kFeasibleMates(kk int, mate func(x int8, kk int) int8) bool {
	var sg kSegs
	s.kSegments(kk, &sg)
	return s.k5.kWalkMates(kk, &sg, mate)
}

// kSegs are a k-exchange's segments in array order: each slot's segment, whether it starts one, and their ends.
type kSegs struct {
	seg                [2 * maxK]int8
	starts             [2 * maxK]bool
	startSlot, endSlot [maxK]int8
}

// kSegments fills sg and the segments' ends for the removed edges t[0..2kk-1].
func (s *Search) kSegments(kk int, sg *kSegs) {
	k := s.k5
	n := int32(s.n)
	// per removed edge: its earlier end's position and which slot that is
	var lowPos [maxK]int32
	var lowSlot [maxK]int8
	var ord [maxK]int8
	for i := 0; i < kk; i++ {
		a, b := k.t[2*i], k.t[2*i+1]
		pa := s.pos[a]
		na := pa + 1
		if na == n {
			na = 0
		}
		if s.tour[na] == b {
			lowPos[i], lowSlot[i] = pa, int8(2*i)
		} else {
			lowPos[i], lowSlot[i] = s.pos[b], int8(2*i+1)
		}
		ord[i] = int8(i)
	}
	// insertion sort by position (k ≤ 5)
	for i := 1; i < kk; i++ {
		for j := i; j > 0 && lowPos[ord[j]] < lowPos[ord[j-1]]; j-- {
			ord[j], ord[j-1] = ord[j-1], ord[j]
		}
	}
	for j := 0; j < kk; j++ {
		e := ord[j]
		hi := lowSlot[e] ^ 1 // the later end starts segment j
		sg.seg[hi], sg.starts[hi] = int8(j), true
		sg.startSlot[j] = hi
		k.first[j] = k.t[hi]
		nx := ord[(j+1)%kk]
		lo := lowSlot[nx] // the earlier end of the next edge ends it
		sg.seg[lo], sg.starts[lo] = int8(j), false
		sg.endSlot[j] = lo
		k.last[j] = k.t[lo]
	}
}

// kMate joins slot 2i+1 to 2i+2 and slot 2kk-1 to slot 0.
func kMate(x int8, kk int) int8 {
	if x == 0 {
		return int8(2*kk - 1)
	}
	if int(x) == 2*kk-1 {
		return 0
	}
	if x%2 == 1 {
		return x + 1
	}
	return x - 1
}

// kWalkMates walks the new tour from segment 0 through the added edges (mate) into k.seq; true when it meets all kk.
func (k *FiveOpt) kWalkMates(kk int, sg *kSegs, mate func(x int8, kk int) int8) bool {
	k.seq[0] = 1
	out := sg.endSlot[0]
	for cnt := 1; ; cnt++ {
		in := mate(out, kk)
		j := sg.seg[in]
		if j == 0 {
			return cnt == kk && sg.starts[in]
		}
		if cnt == kk {
			return false
		}
		if sg.starts[in] {
			k.seq[cnt] = j + 1
			out = sg.endSlot[j]
		} else {
			k.seq[cnt] = -(j + 1)
			out = sg.startSlot[j]
		}
	}
}

// kApply applies kFeasible's move: the fewest reversals of consecutive segments into k5.seq, each a journaled 2-opt move.
func (s *Search) kApply(kk int) {
	k := s.k5
	m := kk - 1
	if m == 0 {
		return
	}
	var target [maxK - 1]int8
	for p := 0; p < m; p++ {
		v := k.seq[p+1]
		if v < 0 {
			target[p] = (-v - 2) | 8
		} else {
			target[p] = v - 2
		}
	}
	plan := kPlans[m][kEncode(target[:m])]
	// cur[p]: the segment at place p after segment 0, | 8 when reversed
	var cur [maxK - 1]int8
	for p := 0; p < m; p++ {
		cur[p] = int8(p + 1)
	}
	firstOf := func(x int8) int32 {
		if x&8 != 0 {
			return k.last[x&7]
		}
		return k.first[x]
	}
	lastOf := func(x int8) int32 {
		if x&8 != 0 {
			return k.first[x&7]
		}
		return k.last[x]
	}
	for _, r := range plan {
		i, j := int(r[0]), int(r[1])
		a := k.last[0]
		if i > 0 {
			a = lastOf(cur[i-1])
		}
		dd := k.first[0]
		if j < m-1 {
			dd = firstOf(cur[j+1])
		}
		s.move2(a, firstOf(cur[i]), lastOf(cur[j]), dd)
		for x, y := i, j; x <= y; x, y = x+1, y-1 {
			cur[x], cur[y] = cur[y]^8, cur[x]^8
		}
	}
}

// kPlans[m] maps each arrangement of m segments (kEncode) to the fewest reversals that make it, found by BFS at init.
var kPlans [maxK][]([][2]int8)

// kEncode packs an arrangement into an index: 4 bits per place.
func kEncode(a []int8) int {
	x := 0
	for _, v := range a {
		x = x<<4 | int(v)
	}
	return x
}

func init() {
	for m := 1; m < maxK; m++ {
		plans := make([][][2]int8, 1<<(4*m))
		seen := make([]bool, 1<<(4*m))
		id := make([]int8, m)
		for p := range id {
			id[p] = int8(p)
		}
		seen[kEncode(id)] = true
		plans[kEncode(id)] = [][2]int8{}
		queue := [][]int8{id}
		for len(queue) > 0 {
			a := queue[0]
			queue = queue[1:]
			ka := kEncode(a)
			for i := 0; i < m; i++ {
				for j := i; j < m; j++ {
					b := slices.Clone(a)
					for x, y := i, j; x <= y; x, y = x+1, y-1 {
						b[x], b[y] = a[y]^8, a[x]^8
					}
					kb := kEncode(b)
					if seen[kb] {
						continue
					}
					seen[kb] = true
					plans[kb] = append(slices.Clone(plans[ka]), [2]int8{int8(i), int8(j)})
					queue = append(queue, b)
				}
			}
		}
		kPlans[m] = plans
	}
}
