package tour

// The moves below serve the tests: the Array and Linked forms with every
// move and its delta are the oracle the engines' move layer is checked against.

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// Delta2Opt prices the 2-opt move on positions i and j (cyclic) of a:
// edges (t[i], t[i+1]) and (t[j], t[j+1]) are replaced by (t[i], t[j])
// and (t[i+1], t[j+1]). a.Apply2Opt(i, j) performs it.
func Delta2Opt(d *Dist, a *Array, i, j int) int64 {
	i, j = a.wrap(i), a.wrap(j)
	if i == j {
		return 0
	}
	return Delta2OptEdges(d, int32(a.Tour[i]), int32(a.At(i+1)), int32(a.Tour[j]), int32(a.At(j+1)))
}

// DeltaLinked2Opt prices the 2-opt move that replaces edges (a, Next[a])
// and (b, Next[b]) of l by (a, b) and (Next[a], Next[b]); l.Apply2Opt(a,
// b) performs it.
func DeltaLinked2Opt(d *Dist, l *Linked, a, b int) int64 {
	if a == b {
		return 0
	}
	return Delta2OptEdges(d, int32(a), l.Next[a], int32(b), l.Next[b])
}

// deltaInsert is DeltaInsertEdges on int cities.
func deltaInsert(d *Dist, p, s, e, q, u, v int, reversed bool) int64 {
	return DeltaInsertEdges(d, int32(p), int32(s), int32(e), int32(q), int32(u), int32(v), reversed)
}

// DeltaRelocate prices LWSA's move on a: remove city c and reinsert it
// between city u and its successor. u == c or u == a.Prev(c) is no move.
// a.Relocate(c, u) performs it.
func DeltaRelocate(d *Dist, a *Array, c, u int) int64 {
	if len(a.Tour) < 3 || u == c {
		return 0
	}
	p := a.Prev(c)
	if u == p {
		return 0
	}
	return deltaInsert(d, p, c, c, a.Next(c), u, a.Next(u), false)
}

// DeltaLinkedRelocate is DeltaRelocate on a linked tour; l.Relocate(c, u)
// performs it.
func DeltaLinkedRelocate(d *Dist, l *Linked, c, u int) int64 {
	if len(l.Next) < 3 || u == c || int(l.Prev[c]) == u {
		return 0
	}
	c32, u32 := int32(c), int32(u)
	return DeltaInsertEdges(d, l.Prev[c], c32, c32, l.Next[c], u32, l.Next[u], false)
}

// DeltaOrOpt prices the Or-opt move on a: the segment of n cities at
// positions i..i+n-1 (n from 1 to 3 in the usual neighbourhood) moves to
// between city u and its successor, reversed or not. u inside the
// segment or just before it, n < 1 or n > Len()-2 is no move.
// a.OrOpt(i, n, u, reversed) performs it.
func DeltaOrOpt(d *Dist, a *Array, i, n, u int, reversed bool) int64 {
	if n < 1 || n > len(a.Tour)-2 {
		return 0
	}
	i = a.wrap(i)
	off := a.Pos[u] - i
	if off < 0 {
		off += len(a.Tour)
	}
	if off < n || off == len(a.Tour)-1 {
		return 0
	}
	return deltaInsert(d, a.At(i-1), a.Tour[i], a.At(i+n-1), a.At(i+n), u, a.Next(u), reversed)
}

// DeltaLinkedOrOpt is DeltaOrOpt on a linked tour, the segment being the n
// cities from city s on; l.OrOpt(s, n, u, reversed) performs it.
func DeltaLinkedOrOpt(d *Dist, l *Linked, s, n, u int, reversed bool) int64 {
	if n < 1 || n > len(l.Next)-2 {
		return 0
	}
	e, inside := l.segmentEnd(s, n, u)
	if inside || int(l.Prev[s]) == u {
		return 0
	}
	return deltaInsert(d, int(l.Prev[s]), s, e, int(l.Next[e]), u, int(l.Next[u]), reversed)
}

// DeltaSwap prices exchanging the cities at positions i and j of a
// (the pair-swap move of Luong et al.'s swap neighbourhood); adjacent
// positions are handled. a.Swap(i, j) performs it.
func DeltaSwap(d *Dist, a *Array, i, j int) int64 {
	if len(a.Tour) < 4 {
		return 0 // every exchange of 3 or fewer cities is the same cycle
	}
	i, j = a.wrap(i), a.wrap(j)
	if i == j {
		return 0
	}
	return DeltaSwapEdges(d, int32(a.At(i-1)), int32(a.Tour[i]), int32(a.At(i+1)), int32(a.At(j-1)), int32(a.Tour[j]), int32(a.At(j+1)))
}

