package localsearch

import "slices"

// KickKind is the perturbation TryKick makes.
type KickKind int8

const (
	// KickSegment swaps two short adjacent segments (A B C D → A C B D):
	// three tour edges replaced inside a window of at most 2·maxSeg cities
	// (Kick).
	KickSegment KickKind = iota
	// KickWalk is the double bridge of chained Lin–Kernighan (Applegate,
	// Cook and Rohe's walk kick): four tour edges whose first cities are
	// close in the plane, found by random walks over the candidate lists
	// from a long edge, replaced so that no sequential move undoes them;
	// the cities around the cuts are queued (WalkKick).
	KickWalk
)

// SetKick sets the kick TryKick makes.
func (s *Search) SetKick(k KickKind) { s.kickKind = k }

// Walk kick settings (after Applegate, Cook and Rohe's chained LK).
const (
	// walkSteps is the length of each random walk between the cuts.
	walkSteps = 50
	// walkMark is how many tour neighbours of each cut's city, inside its
	// segment, are queued after the kick beside the city's candidates.
	walkMark = 10
	// walkHunt and walkHuntPer: the first cut is the longest edge (over its
	// city's nearest candidate) among walkHunt + n/walkHuntPer random cities.
	walkHunt    = 10
	walkHuntPer = 1000
	// walkTries is how many draws may meet a repeated city or a fixed edge
	// before the kick falls back to Kick's.
	walkTries = 8
)

// WalkKick applies a double bridge on four tour edges close in the plane:
// the first leaves a city drawn among random ones for a long edge, each
// next one leaves the end of a random walk of walkSteps steps over the
// candidate lists. Cut at those edges, the tour is four segments X0 X1 X2
// X3, X0 the longest; the kick rewrites X1 X2 X3 as X3 X2 X1 (each kept in
// its direction), so it costs the tour less X0. The eight cities at the
// cuts, walkMark tour neighbours of each inside its segment and their
// candidates are queued. With fixed edges or repeated cities in every
// draw it makes Kick's kick instead.
func (s *Search) WalkKick(maxSeg int) {
	var q [4]int32 // the positions of the cuts' first cities
	ok := false
	for try := 0; try < walkTries && !ok; try++ {
		ok = s.walkDraw(&q)
	}
	if !ok {
		s.Kick(maxSeg)
		return
	}
	slices.Sort(q[:])
	n := int32(s.n)
	// segment i runs from position q[i]+1 to q[i+1] (cyclic); r is the longest
	var l [4]int32
	r := 0
	for i := range 4 {
		l[i] = q[(i+1)%4] - q[i]
		if l[i] <= 0 {
			l[i] += n
		}
		if l[i] > l[r] {
			r = i
		}
	}
	// a, b: the city before and after each cut, cut i following segment r+i
	var a, b [4]int32
	for i := range 4 {
		p := q[(r+1+i)%4]
		a[i], b[i] = s.tour[p], s.tour[(p+1)%n]
	}
	// X0 = b[3]..a[0], X1 = b[0]..a[1], X2 = b[1]..a[2], X3 = b[2]..a[3];
	// X0 X3 X2 X1 joins a0–b2, a3–b1, a2–b0, a1–b3
	d := s.d
	s.length += d.At(a[0], b[2]) + d.At(a[3], b[1]) + d.At(a[2], b[0]) + d.At(a[1], b[3]) -
		d.At(a[0], b[0]) - d.At(a[1], b[1]) - d.At(a[2], b[2]) - d.At(a[3], b[3])
	l1, l2, l3 := l[(r+1)%4], l[(r+2)%4], l[(r+3)%4]
	start := (q[(r+1)%4] + 1) % n
	base := len(s.saved)
	p := start
	for range l1 + l2 + l3 {
		s.saved = append(s.saved, s.tour[p])
		p++
		if p == n {
			p = 0
		}
	}
	old := s.saved[base:]
	p = s.writeFrom(start, old[l1+l2:])
	p = s.writeFrom(p, old[l1:l1+l2])
	s.writeFrom(p, old[:l1])
	if s.record {
		s.journal = append(s.journal, jop{i: start, j: int32(base), w: l1 + l2 + l3})
	}
	for i := range 4 {
		s.markAround(a[i], false)
		s.markAround(b[i], true)
	}
}

// walkDraw draws the walk kick's four cuts into q (the positions of their
// first cities) and reports whether they are distinct, leave no city
// twice and remove no fixed edge.
func (s *Search) walkDraw(q *[4]int32) bool {
	c := s.longCity()
	var cities [8]int32
	for i := range 4 {
		if i > 0 {
			c = s.walk(s.succ(c))
		}
		cities[2*i], cities[2*i+1] = c, s.succ(c)
		if s.isFixed(c, cities[2*i+1]) {
			return false
		}
		q[i] = s.pos[c]
	}
	for i := range cities {
		for j := range i {
			if cities[i] == cities[j] {
				return false
			}
		}
	}
	return true
}

// longCity returns, among walkHunt + n/walkHuntPer cities drawn at random
// (from kickFrom when set), the one whose edge to its successor is
// longest over the distance to its nearest candidate.
func (s *Search) longCity() int32 {
	best, bestV := int32(-1), int64(0)
	for range walkHunt + s.n/walkHuntPer {
		var c int32
		if s.kickFrom != nil {
			c = s.kickFrom[s.r.Intn(len(s.kickFrom))]
		} else {
			c = int32(s.r.Intn(s.n))
		}
		v := s.d.At(c, s.succ(c)) - s.nbDist(c, 0, s.nb[int(c)*s.k])
		if best < 0 || v > bestV {
			best, bestV = c, v
		}
	}
	return best
}

// walk returns the end of a random walk of walkSteps steps over the
// candidate lists from c that never steps straight back.
func (s *Search) walk(c int32) int32 {
	prev := int32(-1)
	for range walkSteps {
		x := s.nb[int(c)*s.k+s.r.Intn(s.k)]
		if x != prev {
			prev, c = c, x
		}
	}
	return c
}

// markAround queues c, walkMark cities from it along the tour (forward
// when fwd) and c's candidates.
func (s *Search) markAround(c int32, fwd bool) {
	s.Push(c)
	x := c
	for range walkMark {
		if fwd {
			x = s.succ(x)
		} else {
			x = s.pred(x)
		}
		s.Push(x)
	}
	for _, y := range s.nb[int(c)*s.k : int(c)*s.k+s.k] {
		s.Push(y)
	}
}
