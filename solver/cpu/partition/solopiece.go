package partition

import (
	"time"

	"github.com/tsplab/tsplab/internal/runctl"
	"github.com/tsplab/tsplab/solver/neighbor"
)

// lkPiece tells whether segment sg is searched by chained Lin–Kernighan
// (Options.Solo SoloPieces): a path round's piece of coordinates whose one
// fixed edge is its closing one, searched once.
func (pr *partRun) lkPiece(sg *partSeg) bool {
	return pr.env.Opts.Solo == SoloPieces && !pr.region && pr.rep == 1 && len(sg.edges) == 1 && sg.m >= 8
}

// searchLK is search's chained Lin–Kernighan on piece seg: its path closed
// by the fixed edge from its last city to its first, an LK descent from
// every city, then kicks until the piece's budget or end. The improved
// path is written back into the piece's positions. It returns the change
// of length (never positive) and the kicks made.
func (pr *partRun) searchLK(wk, seg int, end time.Time) (int64, int64) {
	r, c := pr.env, pr.env.Control
	sg := pr.segs[seg]
	m := sg.m
	t0 := make([]int32, m)
	for j := range t0 {
		t0[j] = int32(j)
	}
	nb := &neighbor.Lists{K: sg.k, List: sg.nb[:m*sg.k]}
	rng := newRNG(r.Seed, uint64(pr.round)<<24^uint64(seg)<<8^runctl.StreamSegment)
	s := newSolo(t0, sg.d.Length(t0), nb, sg.d, rng, [2]int32{int32(m - 1), 0})
	length0 := s.length
	var counted int64
	stop := func() bool {
		c.Moves[wk].V.Add(s.flips - counted)
		counted = s.flips
		return c.Done() || (!end.IsZero() && !time.Now().Before(end))
	}
	for j := range m {
		if j == 0 || j == m-1 || pr.lkSeen[sg.cities[j]] != lkPair(sg.cities[j-1], sg.cities[j+1]) {
			s.push(int32(j))
		}
	}
	s.drain(stop)
	kicks := int64(0)
	for k := 0; k < sg.kicks && !stop(); k++ {
		s.log = s.log[:0]
		if s.kick(stop) {
			kicks++
		}
	}
	stop()
	r.KicksDone[wk].V.Add(kicks)
	// the path from the first city away from the last, written back even
	// unchanged in length, as a kick that ties is kept
	next := s.l.Next
	if s.l.Next(0) == int32(m-1) {
		next = s.l.Prev
	}
	n, at := r.In.N, sg.from
	for x, p, j := int32(0), int32(-1), 0; j < m; j++ {
		nx := next(x)
		if p >= 0 && j < m-1 {
			pr.lkSeen[sg.cities[x]] = lkPair(sg.cities[p], sg.cities[nx])
		}
		pr.t[at] = sg.cities[x]
		if at++; at == n {
			at = 0
		}
		p, x = x, nx
	}
	return s.length - length0, kicks
}

// lkPair is a city's two path neighbours a and b as one word, either
// order.
func lkPair(a, b int32) uint64 {
	return uint64(min(a, b))<<32 | uint64(max(a, b))
}
