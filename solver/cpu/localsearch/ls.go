package localsearch

import (
	"math"
	"sync"

	"github.com/tsplab/tsplab/internal/runctl"
	"github.com/tsplab/tsplab/solver/tour"
)

// Search is a local search over an array tour with a position index: 2-opt and Or-opt from neighbour lists, driven by
// a don't-look-bit queue (Bentley 1992), moves applied as reversals of the shorter side; optionally deeper moves and
// random-k-best pivoting. Its journal lets an iterated local search undo a rejected kick.
type Search struct {
	d    *tour.Dist
	n    int
	tour []int32 // position → city
	pos  []int32 // city → position
	nb   []int32 // k candidates of city c: nb[c*k : c*k+k], nearest first unless ranked (SetRanked)
	k    int
	// ranked: nb's rows are not nearest first, so a scan goes on past a candidate too far
	ranked bool

	length int64
	moves  int64 // moves evaluated

	// q holds the cities to examine (don't-look bit off).
	q tour.Queue

	// improve, deep (after 2-opt and Or-opt) and close3 are chosen once from the move set, as LKH picks its BestMove.
	improve func(s *Search, c int32) bool
	deep    func(s *Search, c int32) bool
	close3  func(s *Search, t1, t2, t3, t4 int32, g2 int64) bool
	depth   int // steps after the first of a sequential move (1: 3-opt), at most MaxDepth
	// nbd caches the candidates' distances (NeighborDists; nil: computed); changing nb, k or d must drop or refresh it.
	nbd   []int32
	chain [2 * MaxDepth]int32
	// vt holds the virtual tours of extendVirtual, one per level
	vt       [MaxDepth]vtour
	chainLen int
	rkbi     int // >0: random-k-best-improvement pivoting among this many
	r        *runctl.Rand

	record  bool
	journal []jop
	saved   []int32 // kick windows' old contents
	cands   []lsMove

	// fixed holds city c's fixed-edge partners at fixed[2c] and fixed[2c+1] (-1: none; nil: no fixed edges).
	fixed []int32

	// k5 is the 5-opt move's state when it is the deep move.
	k5 *FiveOpt

	// kickFrom, when set, holds the cities a kick may start at: a worker's region.
	kickFrom []int32

	// split, when over 1, is how many goroutines share a reversal of at least splitMin cities.
	split int
}

// splitMin is the shortest reversal worth splitting among goroutines.
const splitMin = 1 << 15

// jop is one journal entry: a reversal of positions i..j, or a window of w cities from i, old contents at saved[j].
type jop struct {
	i, j, w int32
}

// lsMove is an improving move kept for random-k-best pivoting.
type lsMove struct {
	kind        moveKind
	a, b, c, dd int32
	e, f        int32
	rev         bool
	delta       int64
}

// moveKind tells the moves apart in lsMove.
type moveKind int8

const (
	// move2Opt replaces (a,b) and (c,dd) by (a,c) and (b,dd).
	move2Opt moveKind = iota + 1
	// moveOrOpt moves b..c (a before, dd after) between e and f, reversed when rev.
	moveOrOpt
)

// SetFixed records the instance's fixed edges, which no move may remove.
func (s *Search) SetFixed(edges [][2]int) {
	if len(edges) == 0 {
		s.fixed = nil
		return
	}
	s.fixed = make([]int32, 2*s.n)
	for i := range s.fixed {
		s.fixed[i] = -1
	}
	for _, e := range edges {
		for _, ab := range [2][2]int{{e[0], e[1]}, {e[1], e[0]}} {
			a, b := ab[0], int32(ab[1])
			if s.fixed[2*a] < 0 {
				s.fixed[2*a] = b
			} else {
				s.fixed[2*a+1] = b
			}
		}
	}
}

// isFixed reports whether the edge (a, b) is fixed.
func (s *Search) isFixed(a, b int32) bool {
	return s.fixed != nil && (s.fixed[2*a] == b || s.fixed[2*a+1] == b)
}

