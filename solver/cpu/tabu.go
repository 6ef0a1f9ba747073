package cpu

import (
	"maps"
	"strconv"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/tour"
)

// OptTabu turns swap-climb into one tabu search of that many iterations
// (Luong et al.'s protocol); OptTenure is its tenure.
const (
	OptTabu   = "tabu"
	OptTenure = "tenure"
)

// swapMoveIndex is the index of the swap of positions i < j in row order
// (row i holds (i, i+1) .. (i, n-1)): the tabu list's slot of the move, the
// same numbering as the GPU kernel's.
func swapMoveIndex(n, i, j int) int {
	return i*(2*n-1-i)/2 + j - i - 1
}

// swapTabu is a tabu search over the pair-exchange neighbourhood: every
// iteration evaluates all n(n-1)/2 swaps and applies the best admissible
// one, improving or not. A swap of positions (i, j) made at iteration it
// is tabu until iteration it+1+tenure (until[k] holds that iteration); a
// tabu swap is admissible when it gives a tour shorter than the best so
// far (aspiration). Ties go to the first pair in row order, as on the GPU.
type swapTabu struct {
	d      *tour.Dist
	n      int
	tenure int32
	until  []int32 // per move index: first iteration at which it is allowed
	t      []int32
	cur    int64
	best   []int32
	bestL  int64
	it     int32
	rem    []int64
}

func newSwapTabu(d *tour.Dist, start []int32, tenure int) *swapTabu {
	n := len(start)
	s := &swapTabu{d: d, n: n, tenure: int32(tenure), until: make([]int32, n*(n-1)/2),
		t: append([]int32(nil), start...), rem: make([]int64, n)}
	s.cur = d.Length(s.t)
	s.best, s.bestL = append([]int32(nil), s.t...), s.cur
	return s
}

// admissible reports whether move k with the given delta may be taken.
func (s *swapTabu) admissible(k int, delta int64) bool {
	return s.until[k] <= s.it || s.cur+delta < s.bestL
}

// choose returns the best admissible swap (ok false when every swap is
// tabu).
func (s *swapTabu) choose() (best int64, bi, bj int, ok bool) {
	n, t, d := s.n, s.t, s.d
	for j := range t {
		s.rem[j] = d.At(t[(j+n-1)%n], t[j]) + d.At(t[j], t[(j+1)%n])
	}
	take := func(delta int64, i, j int) {
		if (!ok || delta < best) && s.admissible(swapMoveIndex(n, i, j), delta) {
			best, bi, bj, ok = delta, i, j, true
		}
	}
	for i := 0; i < n-1; i++ {
		take(swapDelta(d, t, i, i+1), i, i+1)
		a, ap, an := t[i], t[(i+n-1)%n], t[i+1]
		jmax := n - 1
		if i == 0 {
			jmax = n - 2 // (0, n-1) are neighbours: below
		}
		k := swapMoveIndex(n, i, i+2)
		for j := i + 2; j <= jmax; j, k = j+1, k+1 {
			b, bp := t[j], t[j-1]
			bn := t[0]
			if j+1 < n {
				bn = t[j+1]
			}
			delta := d.At(ap, b) + d.At(b, an) + d.At(bp, a) + d.At(a, bn) - s.rem[i] - s.rem[j]
			if (!ok || delta < best) && (s.until[k] <= s.it || s.cur+delta < s.bestL) {
				best, bi, bj, ok = delta, i, j, true
			}
		}
		if i == 0 {
			take(swapDelta(d, t, 0, n-1), 0, n-1)
		}
	}
	return
}

// step runs one iteration; it returns false when no swap is admissible.
func (s *swapTabu) step() bool {
	delta, i, j, ok := s.choose()
	if !ok {
		return false
	}
	s.t[i], s.t[j] = s.t[j], s.t[i]
	s.until[swapMoveIndex(s.n, i, j)] = s.it + 1 + s.tenure
	s.cur += delta
	s.it++
	if s.cur < s.bestL {
		s.bestL = s.cur
		copy(s.best, s.t)
	}
	return true
}

// solveSwapTabu is swap-climb with the tabu option: one tabu search of
// iters iterations on one core from the start tour (Params.Start, else a
// random tour of the seed), stopped early by the time limit, the context
// or the target. Steps counts the iterations, Moves the swaps evaluated.
func solveSwapTabu(r *climbRun, iters, tenure int) (solver.Result, error) {
	c := r.c
	var t []int32
	if r.p.Start != nil {
		t = to32(r.p.Start)
	} else {
		t = newRNG(r.p.Seed, 0).randomTour(r.in.N)
	}
	s := newSwapTabu(r.d, t, solver.TabuTenure(r.in.N, tenure))
	m := int64(r.in.N) * int64(r.in.N-1) / 2
	c.offer(s.best, s.bestL)
	stopped := false
	for int(s.it) < iters {
		if c.done() {
			stopped = true
			break
		}
		if !s.step() {
			break
		}
		c.moves[0].v.Store(int64(s.it) * m)
		c.offer(s.best, s.bestL)
		if c.snapshotDue() {
			c.snapshot(s.t, s.cur, int64(s.it), float64(s.it)/float64(iters), 0)
		}
	}
	stopped = stopped || c.stopped.Load()
	c.snapshot(nil, s.bestL, int64(s.it), 1, 0)
	r.p.Extra = maps.Clone(r.p.Extra)
	if r.p.Extra == nil {
		r.p.Extra = map[string]string{}
	}
	r.p.Extra[OptTenure] = strconv.Itoa(int(s.tenure))
	return solver.Finish(r.in, r.e, r.p, toInt(s.best), int64(s.it)*m, int64(s.it), r.start, stopped, deviceName(1))
}
