package partition

import (
	"slices"
	"time"

	"github.com/tsplab/tsplab/internal/runctl"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/tour"
)

// lkStart is chained LK's start tour from t0: the quick Borůvka tour,
// from which LK descends further than from a greedy tour (solo.go),
// unless t0 is a searched tour (improvedStart); nil without coordinates.
func lkStart(t0 []int32, d *tour.Dist) []int32 {
	pts, _ := points(d)
	q := quickBoruvka(pts)
	if q != nil && improvedStart(d.Length(t0), d.Length(q)) {
		return slices.Clone(t0)
	}
	return q
}

// improvedStartShare: a start tour shorter than this share of the quick
// Borůvka tour is a searched one (the user's, or the GPU's descent), not
// a construction; greedy tours are within 4 % of it (E100k.0 0.8 %,
// pla85900 3.6 %, E1M.0 0.8 %).
const improvedStartShare = 0.95

// improvedStart tells whether a start tour of length l, the quick Borůvka
// tour being of length qb, is a searched tour that chained LK keeps
// instead of the quick Borůvka tour.
func improvedStart(l, qb int64) bool { return float64(l) < improvedStartShare*float64(qb) }

// lkPiece tells whether segment sg is searched by chained Lin–Kernighan
// (SoloPieces): a piece searched once.
func (pr *partRun) lkPiece(sg *partSeg) bool {
	return pr.lkSeen != nil && pr.rep == 1 && sg.m >= 8
}

// searchLK is search's chained Lin–Kernighan on piece seg: its local tour,
// the path closed from its last city to its first (the cells' paths
// joined by virtual edges on region rounds), its fixed edges kept, an LK
// descent from the cities whose tour neighbours changed since a piece
// last searched them, then kicks until the piece's budget or end. The
// improved path is written back into the piece's positions (on region
// rounds into sg.order for mergeRegions). It returns the change of length
// (never positive) and the kicks made.
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
	s := newSolo(t0, sg.d.Length(t0), nb, sg.d, rng, sg.edges)
	length0 := s.length
	var counted int64
	stop := func() bool {
		c.Moves[wk].V.Add(s.flips - counted)
		counted = s.flips
		return c.Done() || (!end.IsZero() && !time.Now().Before(end))
	}
	for j := range int32(m) {
		p, nx := (j+int32(m)-1)%int32(m), (j+1)%int32(m)
		if s.fixedEdge(p, j) || s.fixedEdge(j, nx) || pr.lkSeen[sg.cities[j]] != lkPair(sg.cities[p], sg.cities[nx]) {
			s.push(j)
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
	t := s.l.Tour(t0[:0])
	for q, x := range t {
		p, nx := t[(q+m-1)%m], t[(q+1)%m]
		// a city the descent left queued when the time ran out is not
		// searched yet
		if !s.queued[x] && !s.fixedEdge(p, x) && !s.fixedEdge(x, nx) {
			pr.lkSeen[sg.cities[x]] = lkPair(sg.cities[p], sg.cities[nx])
		}
	}
	if s.length >= length0 {
		return 0, kicks
	}
	if pr.region {
		sg.order = append(sg.order[:0], t...)
		return s.length - length0, kicks
	}
	// the path from the first city away from the last
	if t[1] == int32(m-1) {
		slices.Reverse(t[1:])
	}
	n, at := r.In.N, sg.from
	for _, x := range t {
		pr.t[at] = sg.cities[x]
		if at++; at == n {
			at = 0
		}
	}
	return s.length - length0, kicks
}

// lkPair is a city's two tour neighbours a and b as one word, either
// order.
func lkPair(a, b int32) uint64 {
	return uint64(min(a, b))<<32 | uint64(max(a, b))
}