// New returns a search over tour t (copied) with candidate lists nb (k per city), 2-opt only, an empty queue.
func New(d *tour.Dist, nb []int32, k int, t []int32) *Search {
	n := len(t)
	s := &Search{d: d, n: n, nb: nb, k: k, tour: make([]int32, n), pos: make([]int32, n),
		q: tour.NewQueue(n)}
	s.SetMoves(MoveSet{})
	s.Load(t)
	return s
}

// MoveSet is a local search's moves, fixed at set-up (SetMoves).
type MoveSet struct {
	OrOpt    bool // Or-opt segment moves (1–3 cities, both orientations)
	ThreeOpt bool // the chain of 2-opt steps (sequential 3-opt at depth 1)
	Depth    int  // steps of the chain after its first (1: 3-opt), clamped to 1..MaxDepth
	Or3      bool // with ThreeOpt, also the pure 3-opt moves of tryOr3
	RKBI     int  // >0: random-k-best-improvement pivoting among this many
	// FiveOpt, when set, makes the sequential 5-opt move with this state the deep move, in place of the chain and RKBI
	FiveOpt *FiveOpt
	// Bridge, with FiveOpt, tries the bridge move where the 5-opt move finds nothing
	Bridge bool
}

// SetMoves picks s's move functions once from m, so no city asks which moves are on.
func (s *Search) SetMoves(m MoveSet) {
	s.depth = min(max(m.Depth, 1), MaxDepth)
	s.rkbi, s.k5 = m.RKBI, m.FiveOpt
	s.close3 = (*Search).closeDeepVirtual
	if s.depth <= 1 {
		s.close3 = (*Search).close3optVirtual
	}
	hasDeep := true
	switch {
	case m.FiveOpt != nil:
		s.deep = (*Search).try5opt
	case m.ThreeOpt && m.Or3:
		s.deep = try3optPure
	case m.ThreeOpt:
		s.deep = try3optChain
	default:
		s.deep, hasDeep = noMove, false
	}
	switch {
	case m.FiveOpt == nil && m.RKBI > 0 && m.OrOpt:
		s.improve = improveRKBIOr
	case m.FiveOpt == nil && m.RKBI > 0:
		s.improve = improveRKBI
	case m.OrOpt && m.Bridge && m.FiveOpt != nil:
		s.improve = improveOrDeepBridge
	case m.OrOpt && hasDeep:
		s.improve = improveOrDeep
	case m.OrOpt:
		s.improve = improveOr
	case hasDeep:
		s.improve = improve2Deep
	default:
		s.improve = improve2
	}
}

// The improve functions: 2-opt, then Or-opt, then the deep move, where the set has them.
func improve2(s *Search, c int32) bool     { return s.try2opt(c, nil) }
func improveOr(s *Search, c int32) bool    { return s.try2opt(c, nil) || s.tryOr(c, nil) }
func improve2Deep(s *Search, c int32) bool { return s.try2opt(c, nil) || s.deep(s, c) }
func improveOrDeep(s *Search, c int32) bool {
	return s.try2opt(c, nil) || s.tryOr(c, nil) || s.deep(s, c)
}

// improveOrDeepBridge is improveOrDeep, then the bridge move.
func improveOrDeepBridge(s *Search, c int32) bool {
	return s.try2opt(c, nil) || s.tryOr(c, nil) || s.deep(s, c) || s.tryBridge(c)
}

// improveRKBI and improveRKBIOr collect improving moves around c and apply one (pickRKBI).
func improveRKBI(s *Search, c int32) bool {
	s.cands = s.cands[:0]
	s.try2opt(c, &s.cands)
	return s.pickRKBI(c)
}

func improveRKBIOr(s *Search, c int32) bool {
	s.cands = s.cands[:0]
	s.try2opt(c, &s.cands)
	s.tryOr(c, &s.cands)
	return s.pickRKBI(c)
}

// noMove is the deep move of a move set without one.
func noMove(*Search, int32) bool { return false }

// try3optChain and try3optPure are the 2-opt chain as the deep move, without and with tryOr3.
func try3optChain(s *Search, c int32) bool { return s.try3opt(c, false) }
func try3optPure(s *Search, c int32) bool  { return s.try3opt(c, true) }

// maxNbDist bounds a search's cached candidate distances (4 bytes each).
const maxNbDist = 1 << 21

