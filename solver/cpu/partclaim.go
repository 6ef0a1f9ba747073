package cpu

import "slices"

// The companion's claims in the partition search. A companion (GPU auto's
// windows) may claim a path of the tour (solver.Companion, "Division of
// labour"): it searches the path's inner cities alone, its two end cities
// staying put, while the partition search leaves every edge of the path
// alone. The two then change disjoint sets of edges (the search at most
// the path's outer edges at its end cities), so the partition crossover
// that folds the companion's offer in keeps the gains of both. A round
// keeps the claimed edges that are still edges of its tour fixed (the
// segments', the regions' and the stitch's searches); where the claim is
// one path of the tour, the round's segments cover only the positions
// outside it and the regions only the cities outside it, so no worker
// spends its time on fixed edges.

// readClaim reads the companion's current claim after a publication.
func (pr *partRun) readClaim() {
	lk := pr.r.comp
	if lk == nil {
		return
	}
	c, id := lk.x.Claim(pr.claim)
	pr.claim = c
	if id == pr.claimID {
		return
	}
	pr.claimID = id
	if id == 0 {
		return
	}
	if pr.claimOf == nil {
		pr.claimOf = make([]uint64, pr.r.in.N)
	}
	for _, ct := range pr.claim {
		pr.claimOf[ct] = id
	}
}

// claimed reports whether city c belongs to the current claim.
func (pr *partRun) claimed(c int32) bool {
	return pr.claimID != 0 && pr.claimOf[c] == pr.claimID
}

// roundClaim finds the current claim in the tour for this round: its
// place where it is one path (claimFrom, claimLen) and the fixed-edge
// partners of the round, the instance's with the claimed edges still in
// the tour added.
func (pr *partRun) roundClaim() {
	pr.claimLen = 0
	pr.rfixed = pr.fixed
	n := pr.r.in.N
	if pr.claimID == 0 || len(pr.claim) < 2 || len(pr.claim) > n/2 {
		return
	}
	rf := grow(pr.rfixedBuf, 2*n)
	pr.rfixedBuf = rf
	if pr.fixed != nil {
		copy(rf, pr.fixed)
	} else {
		for i := range rf {
			rf[i] = -1
		}
	}
	add := func(a, b int32) {
		switch {
		case rf[2*a] == b || rf[2*a+1] == b:
		case rf[2*a] < 0:
			rf[2*a] = b
		default:
			rf[2*a+1] = b
		}
	}
	for i, a := range pr.t {
		if b := pr.t[(i+1)%n]; pr.claimed(a) && pr.claimed(b) {
			add(a, b)
			add(b, a)
		}
	}
	pr.rfixed = rf
	// one path: the claim's cities take the consecutive positions from
	// its first city to its last, one way or the other (the order
	// between them is the companion's, once a fold took its path)
	m := len(pr.claim)
	if at, dir, ok := pathAt(pr.t, pr.claim[0], pr.claim[m-1], m, pr.claimed); ok {
		pr.claimFrom, pr.claimLen = at, m
		if dir < 0 {
			pr.claimFrom = (at - (m - 1) + n) % n
		}
	}
}

// pathAt returns the position at of city first in tour u and the
// direction dir (+1 or -1) in which the m positions from at all hold
// cities that in accepts and end at city last; ok is false when neither
// direction does.
func pathAt(u []int32, first, last int32, m int, in func(int32) bool) (at, dir int, ok bool) {
	n := len(u)
	at = slices.Index(u, first)
	if at < 0 || m < 1 || m > n {
		return 0, 0, false
	}
	for _, dir := range [2]int{1, -1} {
		if u[((at+dir*(m-1))%n+n)%n] != last {
			continue
		}
		all := true
		for j := range m {
			if !in(u[((at+dir*j)%n+n)%n]) {
				all = false
				break
			}
		}
		if all {
			return at, dir, true
		}
	}
	return 0, 0, false
}

// claimCut cuts the positions outside the claim into the round's
// segments, when the claim is one path and they leave each segment at
// least partMinSegment cities: p segments of about equal size, the
// boundaries shifted by off. It returns false, having cut nothing,
// otherwise.
func (pr *partRun) claimCut(off int) bool {
	n, p := pr.r.in.N, pr.p
	free := n - pr.claimLen
	if pr.claimLen == 0 || free < 2*p*partMinSegment {
		return false
	}
	for _, ct := range pr.claim {
		pr.segOf[ct] = -1
		pr.border[ct] = false
	}
	// boundaries at s + i·free/p for i = 1..p-1, s within half a segment
	// either way: the first and the last segment take what the shift
	// leaves, half to one and a half segments each
	size := free / p
	s := off%size - size/2
	base := pr.claimFrom + pr.claimLen
	for i := range pr.segs {
		lo, hi := 0, free
		if i > 0 {
			lo = s + i*free/p
		}
		if i < p-1 {
			hi = s + (i+1)*free/p
		}
		pr.fillSeg(i, (base+lo)%n, hi-lo)
	}
	return true
}
