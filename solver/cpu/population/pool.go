// Package population is the pop engine: a pool of good tours kept
// diverse, recombined pairwise by partition crossover (solver/cpu/recomb),
// each child descended by an iterated local search and offered back to
// the pool, with several workers at once.
package population

import (
	"math"
	"math/rand/v2"
	"slices"
)

// Pool holds up to its capacity of distinct tours: a tour enters while there is room, else replaces the closest member
// by edge distance if shorter; no duplicate enters. It is not safe for concurrent use.
type Pool struct {
	cap, n  int
	members []member
	// scratch: the offered tour's neighbours
	succ, pred []int32
}

// member is a pool tour with its neighbours, for the edge distance.
type member struct {
	tour       []int32
	length     int64
	succ, pred []int32
	gpu        bool // the tour came from the accelerator's pool
}

// NewPool returns an empty pool for tours of n cities, capacity at least 1.
func NewPool(capacity, n int) *Pool {
	return &Pool{cap: max(capacity, 1), n: n, succ: make([]int32, n), pred: make([]int32, n)}
}

// Len is the number of tours in the pool.
func (p *Pool) Len() int { return len(p.members) }

// Cap is the pool's capacity.
func (p *Pool) Cap() int { return p.cap }

// neighbours writes t's successors and predecessors into succ and pred.
func neighbours(t, succ, pred []int32) {
	n := len(t)
	for i, c := range t {
		succ[c] = t[(i+1)%n]
		pred[c] = t[(i+n-1)%n]
	}
}

// distance counts the edges of the tour (succ) member m lacks.
func (m *member) distance(succ []int32) int {
	d := 0
	for c, s := range succ {
		if m.succ[c] != s && m.pred[c] != s {
			d++
		}
	}
	return d
}

// Offer puts tour t of length l in the pool by the rule and reports whether it entered.
func (p *Pool) Offer(t []int32, l int64) bool { return p.OfferFrom(t, l, false) }

// OfferFrom is Offer with the tour's origin (fromGPU: the accelerator's).
func (p *Pool) OfferFrom(t []int32, l int64, fromGPU bool) bool {
	if len(t) != p.n {
		return false
	}
	neighbours(t, p.succ, p.pred)
	closest, closestD := -1, math.MaxInt
	for i := range p.members {
		d := p.members[i].distance(p.succ)
		if d == 0 {
			return false
		}
		if d < closestD || (d == closestD && p.members[i].length > p.members[closest].length) {
			closest, closestD = i, d
		}
	}
	if len(p.members) < p.cap {
		m := member{tour: slices.Clone(t), length: l, succ: make([]int32, p.n), pred: make([]int32, p.n), gpu: fromGPU}
		copy(m.succ, p.succ)
		copy(m.pred, p.pred)
		p.members = append(p.members, m)
		return true
	}
	m := &p.members[closest]
	if l >= m.length {
		return false
	}
	copy(m.tour, t)
	copy(m.succ, p.succ)
	copy(m.pred, p.pred)
	m.length = l
	m.gpu = fromGPU
	return true
}

// FromGPU is the number of members that came from the accelerator's pool.
func (p *Pool) FromGPU() int {
	k := 0
	for i := range p.members {
		if p.members[i].gpu {
			k++
		}
	}
	return k
}

// Best returns the index of the shortest member (-1: empty pool).
func (p *Pool) Best() int {
	best := -1
	for i := range p.members {
		if best < 0 || p.members[i].length < p.members[best].length {
			best = i
		}
	}
	return best
}

// Tour returns member i's tour (the pool's own) and length.
func (p *Pool) Tour(i int) ([]int32, int64) { return p.members[i].tour, p.members[i].length }

// Pair draws two different members, the first favouring the shorter half, or returns false with fewer than two.
func (p *Pool) Pair(r *rand.Rand) (i, j int, ok bool) {
	k := len(p.members)
	if k < 2 {
		return 0, 0, false
	}
	i = r.IntN(k)
	if o := r.IntN(k); p.members[o].length < p.members[i].length {
		i = o
	}
	j = r.IntN(k - 1)
	if j >= i {
		j++
	}
	return i, j, true
}

// Spread is the members' mean edge distance to the shortest (fraction of cities) and the longest's excess (fraction).
func (p *Pool) Spread() (edges, length float64) {
	b := p.Best()
	if b < 0 || len(p.members) < 2 || p.n == 0 {
		return 0, 0
	}
	var sum, worst int64
	for i := range p.members {
		if i != b {
			sum += int64(p.members[i].distance(p.members[b].succ))
		}
		worst = max(worst, p.members[i].length)
	}
	edges = float64(sum) / float64(len(p.members)-1) / float64(p.n)
	if bl := p.members[b].length; bl > 0 {
		length = float64(worst-bl) / float64(bl)
	}
	return edges, length
}