// DeltaLinkedSwap prices exchanging cities x and y of l; l.Swap(x, y)
// performs it.
func DeltaLinkedSwap(d *Dist, l *Linked, x, y int) int64 {
	if len(l.Next) < 4 || x == y {
		return 0
	}
	return DeltaSwapEdges(d, l.Prev[x], int32(x), l.Next[x], l.Prev[y], int32(y), l.Next[y])
}

// DoubleBridgeCuts draws the three cut positions 0 < p1 < p2 < p3 < n of
// a random double bridge, uniformly among all such triples; n < 4 gives
// (0, 0, 0), which DoubleBridgeAt treats as no move.
func DoubleBridgeCuts(n int, rng *rand.Rand) (p1, p2, p3 int) {
	if n < 4 {
		return 0, 0, 0
	}
	// Three distinct values in 1..n-1, sorted.
	p1 = 1 + rng.IntN(n-1)
	for p2 = 1 + rng.IntN(n-1); p2 == p1; p2 = 1 + rng.IntN(n-1) {
	}
	for p3 = 1 + rng.IntN(n-1); p3 == p1 || p3 == p2; p3 = 1 + rng.IntN(n-1) {
	}
	c := []int{p1, p2, p3}
	slices.Sort(c)
	return c[0], c[1], c[2]
}

// DeltaDoubleBridge prices the double bridge with cuts p1, p2, p3 on t:
// with A = t[:p1], B = t[p1:p2], C = t[p2:p3], D = t[p3:], the tour
// A B C D becomes A C B D (Martin, Otto & Felten's kick, a 4-opt move
// that 2-opt and 3-opt cannot undo in one step). Invalid cuts are no move.
func DeltaDoubleBridge(d *Dist, t []int, p1, p2, p3 int) int64 {
	if !validCuts(len(t), p1, p2, p3) {
		return 0
	}
	return DeltaDoubleBridgeEdges(d, int32(t[p1-1]), int32(t[p1]), int32(t[p2-1]), int32(t[p2]), int32(t[p3-1]), int32(t[p3]))
}

// DoubleBridge returns a new tour: t with a random double bridge applied
// (see DoubleBridgeCuts and DeltaDoubleBridge). Tours of fewer than 4
// cities come back unchanged (copied).
func DoubleBridge(t []int, rng *rand.Rand) []int {
	p1, p2, p3 := DoubleBridgeCuts(len(t), rng)
	return DoubleBridgeAt(t, p1, p2, p3)
}

// NewLinked returns the linked form of tour t.
func NewLinked(t []int) *Linked {
	n := len(t)
	l := &Linked{Next: make([]int32, n), Prev: make([]int32, n)}
	l.Set(t)
	return l
}

// Set replaces the tour by t (same length), reusing the slices.
func (l *Linked) Set(t []int) {
	n := len(t)
	if len(l.Next) != n {
		l.Next, l.Prev = make([]int32, n), make([]int32, n)
	}
	for p, c := range t {
		nx := t[0]
		if p+1 < n {
			nx = t[p+1]
		}
		l.Next[c] = int32(nx)
		l.Prev[nx] = int32(c)
	}
}

// Tour returns the cities in order, starting at start and following Next.
func (l *Linked) Tour(start int) []int {
	n := len(l.Next)
	t := make([]int, 0, n)
	if n == 0 {
		return t
	}
	c := start
	for range n {
		t = append(t, c)
		c = int(l.Next[c])
	}
	return t
}

// Clone returns an independent copy of l.
func (l *Linked) Clone() *Linked {
	return &Linked{Next: append([]int32(nil), l.Next...), Prev: append([]int32(nil), l.Prev...)}
}

// Check verifies that Next forms one cycle through all cities and that
// Prev is its inverse.
func (l *Linked) Check() error {
	n := len(l.Next)
	if len(l.Prev) != n {
		return fmt.Errorf("linked tour: %d successors, %d predecessors", n, len(l.Prev))
	}
	if n == 0 {
		return nil
	}
	c := 0
	for k := range n {
		nx := int(l.Next[c])
		if nx < 0 || nx >= n {
			return fmt.Errorf("linked tour: city %d has successor %d out of range", c, nx)
		}
		if int(l.Prev[nx]) != c {
			return fmt.Errorf("linked tour: next of %d is %d but its prev is %d", c, nx, l.Prev[nx])
		}
		c = nx
		if c == 0 && k < n-1 {
			return fmt.Errorf("linked tour: cycle through city 1 has only %d cities of %d", k+1, n)
		}
	}
	if c != 0 {
		return fmt.Errorf("linked tour: %d steps from city 1 do not return to it", n)
	}
	return nil
}

