package partition

import (
	"math"
	"sync"
	"time"

	"github.com/tsplab/tsplab/internal/runctl"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/problem"
	"github.com/tsplab/tsplab/solver/tour"
	"github.com/tsplab/tsplab/solver/tour/twolevel"
)

// The search of one worker over the whole tour (Options.Solo), as chained
// Lin–Kernighan runs it: the tour a two-level list (O(√n) flips), a queue
// of active cities each tried with the LK step, and local kicks, a double
// bridge among cities a short random walk apart, repaired by LK from the
// cities about the kick and undone unless the tour is no longer.

// soloBreadth is how many candidates the first levels of an LK step
// follow; deeper levels follow one, up to soloDepth flips.
var soloBreadth = [...]int{4, 3, 3, 2}

// soloPerQuadrant is the nearest cities a quadrant of chained LK's lists
// (neighbor.Closed): on pla85900 a kick took 0.61 times the time with
// these as with Quadrant's 8 filled up, and the runs ended closer.
const soloPerQuadrant = 2

const (
	soloDepth = 25
	soloWalk  = 50 // the random walk's steps between a kick's cities
	soloMark  = 10 // tour neighbours of a kick's end queued
)

// The whole tour's search lengthens its kicks' walk to soloWalkLong
// while more than soloEqualShare of its kicks (a moving share over about
// 1/soloEqualDecay kicks) end as long as they began: LK undid them, so
// they were too local for the instance (pla85900: 48 % of the kicks
// with walks of 50 steps, E100k.0 24 %; docs/DECISIONS.md#solo-walk).
const (
	soloWalkLong   = 80
	soloEqualShare = 0.35
	soloEqualDecay = 0.01
)

// soloMove is a logged flip: (a, b) and (c, d) became (a, c) and (b, d).
type soloMove struct{ a, b, c, d int32 }

// solo is the state of one worker's whole-tour search.
type solo struct {
	l    *twolevel.List
	pt   []point // EUC_2D or CEIL_2D coordinates, read inline by dist (nil: d)
	ceil bool    // CEIL_2D
	d    *tour.Dist
	// the candidate graph, symmetric: city c's candidates nb[at[c]:at[c+1]],
	// nearest first, each with its distance
	nb     []soloCand
	at     []int32
	length int64
	log    []soloMove
	queue  []int32 // the cities to try, from qhead on
	qhead  int
	queued []bool
	rng    *runctl.Rand
	keep   bool // keep the log of a kick's repair, to undo it
	// the kicks' walk, whether the last kick ended as long as it began,
	// and the moving share of such kicks (sizeWalk)
	walkLen int
	equal   bool
	equals  float64
	// the current LK step: its best close and the flips to it, the edges
	// it added and removed
	best           int64
	bestAt         int
	added, removed soloEdges
	cands          [len(soloBreadth)][4]lkCand
	flips          int64 // the flips made, the run's moves evaluated
	// fix holds each city's partners by fixed edges, two a city (-1:
	// none): a piece's closing or virtual edges and the instance's; nil
	// without any
	fix   []int32
	fixed []uint64 // a bit a city, set where it has a fixed edge: read first, from the first-level cache
}

// soloFixed is the length the fixed edge counts for: removing it loses
// more than any step gains, so no kept step removes it.
const soloFixed = 1 << 50

// soloCand is a candidate city and its distance (soloFar where it does
// not fit 32 bits: rowDist), side by side in 8 bytes so that a row's scan
// reads one cache line.
type soloCand struct {
	d, c int32
}

// soloFar marks a candidate's distance too long for a soloCand.
const soloFar = math.MaxInt32

// rowDist is the distance of a and its candidate e.
func (s *solo) rowDist(a int32, e soloCand) int64 {
	if e.d != soloFar {
		return int64(e.d)
	}
	return s.dist(a, e.c)
}

