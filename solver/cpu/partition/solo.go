package partition

import (
	"time"

	"github.com/tsplab/tsplab/internal/runctl"
	"github.com/tsplab/tsplab/solver/neighbor"
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

const (
	soloDepth = 25
	soloWalk  = 50 // the random walk's steps between a kick's cities
	soloMark  = 10 // tour neighbours of a kick's end queued
)

// soloMove is a logged flip: (a, b) and (c, d) became (a, c) and (b, d).
type soloMove struct{ a, b, c, d int32 }

// solo is the state of one worker's whole-tour search.
type solo struct {
	l      *twolevel.List
	d      *tour.Dist
	nb     []int32
	nbd    []int64 // the candidates' distances
	k      int
	length int64
	log    []soloMove
	queue  []int32
	queued []bool
	rng    *runctl.Rand
	keep   bool // keep the log of a kick's repair, to undo it
	// the current LK step: its best close and the flips to it, the edges
	// it added and removed
	best           int64
	bestAt         int
	added, removed []int32
	cands          [len(soloBreadth)][4]lkCand
}

// lkCand is a flip of an LK step: the edge (last, t3) added and (t3, t4)
// removed, g the gain before the closing edge.
type lkCand struct {
	t3, t4 int32
	g      int64
}

func newSolo(t0 []int32, length int64, nb *neighbor.Lists, d *tour.Dist, rng *runctl.Rand) *solo {
	n := len(t0)
	s := &solo{l: twolevel.New(t0), d: d, nb: nb.List, k: nb.K, length: length, queued: make([]bool, n), rng: rng}
	// each row nearest first, as the LK step stops at the first that
	// cannot gain
	s.nb = append([]int32(nil), nb.List...)
	s.nbd = make([]int64, len(nb.List))
	for i, c := range s.nb {
		s.nbd[i] = d.At(int32(i/nb.K), c)
	}
	for r := 0; r < len(s.nb); r += s.k {
		for i := r + 1; i < r+s.k; i++ {
			for j := i; j > r && s.nbd[j] < s.nbd[j-1]; j-- {
				s.nb[j], s.nb[j-1] = s.nb[j-1], s.nb[j]
				s.nbd[j], s.nbd[j-1] = s.nbd[j-1], s.nbd[j]
			}
		}
	}
	return s
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
	for i := 0; len(s.queue) > 0; i++ {
		if i&255 == 0 && stop() {
			return
		}
		t1 := s.queue[0]
		s.queue = s.queue[1:]
		s.queued[t1] = false
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
	if len(s.queue) == 0 {
		s.queue = s.queue[:0:0] // let the drained head go
	}
}

// improve applies the first improving LK step from t1, trying both of
// its tour edges.
func (s *solo) improve(t1 int32) bool {
	for dir := 0; dir < 2; dir++ {
		t2 := s.l.Next(t1)
		if dir == 1 {
			t2 = s.l.Prev(t1)
		}
		mark := len(s.log)
		s.added, s.removed = s.added[:0], append(s.removed[:0], t1, t2)
		s.best, s.bestAt = 0, 0
		if s.step(t1, t2, s.d.At(t1, t2), 0, mark) {
			s.undo(mark + s.bestAt)
			s.length -= s.best
			return true
		}
		s.undo(mark)
	}
	return false
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
	sl, pl := l.Next(last), l.Prev(last)
	floor := int64(0)
	if level >= len(soloBreadth) {
		floor = s.best + int64(level)
	}
	row := int(last) * s.k
	for i, t3 := range s.nb[row : row+s.k] {
		g1 := G - s.nbd[row+i]
		if g1 <= floor {
			break
		}
		if t3 == t1 || t3 == sl || t3 == pl || soloHas(s.removed, last, t3) {
			continue
		}
		t4 := l.Next(t3)
		if fwd {
			t4 = l.Prev(t3)
		}
		if t4 == t1 || soloHas(s.added, t3, t4) {
			continue
		}
		g := g1 + s.d.At(t3, t4)
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
		cg := c.g - s.d.At(c.t4, t1)
		deeper := level+1 < soloDepth && c.g > s.nbd[int(c.t4)*s.k]
		if cg <= s.best && !deeper {
			continue
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
		na, nr := len(s.added), len(s.removed)
		s.added = append(s.added, last, c.t3)
		s.removed = append(s.removed, c.t3, c.t4)
		if s.step(t1, c.t4, c.g, level+1, mark) {
			return true
		}
		s.added, s.removed = s.added[:na], s.removed[:nr]
		s.undo(len(s.log) - 1)
	}
	return s.best > 0
}

// soloHas reports whether the edge (a, b) is among the pairs of e.
func soloHas(e []int32, a, b int32) bool {
	for i := 0; i+1 < len(e); i += 2 {
		if (e[i] == a && e[i+1] == b) || (e[i] == b && e[i+1] == a) {
			return true
		}
	}
	return false
}

// walk is a random walk of soloWalk candidate steps from c, never
// straight back.
func (s *solo) walk(c int32) int32 {
	old := int32(-1)
	for i := 0; i < soloWalk; i++ {
		if x := s.nb[int(c)*s.k+s.rng.Intn(s.k)]; x != old {
			old, c = c, x
		}
	}
	return c
}

// firstEnd is a kick's first city: of a few random cities' longer tour
// edges, the one longest above its city's nearest candidate, from the
// city it leaves forward.
func (s *solo) firstEnd() int32 {
	l := s.l
	n := l.N()
	best, t1 := int64(-1)<<62, int32(0)
	for i := 0; i < 10+n/1000; i++ {
		c := int32(s.rng.Intn(n))
		a, e := c, s.d.At(c, l.Next(c))
		if p := l.Prev(c); s.d.At(p, c) > e {
			a, e = p, s.d.At(p, c)
		}
		if v := e - s.nbd[int(a)*s.k]; v > best {
			best, t1 = v, a
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
	t := [4]int32{s.firstEnd()}
	for i := 1; i < 4; i++ {
		t[i] = s.walk(l.Next(t[i-1]))
	}
	for i := range t {
		for j := i + 1; j < 4; j++ {
			if t[i] == t[j] || t[i] == l.Next(t[j]) || t[j] == l.Next(t[i]) {
				return false
			}
		}
	}
	// tour order from t[0]
	for i := 1; i < 4; i++ {
		for j := i + 1; j < 4; j++ {
			if l.Between(t[0], t[j], t[i]) {
				t[i], t[j] = t[j], t[i]
			}
		}
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
	// each end, soloMark tour neighbours away from the kick, its
	// candidates
	for i, c := range [...]int32{t1, t2, t3, t4, t5, t6, t7, t8} {
		row := int(c) * s.k
		for _, x := range s.nb[row : row+s.k] {
			s.push(x)
		}
		s.push(c)
		fwd := i%2 == 1 // t2 t4 t6 t8: their side goes on forward
		if l.Next(t1) != t6 {
			fwd = !fwd // the list's direction turned
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
	s.drain(stop)
	for _, c := range s.queue {
		s.queued[c] = false
	}
	s.queue = s.queue[:0]
	if s.length > before {
		s.undo(0)
		s.length = before
	}
	return true
}

// runSolo is the partition search's place on one worker from Options.Solo:
// an LK descent over the whole tour from every city, then kicks until the
// run ends.
func runSolo(env *Env, t0 []int32, nb *neighbor.Lists, d *tour.Dist) {
	c := env.Control
	s := newSolo(t0, d.Length(t0), nb, d, newRNG(env.Seed, runctl.StreamStitch))
	var buf []int32
	last := time.Now()
	offer := func(force bool) {
		if !force && time.Since(last) < 500*time.Millisecond {
			return
		}
		last = time.Now()
		c.OfferFn(s.length, func(dst []int32) []int32 { return s.l.Tour(dst) })
		if c.SnapshotDue() {
			buf = s.l.Tour(buf[:0])
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
			env.KicksDone[0].V.Add(1)
		}
		offer(false)
	}
	offer(true)
}
