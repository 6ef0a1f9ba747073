package window

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// cellRound is whether the rounds cut cells of the plane rather than paths.
func (s *search) cellRound() bool {
	if s.in.X == nil || s.in.Y == nil || s.count() < 2 {
		return false
	}
	return s.cfg.Shape == Cells
}

// cellsRound searches the cells of one cut of the plane, turned by an
// angle that changes every round, on the slots, each for slice.
func (s *search) cellsRound(ctx context.Context, slice time.Duration, round uint64) {
	cells := cutCells(s.in.X, s.in.Y, s.count(), float64(round)*2.399963) // the golden angle
	s.each(len(cells), round, func(i int, seed uint64) error {
		return s.cell(ctx, cells[i], slice, seed)
	})
}

// cutCells cuts the cities with coordinates x, y, turned by angle, into k
// cells of equal cities within one, splitting each part across its
// longer side.
func cutCells(x, y []float64, k int, angle float64) [][]int32 {
	n := len(x)
	sin, cos := math.Sincos(angle)
	u, v := make([]float64, n), make([]float64, n)
	ids := make([]int32, n)
	for i := range n {
		u[i], v[i] = x[i]*cos-y[i]*sin, x[i]*sin+y[i]*cos
		ids[i] = int32(i)
	}
	cells := make([][]int32, 0, k)
	var split func(ids []int32, k int)
	split = func(ids []int32, k int) {
		if k == 1 {
			cells = append(cells, ids)
			return
		}
		key := u
		if spread(ids, v) > spread(ids, u) {
			key = v
		}
		slices.SortFunc(ids, func(a, b int32) int { return cmp.Compare(key[a], key[b]) })
		cut := len(ids) * (k / 2) / k
		split(ids[:cut], k/2)
		split(ids[cut:], k-k/2)
	}
	split(ids, k)
	return cells
}

// spread is the width of the cities ids along key.
func spread(ids []int32, key []float64) float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, c := range ids {
		lo, hi = min(lo, key[c]), max(hi, key[c])
	}
	return hi - lo
}

// cellWindow is a cell's window: its cities in tour order from the start
// of one of the tour's paths through it, and the joins, the fixed edges
// from each path's last city to the next path's first (indices of
// cities), which stand for the tour outside the cell.
type cellWindow struct {
	cities []int
	joins  [][2]int
	broken []bool // broken[j]: cities j and j+1 (cyclically) are joined, not neighbours in the tour
}

// cellOf is the window of the cell members in tour t; ok is false when
// the members are one path of t that closes on itself (the whole tour).
func cellOf(t []int32, members []int32) (w cellWindow, ok bool) {
	n := len(t)
	pos := make([]int32, n)
	for i, c := range t {
		pos[c] = int32(i)
	}
	order := slices.Clone(members)
	slices.SortFunc(order, func(a, b int32) int { return cmp.Compare(pos[a], pos[b]) })
	m := len(order)
	follows := func(j int) bool { // order[j+1] is next after order[j] in the tour
		return int(pos[order[(j+1)%m]]) == (int(pos[order[j]])+1)%n
	}
	first := -1
	for j := range m {
		if !follows(j) {
			first = (j + 1) % m
			break
		}
	}
	if first < 0 {
		return w, false
	}
	w.cities = make([]int, m)
	for j := range m {
		w.cities[j] = int(order[(first+j)%m])
	}
	w.broken = make([]bool, m)
	for j := range m {
		a, b := w.cities[j], w.cities[(j+1)%m]
		if int(pos[b]) != (int(pos[a])+1)%n {
			w.broken[j] = true
			w.joins = append(w.joins, [2]int{j, (j + 1) % m})
		}
	}
	return w, true
}