// nearest is the distance of a and its nearest candidate, beyond any
// tour edge when a has none (a piece's city whose only one was across
// the piece's closing edge).
func (s *solo) nearest(a int32) int64 {
	if lo := s.at[a]; lo < s.at[a+1] {
		return s.rowDist(a, s.nb[lo])
	}
	return math.MaxInt64 / 4
}

// lkCand is a flip of an LK step: the edge (last, t3) added and (t3, t4)
// removed, g the gain before the closing edge.
type lkCand struct {
	t3, t4 int32
	g      int64
	mm     bool // a Mak–Morton flip: (t1, t3) added, t4 the new t1
}

// newSolo starts a search of the tour t0, of length length, whose edges
// fixed no step removes.
func newSolo(t0 []int32, length int64, nb *neighbor.Lists, d *tour.Dist, rng *runctl.Rand, fixed [][2]int) *solo {
	n := len(t0)
	s := &solo{l: twolevel.New(t0), d: d, length: length, queued: make([]bool, n), rng: rng, walkLen: soloWalk}
	s.fix = problem.FixedPartners(n, fixed)
	if s.fix != nil {
		s.fixed = make([]uint64, (n+63)/64)
		for c := range n {
			if s.fix[2*c] >= 0 {
				s.fixed[c/64] |= 1 << (c % 64)
			}
		}
	}
	s.pt, s.ceil = points(d)
	s.symmetric(nb)
	return s
}

// points is d's coordinates, x and y of each city side by side, and
// whether they round up (CEIL_2D); nil where d has none.
func points(d *tour.Dist) ([]point, bool) {
	x, y, ceil := d.Coords()
	if x == nil {
		return nil, false
	}
	pts := make([]point, len(x))
	for i := range x {
		pts[i] = point{x[i], y[i]}
	}
	return pts, ceil
}

// fixedEdge reports whether (a, b) is an edge no step removes.
func (s *solo) fixedEdge(a, b int32) bool {
	return s.fix != nil && s.fixed[uint32(a)>>6]&(1<<(uint32(a)&63)) != 0 && (s.fix[2*a] == b || s.fix[2*a+1] == b)
}

// point is a city's coordinates.
type point struct{ x, y float64 }

// dist is the distance of a and b, rounded as tour.Dist does, inline
// from coordinates where there are some; a fixed edge counts -soloFixed.
func (s *solo) dist(a, b int32) int64 {
	if s.fixedEdge(a, b) {
		return -soloFixed
	}
	if s.pt == nil {
		return s.d.At(a, b)
	}
	p, q := &s.pt[a], &s.pt[b]
	return tour.Round(math.Sqrt((p.x-q.x)*(p.x-q.x)+(p.y-q.y)*(p.y-q.y)), s.ceil)
}

// symmetric sets s's candidate graph to the lists nb and their reverse
// edges, each row without repeats and nearest first: a directed list
// leaves a city of a sparse row unreachable, and a random walk on it
// drifts far along such rows (on pla85900 a walk of 50 steps ended 2.3
// times as far from its start as on the symmetric graph).
func (s *solo) symmetric(nb *neighbor.Lists) {
	n, k := len(s.queued), nb.K
	deg := make([]int32, n+1)
	for i, c := range nb.List {
		if c >= 0 && int(c) != i/k && !s.fixedEdge(int32(i/k), c) {
			deg[i/k]++
			deg[c]++
		}
	}
	s.at = make([]int32, n+1)
	for c := 0; c < n; c++ {
		s.at[c+1] = s.at[c] + deg[c]
	}
	fill := append([]int32(nil), s.at[:n]...)
	s.nb = make([]soloCand, s.at[n])
	for i, c := range nb.List {
		if a := int32(i / k); c >= 0 && c != a && !s.fixedEdge(a, c) {
			s.nb[fill[a]].c, s.nb[fill[c]].c = c, a
			fill[a]++
			fill[c]++
		}
	}
	// each row in place without repeats (seen: the row's city plus one),
	// then nearest first, ties by city
	seen := deg[:n]
	clear(seen)
	w := int32(0)
	for c := int32(0); c < int32(n); c++ {
		lo, hi := s.at[c], s.at[c+1]
		s.at[c] = w
		start := w
		for _, e := range s.nb[lo:hi] {
			if seen[e.c] == c+1 {
				continue
			}
			seen[e.c] = c + 1
			s.nb[w] = soloCand{int32(min(s.dist(c, e.c), soloFar)), e.c}
			w++
		}
		row := s.nb[start:w]
		for i := 1; i < len(row); i++ {
			x, j := row[i], i
			for ; j > 0 && (row[j-1].d > x.d || row[j-1].d == x.d && row[j-1].c > x.c); j-- {
				row[j] = row[j-1]
			}
			row[j] = x
		}
	}
	s.at[n] = w
	s.nb = s.nb[:w:w]
}