// CacheNeighborDists caches the candidates' distances where they fit, sparing a square root per candidate.
func (s *Search) CacheNeighborDists() {
	s.nbd = NeighborDists(s.d, s.nb, s.n, s.k, nil)
}

// NeighborDists returns the distances of lists nb under d (nbd[c*k+i] = d(c, nb[c*k+i])), in buf when large
// enough; nil past maxNbDist entries or an int32.
func NeighborDists(d *tour.Dist, nb []int32, n, k int, buf []int32) []int32 {
	if len(nb) > maxNbDist || len(nb) != n*k {
		return nil
	}
	if cap(buf) < len(nb) {
		buf = make([]int32, len(nb))
	}
	nbd := buf[:len(nb)]
	for c := range n {
		for i, x := range nb[c*k : c*k+k] {
			v := d.At(int32(c), x)
			if v > math.MaxInt32 {
				return nil
			}
			nbd[c*k+i] = int32(v)
		}
	}
	return nbd
}

// nbDist is d(c, x) where x is c's i-th candidate.
func (s *Search) nbDist(c int32, i int, x int32) int64 {
	if s.nbd != nil {
		return int64(s.nbd[int(c)*s.k+i])
	}
	return s.d.At(c, x)
}

// Load loads tour t (copied), its positions and its length.
func (s *Search) Load(t []int32) {
	copy(s.tour, t)
	for i, c := range s.tour {
		s.pos[c] = int32(i)
	}
	s.length = s.d.Length(s.tour)
}

func (s *Search) succ(c int32) int32 {
	p := s.pos[c] + 1
	if int(p) == s.n {
		p = 0
	}
	return s.tour[p]
}

func (s *Search) pred(c int32) int32 {
	p := s.pos[c] - 1
	if p < 0 {
		p = int32(s.n - 1)
	}
	return s.tour[p]
}

// Push turns c's don't-look bit off.
func (s *Search) Push(c int32) { s.q.Push(c) }

// Pop takes the next city off the queue.
func (s *Search) Pop() int32 { return s.q.Pop() }

// PushAll queues every city in tour order.
func (s *Search) PushAll() {
	for _, c := range s.tour {
		s.Push(c)
	}
}

// reverseExact reverses the cities at positions i, i+1, ..., j (cyclic).
func (s *Search) reverseExact(i, j int32) {
	n := int32(s.n)
	l := j - i
	if l < 0 {
		l += n
	}
	l++
	if s.split > 1 && l >= splitMin {
		s.reverseSplit(i, j, l/2)
		return
	}
	s.swap(i, j, l/2)
}

// swap exchanges positions i+t and j-t (cyclic) for every t below k.
func (s *Search) swap(i, j, k int32) {
	n := int32(s.n)
	for ; k > 0; k-- {
		a, b := s.tour[i], s.tour[j]
		s.tour[i], s.pos[b] = b, i
		s.tour[j], s.pos[a] = a, j
		i++
		if i == n {
			i = 0
		}
		j--
		if j < 0 {
			j = n - 1
		}
	}
}

// reverseSplit makes reverseExact(i, j)'s swaps in s.split goroutines, each a run of disjoint pairs.
func (s *Search) reverseSplit(i, j, swaps int32) {
	n, w := int32(s.n), int32(s.split)
	var wg sync.WaitGroup
	for p := range w {
		lo, hi := swaps*p/w, swaps*(p+1)/w
		wg.Go(func() { s.swap((i+lo)%n, (j-lo+n)%n, hi-lo) })
	}
	wg.Wait()
}

// reverse reverses positions i..j, or the shorter rest of the tour.
func (s *Search) reverse(i, j int32) {
	n := int32(s.n)
	l := j - i
	if l < 0 {
		l += n
	}
	l++
	if 2*l > n {
		i, j = j+1, i-1
		if i == n {
			i = 0
		}
		if j < 0 {
			j = n - 1
		}
		if l == n {
			return
		}
	}
	s.reverseExact(i, j)
	if s.record {
		s.journal = append(s.journal, jop{i: i, j: j})
	}
}

