package localsearch

import (
	"slices"
	"testing"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/tour"
)

// newTestK5 is a local search on n uniform cities from a random tour
// with the 5-opt move on candidate lists of every other city and no
// breadth limit, so that its local optima are exact.
func newTestK5(t *testing.T, n int, seed uint64) (*Search, *solver.Instance) {
	t.Helper()
	in := uniformInstance(n, seed)
	nb := neighbor.Nearest(in, n-1)
	if nb.K != n-1 {
		t.Fatalf("%d candidates, want %d", nb.K, n-1)
	}
	r := newRNG(seed, 3)
	s := New(tour.NewDist(in), nb.List, nb.K, r.RandomTour(n))
	s.r = r
	s.k5 = NewFiveOpt()
	for i := range s.k5.breadth {
		s.k5.breadth[i] = n
	}
	return s, in
}

// edgeCount is the tour's edges as a symmetric count matrix.
func edgeCount(tr []int32) [][]int {
	n := len(tr)
	m := make([][]int, n)
	for i := range m {
		m[i] = make([]int, n)
	}
	for i, a := range tr {
		b := tr[(i+1)%n]
		m[a][b]++
		m[b][a]++
	}
	return m
}

// exchangeCycle applies to the edge counts m of a tour the removal of
// the edges (t[2i], t[2i+1]) and the addition of (t[2i+1], t[2i+2]) and
// (t[2k-1], t[0]); it reports whether every removed edge was there and
// the result is one Hamiltonian cycle, and returns the counts.
func exchangeCycle(tr []int32, t []int32) ([][]int, bool) {
	n := len(tr)
	m := edgeCount(tr)
	k := len(t) / 2
	for i := 0; i < k; i++ {
		a, b := t[2*i], t[2*i+1]
		if m[a][b] == 0 {
			return nil, false
		}
		m[a][b]--
		m[b][a]--
	}
	for i := 0; i < k; i++ {
		a, b := t[2*i+1], t[(2*i+2)%(2*k)]
		if a == b {
			return nil, false
		}
		m[a][b]++
		m[b][a]++
	}
	for c := 0; c < n; c++ {
		deg := 0
		for x := 0; x < n; x++ {
			if m[c][x] > 1 {
				return nil, false
			}
			deg += m[c][x]
		}
		if deg != 2 {
			return nil, false
		}
	}
	prev, cur := -1, 0
	for steps := 1; ; steps++ {
		next := -1
		for x := 0; x < n; x++ {
			if m[cur][x] == 1 && x != prev {
				next = x
				break
			}
		}
		if next == 0 {
			return m, steps == n
		}
		prev, cur = cur, next
	}
}

func isTourEdge(m [][]int, a, b int32) bool { return m[a][b] > 0 }

// improvingSequential enumerates every sequential move of 2 to 5
// exchanged edges on tour tr (removed edges distinct tour edges, added
// edges not tour edges, one Hamiltonian cycle after) and returns one
// that shortens the tour, or nil.
func improvingSequential(d *tour.Dist, tr []int32) []int32 {
	n := int32(len(tr))
	m := edgeCount(tr)
	pos := make([]int32, n)
	for i, c := range tr {
		pos[c] = int32(i)
	}
	nbrs := func(c int32) [2]int32 {
		return [2]int32{tr[(pos[c]+1)%n], tr[(pos[c]+n-1)%n]}
	}
	t := make([]int32, 0, 2*maxK)
	var rec func(g int64) []int32
	rec = func(g int64) []int32 {
		k := len(t) / 2
		last := t[len(t)-1]
		if k >= 2 && !isTourEdge(m, last, t[0]) && last != t[0] {
			if g-d.At(last, t[0]) > 0 {
				if _, ok := exchangeCycle(tr, t); ok {
					return slices.Clone(t)
				}
			}
		}
		if k == maxK {
			return nil
		}
		for c := int32(0); c < n; c++ {
			if c == last || isTourEdge(m, last, c) {
				continue
			}
			for _, e := range nbrs(c) {
				dup := false
				for j := 0; j < k; j++ {
					if (t[2*j] == c && t[2*j+1] == e) || (t[2*j] == e && t[2*j+1] == c) {
						dup = true
					}
				}
				if dup {
					continue
				}
				t = append(t, c, e)
				if r := rec(g - d.At(last, c) + d.At(c, e)); r != nil {
					return r
				}
				t = t[:len(t)-2]
			}
		}
		return nil
	}
	for t1 := int32(0); t1 < n; t1++ {
		for _, t2 := range nbrs(t1) {
			t = append(t[:0], t1, t2)
			if r := rec(d.At(t1, t2)); r != nil {
				return r
			}
		}
	}
	return nil
}