func (s *solo) push(c int32) {
	if !s.queued[c] {
		s.queued[c] = true
		s.queue = append(s.queue, c)
	}
}

// move makes the logged 2-opt move from the tour edges (a, b) and (c, d)
// to (a, c) and (b, d), b following a as d follows c in one direction.
func (s *solo) move(a, b, c, d int32) {
	s.flips++
	s.log = append(s.log, soloMove{a, b, c, d})
	if s.l.Next(a) == b {
		s.l.Flip(b, c)
	} else {
		s.l.Flip(c, b)
	}
}

// undo takes back the logged flips after the first mark.
func (s *solo) undo(mark int) {
	for i := len(s.log) - 1; i >= mark; i-- {
		m := s.log[i]
		if s.l.Next(m.a) == m.c {
			s.l.Flip(m.c, m.b)
		} else {
			s.l.Flip(m.b, m.c)
		}
	}
	s.log = s.log[:mark]
}

// drain runs the LK step from the queued cities until the queue is empty
// or stop says so; the cities of every improving step are queued again.
func (s *solo) drain(stop func() bool) {
	for i := 0; ; i++ {
		if i&255 == 0 && stop() {
			return
		}
		t1 := s.pop()
		if t1 < 0 {
			return
		}
		mark := len(s.log)
		if s.improve(t1) {
			for _, m := range s.log[mark:] {
				s.push(m.a)
				s.push(m.b)
				s.push(m.c)
				s.push(m.d)
			}
		}
		if !s.keep {
			s.log = s.log[:mark]
		}
	}
}

// pop takes the first queued city, or -1 when none is; the queue keeps
// its array, so that a kick's queue allocates nothing.
func (s *solo) pop() int32 {
	if s.qhead == len(s.queue) {
		s.queue, s.qhead = s.queue[:0], 0
		return -1
	}
	c := s.queue[s.qhead]
	s.qhead++
	s.queued[c] = false
	if s.qhead >= 4096 && 2*s.qhead >= len(s.queue) { // drop the taken head
		s.queue, s.qhead = s.queue[:copy(s.queue, s.queue[s.qhead:])], 0
	}
	return c
}

// improve applies the first improving LK step from t1 and the city after
// it, t2: the plain step, else the alternate second level (soloalt.go).
// The edge before t1 is tried from the city before it, so one direction
// a city covers each tour edge (both directions gained less a second: on
// the 2-H200 host, one core each, 60 s, seed 1, E100k.0 0.383 % against
// 0.441 % but pla85900 0.467 against 0.447 % and C100k.0 1.714 against
// 1.426 %, with a third fewer kicks).
func (s *solo) improve(t1 int32) bool {
	t2 := s.l.Next(t1)
	mark := len(s.log)
	s.removed.add(t1, t2)
	s.best, s.bestAt = 0, 0
	ok := s.step(t1, t2, s.dist(t1, t2), 0, mark)
	if !ok {
		s.undo(mark)
		ok = s.alternate(t1, t2, mark)
	}
	s.added.drop(0)
	s.removed.drop(0)
	if !ok {
		s.undo(mark)
		return false
	}
	s.undo(mark + s.bestAt)
	s.length -= s.best
	return true
}