// move2 replaces (a,b) and (c,dd) by (a,c) and (b,dd), c after b walking from a.
func (s *Search) move2(a, b, c, dd int32) {
	if s.succ(a) == b {
		s.reverse(s.pos[b], s.pos[c])
	} else {
		s.reverse(s.pos[c], s.pos[b])
	}
}

// moveOr moves segment s1..s2 (p before s1, nx after s2) between c and dd; reversed puts s2 next to c.
func (s *Search) moveOr(p, s1, s2, nx, c, dd int32, reversed bool) {
	s.move2(p, s1, c, dd) // p–c … nx–s2…s1–dd
	s.move2(p, c, nx, s2) // p–nx … c–s2…s1–dd
	if !reversed {
		s.move2(c, s2, s1, dd) // c–s1…s2–dd
	}
}

// undo reverts the journal.
func (s *Search) undo() {
	for k := len(s.journal) - 1; k >= 0; k-- {
		op := s.journal[k]
		if op.w == 0 {
			s.reverseExact(op.i, op.j)
			continue
		}
		p := op.i
		for x := int32(0); x < op.w; x++ {
			c := s.saved[op.j+x]
			s.tour[p], s.pos[c] = c, p
			p++
			if int(p) == s.n {
				p = 0
			}
		}
	}
	s.journal = s.journal[:0]
	s.saved = s.saved[:0]
}

// Optimize runs the queue until every don't-look bit is on or stop, asked every few thousand moves or cities,
// returns true; false leaves the queue as it was.
func (s *Search) Optimize(stop func() bool) bool { return s.OptimizeFrom(stop, nil) }

// OptimizeFrom is Optimize descending only from the cities keep accepts (nil: all).
func (s *Search) OptimizeFrom(stop func() bool, keep func(c int32) bool) bool {
	next := s.moves + runctl.CheckEvery
	for pops := 1; s.q.Len() > 0; pops++ {
		if s.moves >= next || pops%runctl.CheckEvery == 0 {
			if stop() {
				return false
			}
			next = s.moves + runctl.CheckEvery
		}
		c := s.Pop()
		if keep != nil && !keep(c) {
			continue
		}
		if s.improveCity(c) {
			s.Push(c)
		}
	}
	return true
}

// improveCity looks for an improving move around c and applies it.
func (s *Search) improveCity(c int32) bool { return s.improve(s, c) }

// pickRKBI applies one of the rkbi best collected moves at random (Delévacq et al.), with none the deep move.
func (s *Search) pickRKBI(c int32) bool {
	if len(s.cands) == 0 {
		return s.deep(s, c)
	}
	// partial selection of the rkbi best
	k := min(s.rkbi, len(s.cands))
	for i := 0; i < k; i++ {
		m := i
		for j := i + 1; j < len(s.cands); j++ {
			if s.cands[j].delta < s.cands[m].delta {
				m = j
			}
		}
		s.cands[i], s.cands[m] = s.cands[m], s.cands[i]
	}
	s.applyMove(s.cands[s.r.Intn(k)])
	return true
}

func (s *Search) applyMove(m lsMove) {
	switch m.kind {
	case move2Opt:
		s.move2(m.a, m.b, m.c, m.dd)
		s.Push(m.a)
		s.Push(m.b)
		s.Push(m.c)
		s.Push(m.dd)
	case moveOrOpt:
		s.moveOr(m.a, m.b, m.c, m.dd, m.e, m.f, m.rev)
		for _, x := range [...]int32{m.a, m.b, m.c, m.dd, m.e, m.f} {
			s.Push(x)
		}
	}
	s.length += m.delta
}

