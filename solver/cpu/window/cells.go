package window

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/tour"
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

// cutCells cuts the cities, turned by angle, into k cells of equal cities within one, each part split across its longer side.
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

// cellWindow is a cell's window: its cities along the tour's paths through it, and the joins standing for the tour outside.
type cellWindow struct {
	cities []int
	joins  [][2]int
	broken []bool // broken[j]: cities j and j+1 (cyclically) are joined, not neighbours in the tour
}

// cellOf is the members' window in tour t; ok false when they are one path of t.
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

// cell searches the window of members for up to slice and splices its paths in when shorter and one cycle, while it
// searches and at the end.
func (s *search) cell(ctx context.Context, members []int32, slice time.Duration, seed uint64) error {
	s.mu.Lock()
	w, ok := cellOf(s.cur, members)
	s.mu.Unlock()
	if !ok {
		return nil
	}
	sub := subInstance(s.in, w.cities, w.joins)
	sp := &cellSplice{members: members, in: w.oldEdges()}
	tour, err := s.solve(ctx, sub, w.cities, slice, seed, func(t []int) {
		if added, err := w.newEdges(t); err == nil {
			s.spliceEdges(sp, added, false)
		}
	})
	if tour == nil || err != nil {
		return errorf(err, "cell of %d cities", len(w.cities))
	}
	added, err := w.newEdges(tour)
	if err != nil {
		return errorf(err, "cell of %d cities", len(w.cities))
	}
	s.spliceEdges(sp, added, true)
	return nil
}

// cellSplice is a cell's splices: its members, its edges now in the tour (in) and whether a splice changed them.
type cellSplice struct {
	members []int32
	in      [][2]int
	changed bool
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

// newEdges are the cell's edges of tour, a tour of the window, joins left out (an error when one lacks).
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

// spliceEdges replaces the cell's edges in the tour by added when shorter, measured exactly, where the tour stays one
// cycle or, when final, rejoins into one, and offers the tour to the run; final counts the cell's search as ended and
// its drops as rejected. A splice before the final one never rejoins, so that the cell's edges stay known.
func (s *search) spliceEdges(sp *cellSplice, added [][2]int, final bool) {
	length := func(es [][2]int) (l int64) {
		for _, e := range es {
			l += s.in.Dist(e[0], e[1])
		}
		return l
	}
	before, after := length(sp.in), length(added)
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.ended(final, &sp.changed)
	if after >= before {
		return
	}
	reject := func() {
		if final {
			s.st.Rejected++
		}
	}
	adj := tour.Links(s.cur)
	if !tour.Exchange(tour.NewAdj(adj), sp.in, added) {
		reject()
		return
	}
	t, ok := tour.Walk(adj, s.cur[0])
	if !ok && final {
		ok = join(s.in, adj, sp.members, s.fixedEdges())
		if ok {
			t, ok = tour.Walk(adj, s.cur[0])
		}
	}
	if !ok {
		reject()
		return
	}
	l := solver.TourLength(s.in, t)
	if l >= s.curLen {
		reject()
		return
	}
	s.cur, sp.in, sp.changed = t, added, true
	s.keep(l)
}

// maxJoins is the most joins a cell's splice may need.
const maxJoins = 8

// joinNear is the near members among which two cycles are joined.
const joinNear = 8

// join joins adj's cycles into one, each time the smallest by the cheapest 2-exchange among near members, no fixed edge
// removed; false past maxJoins or when impossible.
func join(in *solver.Instance, adj [][2]int32, members []int32, fixed map[[2]int32]bool) bool {
	var near map[int32][]int32
	nearOf := func(a int32) []int32 {
		if near == nil {
			near = make(map[int32][]int32, len(members))
			neighbor.Among(in, members, joinNear, func(e, c int32) { near[e] = append(near[e], c) })
		}
		return near[a]
	}
	free := func(a, b int32) bool { return !fixed[[2]int32{min(a, b), max(a, b)}] }
	d := func(a, b int32) int64 { return in.Dist(int(a), int(b)) }
	_, ok := tour.JoinCycles(tour.NewAdj(adj), maxJoins, members, nearOf, free, d)
	return ok
}

// fixedEdges is the instance's fixed edges as a set, each pair in order.
func (s *search) fixedEdges() map[[2]int32]bool {
	s.fixedOnce.Do(func() {
		s.fixed = make(map[[2]int32]bool, len(s.in.FixedEdges))
		for _, e := range s.in.FixedEdges {
			a, b := int32(e[0]), int32(e[1])
			s.fixed[[2]int32{min(a, b), max(a, b)}] = true
		}
	})
	return s.fixed
}