// descend5 applies try5opt until no city has an improving move,
// checking the tour and its length after every move.
func descend5(t *testing.T, s *Search, in *solver.Instance) int {
	t.Helper()
	moves := 0
	for improved := true; improved; {
		improved = false
		for c := int32(0); c < int32(s.n); c++ {
			if s.try5opt(c) {
				checkLS(t, s, in, "5-opt move")
				improved = true
				moves++
			}
		}
	}
	for s.q.Len() > 0 {
		s.Pop()
	}
	return moves
}

// TestK5Deltas: every move try5opt applies changes the length by exactly
// its gain (checkLS recomputes it), and at the local optimum it reports
// no sequential move of up to 5 edges shortens the tour.
func TestK5Deltas(t *testing.T) {
	total := 0
	for n := 8; n <= 11; n++ {
		for seed := uint64(1); seed <= 6; seed++ {
			s, in := newTestK5(t, n, seed*31+uint64(n))
			total += descend5(t, s, in)
			if mv := improvingSequential(s.d, s.tour); mv != nil {
				t.Fatalf("n %d seed %d: local optimum %v has the improving move %v", n, seed, s.tour, mv)
			}
		}
	}
	if total == 0 {
		t.Fatal("no move applied")
	}
}

// TestK5DeltasKicked: from kicked local optima of 12 cities with the
// default breadth, every applied move keeps the length exact.
func TestK5DeltasKicked(t *testing.T) {
	s, in := newTestK5(t, 12, 5)
	s.k5.breadth = kBreadth
	for range 200 {
		s.Kick(3)
		descend5(t, s, in)
	}
}

// TestK5Feasible compares kFeasible with an explicit construction of the
// exchanged edge set on random chains (removed edges distinct tour
// edges, added edges anywhere), and after kApply the tour's edges with
// that set.
func TestK5Feasible(t *testing.T) {
	feasible := [maxK + 1]int{}
	for trial := 0; trial < 20000; trial++ {
		n := 8 + trial%5
		s, in := newTestK5(t, n, uint64(trial))
		r := s.r
		kk := 2 + r.Intn(maxK-1)
		ch := s.k5.t[:2*kk]
		ok := true
		for i := 0; i < kk && ok; i++ {
			a := int32(r.Intn(n))
			b := s.succ(a)
			if r.Intn(2) == 1 {
				b = s.pred(a)
			}
			if s.k5.removed(i, a, b) {
				ok = false
			}
			ch[2*i], ch[2*i+1] = a, b
		}
		if !ok {
			continue
		}
		want, okWant := exchangeCycle(s.tour, ch)
		got := s.kFeasible(kk)
		if got != okWant {
			t.Fatalf("n %d tour %v chain %v: kFeasible %v, want %v", n, s.tour, ch, got, okWant)
		}
		if !got {
			continue
		}
		feasible[kk]++
		var gain int64
		for i := 0; i < kk; i++ {
			gain += s.d.At(ch[2*i], ch[2*i+1]) - s.d.At(ch[2*i+1], ch[(2*i+2)%(2*kk)])
		}
		old := slices.Clone(s.tour)
		s.record = true
		s.kApply(kk)
		s.length -= gain
		checkLS(t, s, in, "kApply")
		gotEdges := edgeCount(s.tour)
		for a := range n {
			for b := range n {
				if gotEdges[a][b] != want[a][b] {
					t.Fatalf("n %d tour %v chain %v: after kApply %v, edge (%d,%d) count %d, want %d", n, old, ch, s.tour, a, b, gotEdges[a][b], want[a][b])
				}
			}
		}
		s.undo()
		if !slices.Equal(s.tour, old) {
			t.Fatalf("undo gave %v, want %v", s.tour, old)
		}
	}
	for kk := 2; kk <= maxK; kk++ {
		if feasible[kk] == 0 {
			t.Errorf("no feasible %d-opt chain drawn", kk)
		}
	}
}