// try2opt tries the 2-opt moves adding an edge from t1 to a neighbour: the first improving one, or with out every one collected.
func (s *Search) try2opt(t1 int32, out *[]lsMove) bool {
	d := s.d
	nb := s.nb[int(t1)*s.k : int(t1)*s.k+s.k]
	found := false
	for dir := 0; dir < 2; dir++ {
		var t2 int32
		if dir == 0 {
			t2 = s.succ(t1)
		} else {
			t2 = s.pred(t1)
		}
		if s.isFixed(t1, t2) {
			continue
		}
		d12 := d.At(t1, t2)
		for i, t3 := range nb {
			d13 := s.nbDist(t1, i, t3)
			if d13 >= d12 {
				if s.ranked {
					continue
				}
				break
			}
			var t4 int32
			if dir == 0 {
				t4 = s.succ(t3)
			} else {
				t4 = s.pred(t3)
			}
			s.moves++
			if t3 == t2 || t4 == t1 || s.isFixed(t3, t4) {
				continue
			}
			delta := d13 + d.At(t2, t4) - d12 - d.At(t3, t4)
			if delta < 0 {
				m := lsMove{kind: move2Opt, a: t1, b: t2, c: t3, dd: t4, delta: delta}
				if out == nil {
					s.applyMove(m)
					return true
				}
				*out = append(*out, m)
				found = true
			}
		}
	}
	return found
}

// orSeg is an Or-opt segment s1..s2 with p before and nx after it, its positions and g, the length its removal saves.
type orSeg struct {
	p, s1, s2, nx int32
	p1, p2        int32
	g             int64
}

// contains reports whether city x, at position px, lies in the segment.
func (g *orSeg) contains(px int32) bool { return inArc(px, g.p1, g.p2) }

// inArc reports whether position p lies in the cyclic range lo..hi.
func inArc(p, lo, hi int32) bool {
	if lo <= hi {
		return p >= lo && p <= hi
	}
	return p >= lo || p <= hi
}

// orSegment returns the segment of l cities starting (side 0) or ending (1) at c, and
// whether removing it saves without a fixed edge.
func (s *Search) orSegment(c int32, l, side int) (orSeg, bool) {
	s1, s2 := c, c
	for i := 1; i < l; i++ {
		if side == 0 {
			s2 = s.succ(s2)
		} else {
			s1 = s.pred(s1)
		}
	}
	p, nx := s.pred(s1), s.succ(s2)
	if s.isFixed(p, s1) || s.isFixed(s2, nx) {
		return orSeg{}, false
	}
	g := s.d.At(p, s1) + s.d.At(s2, nx) - s.d.At(p, nx)
	return orSeg{p: p, s1: s1, s2: s2, nx: nx, p1: s.pos[s1], p2: s.pos[s2], g: g}, g > 0
}

// tryOr tries moving a segment of 1–3 cities at c beside a neighbour of an end (out: collect, as try2opt).
func (s *Search) tryOr(c int32, out *[]lsMove) bool {
	found := false
	for l := 1; l <= 3 && l <= s.n-5; l++ {
		for side := 0; side < 2; side++ {
			if l == 1 && side == 1 {
				break
			}
			seg, ok := s.orSegment(c, l, side)
			if !ok {
				continue
			}
			if s.tryInsert(&seg, out) {
				if out == nil {
					return true
				}
				found = true
			}
		}
	}
	return found
}

// tryInsert tries seg beside a neighbour x of one of its ends.
func (s *Search) tryInsert(seg *orSeg, out *[]lsMove) bool {
	d := s.d
	found := false
	for end := 0; end < 2; end++ {
		e, o := seg.s1, seg.s2 // e goes next to x, o next to y
		if end == 1 {
			e, o = seg.s2, seg.s1
		}
		for i, x := range s.nb[int(e)*s.k : int(e)*s.k+s.k] {
			dex := s.nbDist(e, i, x)
			if dex >= seg.g {
				if s.ranked {
					continue
				}
				break
			}
			if seg.contains(s.pos[x]) {
				continue
			}
			for yd := 0; yd < 2; yd++ {
				y := s.succ(x)
				if yd == 1 {
					y = s.pred(x)
				}
				s.moves++
				if seg.contains(s.pos[y]) || s.isFixed(x, y) {
					continue
				}
				delta := dex + d.At(o, y) - d.At(x, y) - seg.g
				if delta >= 0 {
					continue
				}
				// the edge as (cc, dd) forward; s1 next to cc keeps the orientation
				cc, dd := x, y
				if yd == 1 {
					cc, dd = y, x
				}
				rev := (end == 0) == (yd == 1)
				m := lsMove{kind: moveOrOpt, a: seg.p, b: seg.s1, c: seg.s2, dd: seg.nx, e: cc, f: dd, rev: rev, delta: delta}
				if out == nil {
					s.applyMove(m)
					return true
				}
				*out = append(*out, m)
				found = true
			}
		}
	}
	return found
}