// step extends an LK step whose free end is last, its gain G before the
// closing edge (last, t1), by one flip at depth level and deeper. It
// reports whether the path ended with a positive closing gain (s.best
// after the first s.bestAt flips since mark); the flips stay made.
func (s *solo) step(t1, last int32, G int64, level, mark int) bool {
	l := s.l
	breadth := 1
	var one [1]lkCand
	cands := one[:0]
	if level < len(soloBreadth) {
		breadth = soloBreadth[level]
		cands = s.cands[level][:0]
	}
	fwd := l.Next(t1) == last
	// the deeper levels follow only a flip that beats the best close by
	// more than the level (following flips that gain nothing yet at the
	// first levels, as linkern does, lost on pla85900: 0.530 against
	// 0.410 % at 60 s, seed 1)
	floor := int64(0)
	if level >= len(soloBreadth) {
		floor = s.best + int64(level)
	}
	cands = s.plainCands(t1, last, G, floor, fwd, breadth, cands)
	if level >= len(soloBreadth) {
		cands = s.makMorton(t1, last, G, floor, fwd, cands)
	}
	for _, c := range cands {
		if c.mm {
			if s.mmStep(t1, last, c, level, mark) {
				return true
			}
		} else if s.plainStep(t1, last, c, fwd, level, mark) {
			return true
		}
	}
	return s.best > 0
}

// plainCands returns cands holding the breadth best plain flips from
// last (most gain before the closing edge first), each gaining more than
// floor, so that step follows the most promising ones first.
func (s *solo) plainCands(t1, last int32, G, floor int64, fwd bool, breadth int, cands []lkCand) []lkCand {
	l := s.l
	sl, pl := l.Next(last), l.Prev(last)
	row := s.at[last]
	for _, e := range s.nb[row:s.at[last+1]] {
		t3, g1 := e.c, G-s.rowDist(last, e)
		if g1 <= floor {
			break
		}
		if t3 == t1 || t3 == sl || t3 == pl || s.removed.has(last, t3) {
			continue
		}
		t4 := l.Next(t3)
		if fwd {
			t4 = l.Prev(t3)
		}
		if t4 == t1 || s.added.has(t3, t4) {
			continue
		}
		g := g1 + s.dist(t3, t4)
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
		cands[j] = lkCand{t3, t4, g, false}
	}
	return cands
}

// plainStep makes the plain flip c of a step from (t1, last) at level
// and goes on from (t1, c.t4) as step does, reporting whether the step
// gained (its flip undone if not), as mmStep does for a Mak–Morton flip.
func (s *solo) plainStep(t1, last int32, c lkCand, fwd bool, level, mark int) bool {
	cg := c.g - s.dist(c.t4, t1)
	deeper := level+1 < soloDepth && c.g > s.nearest(c.t4)
	if cg <= s.best && !deeper {
		return false
	}
	if fwd { // t1 last .. t4 t3
		s.move(t1, last, c.t4, c.t3)
	} else { // t3 t4 .. last t1
		s.move(c.t3, c.t4, last, t1)
	}
	if cg > s.best {
		s.best, s.bestAt = cg, len(s.log)-mark
	}
	if !deeper {
		return true
	}
	return s.deeper(last, c, t1, c.t4, level, mark)
}

// deeper goes on from (t1, last) after the flip that added the edge (a,
// c.t3) and removed (c.t3, c.t4), those edges kept from later levels; it
// reports whether the step gained, the flip undone if not.
func (s *solo) deeper(a int32, c lkCand, t1, last int32, level, mark int) bool {
	na, nr := s.added.n(), s.removed.n()
	s.added.add(a, c.t3)
	s.removed.add(c.t3, c.t4)
	if s.step(t1, last, c.g, level+1, mark) {
		return true
	}
	s.added.drop(na)
	s.removed.drop(nr)
	s.undo(len(s.log) - 1)
	return false
}