// Swap exchanges the places of cities a and b in O(1).
func (l *Linked) Swap(a, b int) {
	if a == b || len(l.Next) < 3 {
		return
	}
	a32, b32 := int32(a), int32(b)
	pa, na, pb, nb := l.Prev[a], l.Next[a], l.Prev[b], l.Next[b]
	switch {
	case na == b32:
		l.link(pa, b32)
		l.link(b32, a32)
		l.link(a32, nb)
	case nb == a32:
		l.link(pb, a32)
		l.link(a32, b32)
		l.link(b32, na)
	default:
		l.link(pa, b32)
		l.link(b32, na)
		l.link(pb, a32)
		l.link(a32, nb)
	}
}

// Apply2Opt performs the 2-opt move that DeltaLinked2Opt prices: edges
// (a, Next[a]) and (b, Next[b]) become (a, b) and (Next[a], Next[b]). It
// reverses whichever of the paths Next[a]..b and Next[b]..a is shorter,
// walking both at once, so the cost is O(min). a == b, or b adjacent to a,
// leaves the tour as it is.
func (l *Linked) Apply2Opt(a, b int) {
	a32, b32 := int32(a), int32(b)
	an, bn := l.Next[a], l.Next[b]
	if a32 == b32 || an == b32 || bn == a32 {
		return
	}
	x, y := an, bn
	for x != b32 && y != a32 {
		x, y = l.Next[x], l.Next[y]
	}
	if x == b32 {
		l.reversePath(an, b32)
		l.link(a32, b32)
		l.link(an, bn)
	} else {
		l.reversePath(bn, a32)
		l.link(b32, a32)
		l.link(bn, an)
	}
}

// reversePath swaps Next and Prev of every city on the forward path
// from..to; the caller relinks the ends.
func (l *Linked) reversePath(from, to int32) {
	c := from
	for {
		nx := l.Next[c]
		l.Next[c], l.Prev[c] = l.Prev[c], l.Next[c]
		if c == to {
			return
		}
		c = nx
	}
}

// Between reports whether b lies on the forward path from x to c, ends
// included.
func (a *Array) Between(x, b, c int) bool {
	px, pb, pc := a.Pos[x], a.Pos[b], a.Pos[c]
	if px <= pc {
		return px <= pb && pb <= pc
	}
	return pb >= px || pb <= pc
}

// Swap exchanges the cities at positions i and j.
func (a *Array) Swap(i, j int) {
	i, j = a.wrap(i), a.wrap(j)
	ci, cj := a.Tour[i], a.Tour[j]
	a.Tour[i], a.Tour[j] = cj, ci
	a.Pos[cj], a.Pos[ci] = i, j
}

// Relocate moves city c to between city u and its successor (LWSA's
// move, Lam et al.), shifting the cities of the shorter side by one. u ==
// c or u == Prev(c) leave the tour as it is.
func (a *Array) Relocate(c, u int) { a.OrOpt(a.Pos[c], 1, u, false) }

// Set replaces the tour by t (same length), reusing the slices.
func (a *Array) Set(t []int) {
	if len(t) != len(a.Tour) {
		a.Tour = make([]int, len(t))
		a.Pos = make([]int, len(t))
	}
	copy(a.Tour, t)
	for p, c := range a.Tour {
		a.Pos[c] = p
	}
}

// Check verifies that Tour is a permutation and Pos its inverse.
func (a *Array) Check() error {
	if len(a.Pos) != len(a.Tour) {
		return fmt.Errorf("tour has %d cities, position index %d", len(a.Tour), len(a.Pos))
	}
	for p, c := range a.Tour {
		if c < 0 || c >= len(a.Tour) || a.Pos[c] != p {
			return fmt.Errorf("position %d holds city %d but the index disagrees", p, c)
		}
	}
	return nil
}

// segmentEnd returns the last city of the l-city segment starting at s,
// and whether u lies inside it.
func (l *Linked) segmentEnd(s, n, u int) (int, bool) {
	e, in := s, s == u
	for range n - 1 {
		e = int(l.Next[e])
		in = in || e == u
	}
	return e, in
}

// OrOpt moves the segment of n cities starting at city s (s, Next[s], ...)
// to between city u and Next[u], in its own orientation or reversed, in
// O(n). A u inside the segment or just before it leaves the tour as it is,
// as does n < 1 or n > Len()-2.
func (l *Linked) OrOpt(s, n, u int, reversed bool) {
	if n < 1 || n > len(l.Next)-2 {
		return
	}
	e, inside := l.segmentEnd(s, n, u)
	if inside || int(l.Prev[s]) == u {
		return
	}
	p, q, v := l.Prev[s], l.Next[e], l.Next[u]
	l.link(p, q)
	s32, e32, u32 := int32(s), int32(e), int32(u)
	if !reversed {
		l.link(u32, s32)
		l.link(e32, v)
		return
	}
	for c, k := s32, 0; k < n; k++ {
		nx := l.Next[c]
		l.Next[c], l.Prev[c] = l.Prev[c], l.Next[c]
		c = nx
	}
	l.link(u32, e32)
	l.link(s32, v)
}