// breadth3 is the candidates try3opt follows at each level.
const breadth3 = 5

// try3opt tries sequential 3-opt moves from t1 as two 2-opt steps (Lin–Kernighan style), breadth3 at each level,
// kept only with a positive total gain; pure adds tryOr3's moves.
func (s *Search) try3opt(t1 int32, pure bool) bool {
	d := s.d
	for dir := 0; dir < 2; dir++ {
		t2 := s.succ(t1)
		if dir == 1 {
			t2 = s.pred(t1)
		}
		if s.isFixed(t1, t2) {
			continue
		}
		d12 := d.At(t1, t2)
		tried := 0
		for i, t3 := range s.nb[int(t2)*s.k : int(t2)*s.k+s.k] {
			g1 := d12 - s.nbDist(t2, i, t3)
			if tried >= breadth3 {
				break
			}
			if g1 <= 0 {
				if s.ranked {
					continue
				}
				break
			}
			if t3 == t1 || t3 == s.succ(t2) || t3 == s.pred(t2) {
				continue
			}
			// t4: t3's neighbour on t2's side, closing t2..t3 into a cycle
			t4 := s.succ(t3)
			if s.succ(t1) == t2 {
				t4 = s.pred(t3)
			}
			if t4 != t1 && !s.isFixed(t3, t4) {
				tried++
				s.moves++
				d34 := d.At(t3, t4)
				if gain := g1 + d34 - d.At(t4, t1); gain > 0 {
					s.move2(t2, t1, t3, t4)
					s.length -= gain
					for _, x := range [...]int32{t1, t2, t3, t4} {
						s.Push(x)
					}
					return true
				}
				if s.close3(s, t1, t2, t3, t4, g1+d34) {
					return true
				}
			}
			// the other t4
			if pure && s.tryOr3(t1, t2, t3, s.succ(t1) == t2, g1) {
				return true
			}
		}
	}
	return false
}

// tryOr3 tries the pure 3-opt moves try3opt's steps cannot reach: removing (t1,t2), (t3,t4) and adding (t2,t3) closes
// t2..t3 into a cycle, which a third edge (t5,t6) inside it opens again, joined by (t4,t5), (t6,t1):
//
//	t6 after t5:  t1 [t2..t5][t6..t3] t4 → t1 [t6..t3][t2..t5] t4 (segment moved, no reversal: or-3opt)
//	t6 before t5: t1 [t2..t6][t5..t3] t4 → t1 [t6..t2][t3..t5] t4 (both parts reversed in place)
//
// fwd: t2 follows t1 in the array; g1 = d(t1,t2) − d(t2,t3) > 0. It applies the first gaining move.
func (s *Search) tryOr3(t1, t2, t3 int32, fwd bool, g1 int64) bool {
	d := s.d
	next, prev := s.succ, s.pred
	if !fwd {
		next, prev = s.pred, s.succ
	}
	t4 := next(t3)
	if t4 == t1 || s.isFixed(t3, t4) {
		return false
	}
	g2 := g1 + d.At(t3, t4)
	// the segment t2..t3 as an array range lo..hi (cyclic)
	lo, hi := s.pos[t2], s.pos[t3]
	if !fwd {
		lo, hi = hi, lo
	}
	inSeg := func(c int32) bool { return inArc(s.pos[c], lo, hi) }
	tried := 0
	for i, t5 := range s.nb[int(t4)*s.k : int(t4)*s.k+s.k] {
		g := g2 - s.nbDist(t4, i, t5)
		if tried >= breadth3 {
			break
		}
		if g <= 0 {
			if s.ranked {
				continue
			}
			break
		}
		if !inSeg(t5) {
			continue
		}
		tried++
		for v := 0; v < 2; v++ {
			var t6 int32
			if v == 0 {
				if t5 == t3 {
					continue
				}
				t6 = next(t5)
			} else {
				if t5 == t2 {
					continue
				}
				t6 = prev(t5)
			}
			s.moves++
			if s.isFixed(t5, t6) {
				continue
			}
			gain := g + d.At(t5, t6) - d.At(t6, t1)
			if gain <= 0 {
				continue
			}
			s.applyOr3(v == 0, [6]int32{t1, t2, t3, t4, t5, t6}, gain)
			return true
		}
	}
	return false
}