// makMorton returns cands, one plain flip at most, or in its place the
// best Mak–Morton flip if it gains more before the closing edge: the
// edge (t1, t3) added and (t3, t4) removed, t4 after t3 as last after
// t1, so that t4 becomes the path's fixed end and last stays free.
func (s *solo) makMorton(t1, last int32, G, floor int64, fwd bool, cands []lkCand) []lkCand {
	l := s.l
	fp := l.Prev(t1)
	if !fwd {
		fp = l.Next(t1)
	}
	row := s.at[t1]
	for _, e := range s.nb[row:s.at[t1+1]] {
		t3, g1 := e.c, G-s.rowDist(t1, e)
		if g1 <= floor {
			break
		}
		if t3 == last || t3 == fp || s.removed.has(t1, t3) {
			continue
		}
		t4 := l.Prev(t3)
		if fwd {
			t4 = l.Next(t3)
		}
		if s.added.has(t3, t4) {
			continue
		}
		if g := g1 + s.dist(t3, t4); len(cands) == 0 || g > cands[0].g {
			cands = append(cands[:0], lkCand{t3, t4, g, true})
		}
	}
	return cands
}

// mmStep makes the Mak–Morton flip c of a step from (t1, last) at level
// and goes on from (c.t4, last) as step does; it reports whether the
// step gained, its flip undone if not.
func (s *solo) mmStep(t1, last int32, c lkCand, level, mark int) bool {
	cg := c.g - s.dist(c.t4, last)
	deeper := level+1 < soloDepth
	if cg <= s.best && !deeper {
		return false
	}
	s.move(c.t3, c.t4, t1, last) // t3 t4 .. t1 last to t3 t1 .. t4 last
	if cg > s.best {
		s.best, s.bestAt = cg, len(s.log)-mark
	}
	if !deeper {
		return true
	}
	return s.deeper(t1, c, c.t4, last, level, mark)
}

// soloEdges is a set of edges, taken out last first as an LK step's
// added or removed edges are, in an open-addressed table: a lookup reads
// one slot or a few, where a list would be scanned.
type soloEdges struct {
	key  [soloSlots]uint64 // an edge's ends, the smaller first; 0 empty
	slot []uint16          // the filled slots in the order filled
}

// soloSlots is the table's length, small enough for the first-level
// cache and many times the edges of a step (two a level, soloDepth
// levels, and the alternate step's).
const (
	soloSlotBits = 10
	soloSlots    = 1 << soloSlotBits
)

// soloSlot0 is the edge's key (lkPair, marked non-zero) and the first slot it may take.
func soloSlot0(a, b int32) (uint64, uint64) {
	k := 1<<63 | lkPair(a, b)
	return k, k * 0x9e3779b97f4a7c15 >> (64 - soloSlotBits)
}

func (e *soloEdges) add(a, b int32) {
	k, i := soloSlot0(a, b)
	for e.key[i] != 0 {
		i = (i + 1) & (soloSlots - 1)
	}
	e.key[i] = k
	e.slot = append(e.slot, uint16(i))
}

func (e *soloEdges) has(a, b int32) bool {
	k, i := soloSlot0(a, b)
	for ; e.key[i] != 0; i = (i + 1) & (soloSlots - 1) {
		if e.key[i] == k {
			return true
		}
	}
	return false
}

// n is the number of edges in e.
func (e *soloEdges) n() int { return len(e.slot) }

// drop takes out all but the first n edges added: clearing their slots
// keeps every probe sequence whole, as the edges added after an edge are
// taken out before it.
func (e *soloEdges) drop(n int) {
	for _, i := range e.slot[n:] {
		e.key[i] = 0
	}
	e.slot = e.slot[:n]
}

// walk is a random walk of s.walkLen candidate steps from c, never
// straight back, ending early at a city without candidates.
func (s *solo) walk(c int32) int32 {
	old := int32(-1)
	for i := 0; i < s.walkLen; i++ {
		lo, hi := s.at[c], s.at[c+1]
		if lo == hi {
			break
		}
		if x := s.nb[int(lo)+s.rng.Intn(int(hi-lo))].c; x != old {
			old, c = c, x
		}
	}
	return c
}

