package ils

import (
	"math"
	"slices"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/neighbor"
)

// ggrMaxRounds caps the greedy start's matching rounds (a round adding no edge ends them).
const ggrMaxRounds = 100

// ggrLink joins the greedy matching's fragments (deg, adj, oth: degrees, neighbours, other ends) into one tour,
// in the order of their smaller end, each entered at the end nearer the previous exit.
func ggrLink(deg, oth, adj []int32, near func(a, b int32) float64) []int32 {
	n := len(deg)
	tour := make([]int32, 0, n)
	last := int32(-1)
	for r := 0; r < n; r++ {
		e := int32(r)
		if deg[r] >= 2 || oth[r] < e {
			continue
		}
		in, out := e, oth[r]
		if last >= 0 && near(last, out) < near(last, in) {
			in, out = out, in
		}
		tour = ggrWalk(tour, adj, deg, in, out)
		last = out
	}
	return tour
}

// ggrWalk appends the fragment from end in to end out to tour.
func ggrWalk(tour, adj, deg []int32, in, out int32) []int32 {
	prev, cur := int32(-1), in
	tour = append(tour, cur)
	for cur != out {
		next := adj[2*cur]
		if next == prev && deg[cur] == 2 {
			next = adj[2*cur+1]
		}
		prev, cur = cur, next
		tour = append(tour, cur)
	}
	return tour
}

// ggrMatchMaxN is the most cities whose fragments' ends are matched on the host (docs/DECISIONS.md#gls-greedy-start).
const ggrMatchMaxN = 2000000

// ggrEndK is the nearest fragment ends each end is matched against.
const ggrEndK = 8

// ggrMatchEnds continues the greedy matching on the host over the fragments' ends (ggrMatchRound), on a clustered
// instance until a round joins under an eighth of those left (docs/DECISIONS.md#gls-greedy-start).
func ggrMatchEnds(deg, oth, adj []int32, xy func(c int32) (float64, float64), clustered bool) {
	for {
		left, joined := ggrMatchRound(deg, oth, adj, xy)
		if !clustered || joined == 0 || 8*joined < left {
			return
		}
	}
}

// ggrMatchRound joins pairs of ends shortest first; it returns the fragments there were, less one, and the pairs joined.
func ggrMatchRound(deg, oth, adj []int32, xy func(c int32) (float64, float64)) (left, joined int) {
	var ends []int32
	lone := 0 // a lone city is both ends of its fragment
	for c, d := range deg {
		if d < 2 {
			ends = append(ends, int32(c))
		}
		if d == 0 {
			lone++
		}
	}
	m := len(ends)
	left = (m+lone)/2 - 1
	if m < 4 {
		return left, 0
	}
	x, y := make([]float64, m), make([]float64, m)
	for i, c := range ends {
		x[i], y[i] = xy(c)
	}
	nb := neighbor.Nearest(solver.NewCoordInstance("ends", solver.Euc2D, x, y, nil), ggrEndK)
	// a pair as its length's float32 bits over the list entry's index
	keys := make([]uint64, 0, m*nb.K)
	for i := range m {
		for k, j := range nb.Of(i) {
			dx, dy := x[i]-x[j], y[i]-y[j]
			d := float32(math.Sqrt(dx*dx + dy*dy))
			keys = append(keys, uint64(math.Float32bits(d))<<32|uint64(i*nb.K+k))
		}
	}
	slices.Sort(keys)
	for _, key := range keys {
		e := int(key & (1<<32 - 1))
		a, b := ends[e/nb.K], ends[nb.List[e]]
		if deg[a] >= 2 || deg[b] >= 2 || oth[a] == b {
			continue
		}
		ggrJoin(deg, oth, adj, a, b)
		joined++
	}
	return left, joined
}

// ggrJoin joins the fragments ending at a and b by the edge (a, b).
func ggrJoin(deg, oth, adj []int32, a, b int32) {
	adj[2*a+deg[a]], adj[2*b+deg[b]] = b, a
	deg[a]++
	deg[b]++
	ea, eb := oth[a], oth[b]
	oth[ea], oth[eb] = eb, ea
}