// applyOr3 applies tryOr3's move on t1..t6 with its gain.
func (s *Search) applyOr3(after bool, t [6]int32, gain int64) {
	t1, t2, t3, t4, t5, t6 := t[0], t[1], t[2], t[3], t[4], t[5]
	if after {
		s.moveOr(t1, t2, t5, t6, t3, t4, false)
	} else {
		s.move2(t1, t2, t6, t5) // t1 [t6..t2][t5..t3] t4
		s.move2(t2, t5, t3, t4) // t1 [t6..t2][t3..t5] t4
	}
	s.length -= gain
	for _, x := range t {
		s.Push(x)
	}
}

// The close3 functions look, after the first step, for further 2-opt steps breaking (t4,t1) with a positive total gain
// (g2: before (t4,t1)), read off a virtual tour and applied only when they gain.

// closeDeepVirtual is the close3 function at depth 2 and more.
func (s *Search) closeDeepVirtual(t1, t2, t3, t4 int32, g2 int64) bool {
	v := &s.vt[0]
	v.reset(s)
	v.move2(t2, t1, t3, t4)
	if !s.extendVirtual(v, t1, t2, t3, t4, t4, g2, 0) {
		return false
	}
	s.pushChain(t1, t2, t3, t4)
	return true
}

// pushChain queues the cities of an applied chain.
func (s *Search) pushChain(t1, t2, t3, t4 int32) {
	for _, x := range [...]int32{t1, t2, t3, t4} {
		s.Push(x)
	}
	for _, x := range s.chain[:s.chainLen] {
		s.Push(x)
	}
}

// close3optVirtual is close3 at depth 1: it finds the same second step as applying the first would, reading the tour
// as the first step's reversal of t2..t4 would leave it, and applies only a gaining move.
func (s *Search) close3optVirtual(t1, t2, t3, t4 int32, g2 int64) bool {
	d := s.d
	fwd := s.succ(t1) == t2
	next, prev := s.succ, s.pred
	lo, hi := s.pos[t2], s.pos[t4]
	if !fwd {
		next, prev = s.pred, s.succ
		lo, hi = hi, lo
	}
	inS := func(c int32) bool { return inArc(s.pos[c], lo, hi) }
	// newPrev is the city before c in the new tour, walking from t1 to t4
	newPrev := func(c int32) int32 {
		switch {
		case c == t4:
			return t1
		case c == t3:
			return t2
		case inS(c):
			return next(c)
		}
		return prev(c)
	}
	// t4's neighbours in the new tour: t1 and the city after it
	nx4 := prev(t4)
	tried := 0
	breadth := extendBreadth[0]
	for i, t5 := range s.nb[int(t4)*s.k : int(t4)*s.k+s.k] {
		g := g2 - s.nbDist(t4, i, t5)
		if tried >= breadth {
			break
		}
		if g <= 0 {
			if s.ranked {
				continue
			}
			break
		}
		if t5 == t1 || t5 == nx4 {
			continue
		}
		t6 := newPrev(t5)
		if t6 == t1 || s.isFixed(t5, t6) {
			continue
		}
		tried++
		s.moves++
		if gain := g + d.At(t5, t6) - d.At(t6, t1); gain > 0 {
			s.move2(t2, t1, t3, t4)
			s.move2(t4, t1, t5, t6)
			s.length -= gain
			s.chain[0], s.chain[1] = t5, t6
			s.chainLen = 2
			for _, x := range [...]int32{t1, t2, t3, t4, t5, t6} {
				s.Push(x)
			}
			return true
		}
	}
	return false
}

// extendBreadth is the candidates each further step of a sequential move follows.
var extendBreadth = [MaxDepth]int{breadth3, 3, 2}