// cell searches the window of the cell members of the current tour for
// up to slice, and splices its new paths into the tour when they are
// shorter and the tour stays one cycle.
func (s *search) cell(ctx context.Context, members []int32, slice time.Duration, seed uint64) error {
	s.mu.Lock()
	w, ok := cellOf(s.cur, members)
	s.mu.Unlock()
	if !ok {
		return nil
	}
	sub := subInstance(s.in, w.cities, w.joins)
	tour, err := s.solve(ctx, sub, slice, seed)
	if tour == nil || err != nil {
		return errorf(err, "cell of %d cities", len(w.cities))
	}
	added, err := w.newEdges(tour)
	if err != nil {
		return errorf(err, "cell of %d cities", len(w.cities))
	}
	s.spliceEdges(w.oldEdges(), added)
	return nil
}

// oldEdges are the tour's edges within the cell: its paths' edges.
func (w cellWindow) oldEdges() [][2]int {
	var e [][2]int
	for j, c := range w.cities {
		if !w.broken[j] {
			e = append(e, [2]int{c, w.cities[(j+1)%len(w.cities)]})
		}
	}
	return e
}

// newEdges are the edges within the cell of tour, a tour of the cell's
// window (indices of cities), the joins left out; an error when tour
// lacks a join.
func (w cellWindow) newEdges(tour []int) ([][2]int, error) {
	m := len(tour)
	isJoin := make(map[[2]int]bool, 2*len(w.joins))
	for _, j := range w.joins {
		isJoin[j], isJoin[[2]int{j[1], j[0]}] = true, true
	}
	var e [][2]int
	kept := 0
	for i, a := range tour {
		b := tour[(i+1)%m]
		if isJoin[[2]int{a, b}] {
			kept++
			continue
		}
		e = append(e, [2]int{w.cities[a], w.cities[b]})
	}
	if kept != len(w.joins) {
		return nil, fmt.Errorf("the search kept %d of the %d fixed joins", kept, len(w.joins))
	}
	return e, nil
}

// spliceEdges replaces the edges old of the current tour by added when
// they are shorter, both measured exactly on the instance, and the tour
// stays one cycle, and offers the tour, measured again whole, to the run.
func (s *search) spliceEdges(old, added [][2]int) {
	length := func(es [][2]int) (l int64) {
		for _, e := range es {
			l += s.in.Dist(e[0], e[1])
		}
		return l
	}
	before, after := length(old), length(added)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.Searched++
	if after >= before {
		return
	}
	t, ok := relink(s.cur, old, added)
	if !ok {
		s.st.Rejected++
		return
	}
	l := solver.TourLength(s.in, t)
	if l >= s.curLen {
		s.st.Rejected++
		return
	}
	s.cur = t
	s.st.Improved++
	s.st.Gain += s.curLen - l
	s.curLen = l
	s.c.Offer(s.cur, l)
	if s.c.SnapshotDue() {
		s.c.Snapshot(s.cur, l, int64(s.st.Searched), 0, 0)
	}
}

// relink is tour t with the edges old taken out and added put in, from
// t's first city on; ok is false when an old edge is not in t or the
// edges no longer make one cycle.
func relink(t []int32, old, added [][2]int) ([]int32, bool) {
	n := len(t)
	adj := make([][2]int32, n)
	for i, c := range t {
		adj[c] = [2]int32{t[(i+n-1)%n], t[(i+1)%n]}
	}
	// swap makes a's neighbour from to (-1: none)
	swap := func(a, from, to int32) bool {
		k := slices.Index(adj[a][:], from)
		if k < 0 {
			return false
		}
		adj[a][k] = to
		return true
	}
	for _, e := range old {
		a, b := int32(e[0]), int32(e[1])
		if !swap(a, b, -1) || !swap(b, a, -1) {
			return nil, false
		}
	}
	for _, e := range added {
		a, b := int32(e[0]), int32(e[1])
		if !swap(a, -1, b) || !swap(b, -1, a) {
			return nil, false
		}
	}
	out := make([]int32, 0, n)
	prev, c := int32(-1), t[0]
	for range n {
		out = append(out, c)
		next := adj[c][0]
		if next == prev {
			next = adj[c][1]
		}
		prev, c = c, next
		if c == t[0] {
			break
		}
	}
	return out, len(out) == n && c == t[0]
}