// TestK5FixedUndo: the move never removes a fixed edge, and undo
// restores the tour after a kick and a descent.
func TestK5FixedUndo(t *testing.T) {
	s, in := newTestK5(t, 12, 9)
	fixed := [][2]int{{int(s.tour[0]), int(s.tour[1])}, {int(s.tour[5]), int(s.tour[6])}}
	s.SetFixed(fixed)
	descend5(t, s, in)
	has := func() bool {
		m := edgeCount(s.tour)
		for _, e := range fixed {
			if m[e[0]][e[1]] == 0 {
				return false
			}
		}
		return true
	}
	if !has() {
		t.Fatalf("a fixed edge removed: %v", s.tour)
	}
	for range 50 {
		old, oldLen := slices.Clone(s.tour), s.length
		s.journal, s.saved = s.journal[:0], s.saved[:0]
		s.record = true
		s.Kick(3)
		descend5(t, s, in)
		if !has() {
			t.Fatalf("a fixed edge removed: %v", s.tour)
		}
		s.undo()
		s.length = oldLen
		if !slices.Equal(s.tour, old) {
			t.Fatalf("undo gave %v, want %v", s.tour, old)
		}
		checkLS(t, s, in, "undo")
	}
}

// TestK5Excludable: within a chain, a tour edge is excludable until the
// chain removes it, an edge the chain added is not, and a new chain
// starts with every tour edge excludable.
func TestK5Excludable(t *testing.T) {
	in := uniformInstance(20, 5)
	s := New(tour.NewDist(in), nil, 0, newRNG(5, 0).RandomTour(20))
	s.k5 = NewFiveOpt()
	k, c := s.k5, func(p int) int32 { return s.tour[p] }
	k.newChain(s.n)
	for p := range s.n {
		if !k.excludable(c(p), c((p+1)%s.n)) {
			t.Fatalf("edge at %d not excludable in a new chain", p)
		}
	}
	// a 2-opt step removes (3,4) and (8,9) and adds (3,8) and (4,9)
	a, b, x, y := c(3), c(4), c(8), c(9)
	k.exclude(s, a, b)
	k.exclude(s, x, y)
	s.move2(a, b, x, y)
	adjacent := func(u, v int32) bool { return s.succ(u) == v || s.pred(u) == v }
	if !adjacent(a, x) || !adjacent(b, y) {
		t.Fatal("the 2-opt step did not add (3,8) and (4,9)")
	}
	for _, e := range [][2]int32{{a, x}, {x, a}, {b, y}} {
		if k.excludable(e[0], e[1]) {
			t.Errorf("added edge %v excludable", e)
		}
	}
	for _, e := range [][2]int32{{c(2), a}, {y, s.succ(y)}, {c(0), c(1)}} {
		if !k.excludable(e[0], e[1]) {
			t.Errorf("tour edge %v from before the chain not excludable", e)
		}
	}
	k.newChain(s.n)
	if !k.excludable(a, x) || !k.excludable(b, y) {
		t.Error("a new chain keeps the old chain's marks")
	}
}