// MaxDepth bounds the steps after the first: up to a 5-opt move.
const MaxDepth = 3

// undoTo reverts the journal's reversals after entry mark.
func (s *Search) undoTo(mark int) {
	for k := len(s.journal) - 1; k >= mark; k-- {
		op := s.journal[k]
		s.reverseExact(op.i, op.j)
	}
	s.journal = s.journal[:mark]
}

// Kick applies a segment-local double bridge: in a window of at most 3·maxSeg+1 cities, adjacent segments B and C
// swap (A B C D → A C B D); the changed edges' cities are queued.
func (s *Search) Kick(maxSeg int) {
	n := s.n
	i0, la, lb, ok := s.kickDraw(maxSeg)
	if !ok {
		return // fixed edges everywhere near: no kick this time
	}
	// B = positions i0+1 .. i0+la, C = i0+la+1 .. i0+la+lb
	w := la + lb
	start := i0 + 1
	if int(start) == n {
		start = 0
	}
	base := len(s.saved)
	p := start
	for x := 0; x < w; x++ {
		s.saved = append(s.saved, s.tour[p])
		p++
		if int(p) == n {
			p = 0
		}
	}
	old := s.saved[base : base+w]
	a := s.tour[i0]
	b1, b2 := old[0], old[la-1]
	c1, c2 := old[la], old[w-1]
	dpos := p
	dcity := s.tour[dpos]
	s.length += tour.DeltaDoubleBridgeEdges(s.d, a, b1, b2, c1, c2, dcity)
	// write C then B
	s.writeFrom(s.writeFrom(start, old[la:]), old[:la])
	if s.record {
		s.journal = append(s.journal, jop{i: start, j: int32(base), w: int32(w)})
	}
	for _, c := range [...]int32{a, b1, b2, c1, c2, dcity} {
		s.Push(c)
	}
}

// kickDraw draws a kick's window: A's last position and B's and C's lengths; ok false when eight draws met a fixed edge.
func (s *Search) kickDraw(maxSeg int) (i0 int32, la, lb int, ok bool) {
	maxSeg = max(1, min(maxSeg, (s.n-2)/3))
	for try := 0; ; try++ {
		la = 1 + s.r.Intn(maxSeg)
		lb = 1 + s.r.Intn(maxSeg)
		if s.kickFrom != nil {
			i0 = s.pos[s.kickFrom[s.r.Intn(len(s.kickFrom))]]
		} else {
			i0 = int32(s.r.Intn(s.n))
		}
		if s.fixed == nil || !s.kickBreaksFixed(i0, la, lb) {
			return i0, la, lb, true
		}
		if try == 8 {
			return 0, 0, 0, false
		}
	}
}

// writeFrom writes cities from position p on (cyclic) and returns the next position.
func (s *Search) writeFrom(p int32, cities []int32) int32 {
	for _, c := range cities {
		s.tour[p], s.pos[c] = c, p
		p++
		if int(p) == s.n {
			p = 0
		}
	}
	return p
}

// kickBreaksFixed reports whether the kick at i0 with segments la and lb removes a fixed edge.
func (s *Search) kickBreaksFixed(i0 int32, la, lb int) bool {
	at := func(k int) int32 { return s.tour[(int(i0)+k)%s.n] }
	return s.isFixed(at(0), at(1)) || s.isFixed(at(la), at(la+1)) || s.isFixed(at(la+lb), at(la+lb+1))
}

// TryKick makes one ILS step: a kick, its repair and the undo of a worse (or equal, unless acceptEqual) tour; it returns
// the length before, false when stop ended it (kick undone, queue emptied).
func (s *Search) TryKick(maxSeg int, acceptEqual bool, stop func() bool) (old int64, ok bool) {
	s.journal, s.saved = s.journal[:0], s.saved[:0]
	old = s.length
	s.Kick(maxSeg)
	if !s.Optimize(stop) {
		s.undo()
		s.length = old
		for s.q.Len() > 0 {
			s.Pop()
		}
		return old, false
	}
	if s.length > old || (s.length == old && !acceptEqual) {
		s.undo()
		s.length = old
	}
	return old, true
}
