package climb

import (
	"github.com/tsplab/tsplab/internal/runctl"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/tour"
)

// OptTabu makes swap-climb one tabu search of that many iterations (Luong et al.).
const (
	OptTabu   = "tabu"
	OptTenure = "tenure"
)

// swapMoveIndex is the swap of positions i < j's row-order index: its tabu slot.
func swapMoveIndex(n, i, j int) int {
	return i*(2*n-1-i)/2 + j - i - 1
}

// swapTabu is a tabu search over pair exchanges: the best admissible swap each iteration, tabu until until[k] unless it
// beats the best.
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
	rows   [3][]int64 // distance rows of choose, n+1 each
}

func newSwapTabu(d *tour.Dist, start []int32, tenure int) *swapTabu {
	n := len(start)
	s := &swapTabu{d: d, n: n, tenure: int32(tenure), until: make([]int32, n*(n-1)/2),
		t: append([]int32(nil), start...), rem: make([]int64, n)}
	for r := range s.rows {
		s.rows[r] = make([]int64, n+1)
	}
	s.cur = d.Length(s.t)
	s.best, s.bestL = append([]int32(nil), s.t...), s.cur
	return s
}

// admissible reports whether move k with the given delta may be taken.
func (s *swapTabu) admissible(k int, delta int64) bool {
	return s.until[k] <= s.it || s.cur+delta < s.bestL
}

// choose returns the best admissible swap (ok false when all are tabu), pricing rows from three shifting distance rows.
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
	P, A, N := s.rows[0], s.rows[1], s.rows[2]
	s.fill(P, t[n-1], 2)
	s.fill(A, t[0], 1)
	s.fill(N, t[1], 2)
	for i := 0; i < n-1; i++ {
		if i > 0 {
			P, A, N = A, N, P
			s.fill(N, t[i+1], i+2)
		}
		take(swapDelta(d, t, i, i+1), i, i+1)
		jmax := n - 1
		if i == 0 {
			jmax = n - 2 // (0, n-1) are neighbours: below
		}
		if jmax >= i+2 {
			// the row's moves j = i+2 .. jmax under one index x = j-i-2 (no bounds checks)
			remI, k0 := s.rem[i], swapMoveIndex(n, i, i+2)
			pj := P[i+2 : jmax+1]
			nj := N[i+2 : jmax+1][:len(pj)]
			am := A[i+1 : jmax][:len(pj)]
			ap := A[i+3 : jmax+2][:len(pj)]
			rj := s.rem[i+2 : jmax+1][:len(pj)]
			for x := range pj {
				delta := pj[x] + nj[x] + am[x] + ap[x] - remI - rj[x]
				if (!ok || delta < best) && (s.until[k0+x] <= s.it || s.cur+delta < s.bestL) {
					best, bi, bj, ok = delta, i, i+2+x, true
				}
			}
		}
		if i == 0 {
			take(swapDelta(d, t, 0, n-1), 0, n-1)
		}
	}
	return
}

// fill sets row[k] = d(c, t[k]) from from on, and row[n] = d(c, t[0]).
func (s *swapTabu) fill(row []int64, c int32, from int) {
	s.d.Row(c, s.t, from, row[:s.n])
	row[s.n] = s.d.At(c, s.t[0])
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

// solveSwapTabu is swap-climb's tabu search of iters iterations on one core.
func solveSwapTabu(r *climbRun, iters, tenure int) (solver.Result, error) {
	c := r.c
	var t []int32
	if r.p.Start != nil {
		t = runctl.To32(r.p.Start)
	} else {
		t = runctl.NewRand(r.p.Seed, 0).RandomTour(r.in.N)
	}
	s := newSwapTabu(r.d, t, solver.TabuTenure(r.in.N, tenure))
	m := int64(r.in.N) * int64(r.in.N-1) / 2
	c.Offer(s.best, s.bestL)
	stopped := false
	for int(s.it) < iters {
		if c.Done() {
			stopped = true
			break
		}
		if !s.step() {
			break
		}
		c.Moves[0].V.Store(int64(s.it) * m)
		c.Offer(s.best, s.bestL)
		if c.SnapshotDue() {
			c.Snapshot(s.t, s.cur, int64(s.it), float64(s.it)/float64(iters), 0)
		}
	}
	stopped = stopped || c.Stopped.Load()
	c.Snapshot(nil, s.bestL, int64(s.it), 1, 0)
	return solver.Finish(r.in, r.e, r.p, solver.Outcome{Tour: runctl.ToInt(s.best), Moves: int64(s.it) * m, Steps: int64(s.it), Start: r.start, Stopped: stopped, Device: runctl.DeviceName(1),
		Settings: solver.Settings{Tenure: int(s.tenure)}})
}