// firstEnd is a kick's first city: the edge's city of the last of
// 10 + n/1,000 random tour edges whose length above its city's nearest
// candidate exceeds the first's, else the first. So kicks lean to long
// edges without coming back to the longest ones each time.
func (s *solo) firstEnd() int32 {
	l := s.l
	n := l.N()
	var ref int64
	var t1 int32
	for i := 0; i <= 10+n/1000; i++ {
		c := int32(s.rng.Intn(n))
		a, e := c, s.dist(c, l.Next(c))
		if p := l.Prev(c); s.dist(p, c) > e {
			a, e = p, s.dist(p, c)
		}
		if v := e - s.nearest(a); i == 0 {
			ref, t1 = v, a
		} else if v > ref {
			t1 = a
		}
	}
	return t1
}

// kick makes a double bridge on a long edge and three more each a random
// walk on from the last, lets LK repair it from the cities about it, and
// undoes it all when the tour got longer. It reports whether a kick was
// made.
func (s *solo) kick(stop func() bool) bool {
	l := s.l
	t, ok := s.kickEnds()
	if !ok {
		return false
	}
	t1, t3, t5, t7 := t[0], t[1], t[2], t[3]
	t2, t4, t6, t8 := l.Next(t1), l.Next(t3), l.Next(t5), l.Next(t7)
	d := s.d
	delta := d.At(t1, t6) + d.At(t2, t5) + d.At(t3, t8) + d.At(t4, t7) -
		d.At(t1, t2) - d.At(t3, t4) - d.At(t5, t6) - d.At(t7, t8)
	before := s.length
	s.log, s.keep = s.log[:0], true
	defer func() { s.keep = false }()
	// W X Y Z (X = t2..t3, Y = t4..t5, Z = t6..t7) becomes W Z Y X
	s.move(t1, t2, t7, t8) // t1 t7..t6 t5..t4 t3..t2 t8
	s.move(t1, t7, t6, t5) // t1 t6..t7 t5..t4 t3..t2 t8
	s.move(t7, t5, t4, t3) // t1 t6..t7 t4..t5 t3..t2 t8
	s.move(t5, t3, t2, t8) // t1 t6..t7 t4..t5 t2..t3 t8
	s.length += delta
	s.queueKick([...]int32{t1, t2, t3, t4, t5, t6, t7, t8})
	s.drain(stop)
	for _, c := range s.queue[s.qhead:] {
		s.queued[c] = false
	}
	s.queue, s.qhead = s.queue[:0], 0
	s.equal = s.length == before
	if s.length > before {
		s.undo(0)
		s.length = before
	}
	return true
}

// kickEnds picks a kick's four cities in tour order, the first on a long
// edge and each next a random walk on from the last, and reports false
// when two coincide or are tour neighbours, as the double bridge then
// has no four distinct edges.
func (s *solo) kickEnds() ([4]int32, bool) {
	l := s.l
	t := [4]int32{s.firstEnd()}
	for i := 1; i < 4; i++ {
		t[i] = s.walk(l.Next(t[i-1]))
	}
	for i := range t {
		if s.fixedEdge(t[i], l.Next(t[i])) {
			return t, false
		}
		for j := i + 1; j < 4; j++ {
			if t[i] == t[j] || t[i] == l.Next(t[j]) || t[j] == l.Next(t[i]) {
				return t, false
			}
		}
	}
	for i := 1; i < 4; i++ {
		for j := i + 1; j < 4; j++ {
			if l.Between(t[0], t[j], t[i]) {
				t[i], t[j] = t[j], t[i]
			}
		}
	}
	return t, true
}

// queueKick queues each end t of a made kick, its candidates and its
// soloMark tour neighbours away from the kick, so that LK repairs the
// tour about the kick first.
func (s *solo) queueKick(t [8]int32) {
	l := s.l
	turned := l.Next(t[0]) != t[5] // the list's direction turned
	for i, c := range t {
		for _, x := range s.nb[s.at[c]:s.at[c+1]] {
			s.push(x.c)
		}
		s.push(c)
		fwd := i%2 == 1 // t2 t4 t6 t8: their side goes on forward
		if turned {
			fwd = !fwd
		}
		for j := 0; j < soloMark; j++ {
			if fwd {
				c = l.Next(c)
			} else {
				c = l.Prev(c)
			}
			s.push(c)
		}
	}
}

// runSolos runs chained LK over the whole tour on each of env's workers,
// searches from the same tour with their own random streams: lkStart's
// where there are coordinates, the cities numbered along it, else t0.
func runSolos(env *Env, t0 []int32, nb *neighbor.Lists, d *tour.Dist) {
	// the search's city i is perm[i] (nil: the same)
	var perm []int32
	if t := lkStart(t0, d); t != nil {
		perm, t0 = t, make([]int32, len(t))
		for i := range t0 {
			t0[i] = int32(i)
		}
		d, nb = renumber(env.In, perm, nb)
	}
	var wg sync.WaitGroup
	for w := range env.Workers {
		wg.Go(func() { runSolo(env, w, t0, perm, nb, d) })
	}
	wg.Wait()
}

// runSolo is worker w's search in the partition search's place from
// Options.Solo: an LK descent over the whole tour t0 from every city,
// then kicks until the run ends; the search's city i is perm[i] (nil:
// the same).
func runSolo(env *Env, w int, t0, perm []int32, nb *neighbor.Lists, d *tour.Dist) {
	c := env.Control
	s := newSolo(t0, d.Length(t0), nb, d, newRNG(env.Seed, runctl.StreamStitch^uint64(w)), nil)
	var buf, own []int32
	tourOf := func(dst []int32) []int32 {
		if perm == nil {
			return s.l.Tour(dst)
		}
		own = s.l.Tour(own[:0])
		for _, x := range own {
			dst = append(dst, perm[x])
		}
		return dst
	}
	last := time.Now()
	offer := func(force bool) {
		if !force && time.Since(last) < 500*time.Millisecond {
			return
		}
		last = time.Now()
		if len(c.Moves) > w {
			c.Moves[w].V.Store(s.flips)
		}
		c.OfferFn(s.length, tourOf)
		if c.SnapshotDue() {
			buf = tourOf(buf[:0])
			c.Snapshot(buf, s.length, env.totalKicks(), env.frac(), 0)
		}
	}
	stop := func() bool {
		offer(false)
		return c.Done()
	}
	for _, x := range t0 {
		s.push(x)
	}
	s.drain(stop)
	budget := int64(env.Opts.Kicks)
	for kicks := int64(0); !c.Done() && (budget == 0 || kicks < budget); {
		s.log = s.log[:0]
		if s.kick(stop) {
			kicks++
			env.KicksDone[w].V.Add(1)
			s.sizeWalk()
		}
		offer(false)
	}
	offer(true)
}

// sizeWalk counts the last kick into the moving share of kicks that
// ended as long as they began and sets the walk by it.
func (s *solo) sizeWalk() {
	x := 0.0
	if s.equal {
		x = 1
	}
	s.equals += soloEqualDecay * (x - s.equals)
	s.walkLen = soloWalk
	if s.equals > soloEqualShare {
		s.walkLen = soloWalkLong
	}
}

// renumber is in's distances and the lists nb with city i of the search
// being perm[i]: numbered along a tour, the cities close in the plane sit
// close in memory, and a flip's and a step's reads hit the cache.
func renumber(in *problem.Instance, perm []int32, nb *neighbor.Lists) (*tour.Dist, *neighbor.Lists) {
	n := len(perm)
	inv := make([]int32, n)
	for i, c := range perm {
		inv[c] = int32(i)
	}
	k := nb.K
	out := &neighbor.Lists{K: k, List: make([]int32, n*k)}
	for i, c := range perm {
		for j, e := range nb.List[int(c)*k : int(c+1)*k] {
			if e >= 0 {
				e = inv[e]
			}
			out.List[i*k+j] = e
		}
	}
	return tour.LazyDist(problem.OfCities(in, in.Name, perm)), out
}
