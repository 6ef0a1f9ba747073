package tour

import (
	"math/rand/v2"
)

// Every Delta function returns new length − old length of the move it
// names, from at most a dozen distance lookups, without changing the
// tour: a negative delta is an improvement. A degenerate move (one that
// leaves the tour as it is, such as i == j) has delta 0, and its apply is
// a no-op. The Delta...Edges functions price a move from the cities at
// its ends, whatever holds the tour: the engines call them on their own
// int32 tours, and the Array and Linked forms below call them too.

// Delta2OptEdges prices replacing the tour edges (a, b) and (c, e) by
// (a, c) and (b, e).
func Delta2OptEdges(d *Dist, a, b, c, e int32) int64 {
	return d.At(a, c) + d.At(b, e) - d.At(a, b) - d.At(c, e)
}

// DeltaInsertEdges prices moving the path s..e, whose outside neighbours
// are p (before s) and q (after e), to between the adjacent cities u and
// v, reversed (e next to u) or not (s next to u).
func DeltaInsertEdges(d *Dist, p, s, e, q, u, v int32, reversed bool) int64 {
	x := d.At(p, q) - d.At(p, s) - d.At(e, q) - d.At(u, v)
	if reversed {
		return x + d.At(u, e) + d.At(s, v)
	}
	return x + d.At(u, s) + d.At(e, v)
}

// DeltaSwapEdges prices exchanging cities x and y whose tour neighbours
// are px, nx and py, ny; adjacent cities (nx == y or ny == x) are handled.
func DeltaSwapEdges(d *Dist, px, x, nx, py, y, ny int32) int64 {
	switch {
	case nx == y: // px x y ny → px y x ny
		return d.At(px, y) + d.At(x, ny) - d.At(px, x) - d.At(y, ny)
	case ny == x: // py y x nx → py x y nx
		return d.At(py, x) + d.At(y, nx) - d.At(py, y) - d.At(x, nx)
	}
	return d.At(px, y) + d.At(y, nx) + d.At(py, x) + d.At(x, ny) -
		d.At(px, x) - d.At(x, nx) - d.At(py, y) - d.At(y, ny)
}

// DeltaDoubleBridgeEdges prices the double bridge A B C D → A C B D where
// a1 ends A, b0..b1 is B, c0..c1 is C and d0 starts D.
func DeltaDoubleBridgeEdges(d *Dist, a1, b0, b1, c0, c1, d0 int32) int64 {
	return d.At(a1, c0) + d.At(c1, b0) + d.At(b1, d0) -
		d.At(a1, b0) - d.At(b1, c0) - d.At(c1, d0)
}

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
	if p1 > p2 {
		p1, p2 = p2, p1
	}
	if p2 > p3 {
		p2, p3 = p3, p2
	}
	if p1 > p2 {
		p1, p2 = p2, p1
	}
	return p1, p2, p3
}

// validCuts reports whether 0 < p1 < p2 < p3 < n.
func validCuts(n, p1, p2, p3 int) bool { return 0 < p1 && p1 < p2 && p2 < p3 && p3 < n }

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

// DoubleBridgeAt returns a new tour: t with the double bridge at cuts p1,
// p2, p3 applied (A C B D). Invalid cuts return a copy of t.
func DoubleBridgeAt(t []int, p1, p2, p3 int) []int {
	if !validCuts(len(t), p1, p2, p3) {
		return append([]int(nil), t...)
	}
	out := make([]int, 0, len(t))
	out = append(out, t[:p1]...)
	out = append(out, t[p2:p3]...)
	out = append(out, t[p1:p2]...)
	return append(out, t[p3:]...)
}

// DoubleBridge returns a new tour: t with a random double bridge applied
// (see DoubleBridgeCuts and DeltaDoubleBridge). Tours of fewer than 4
// cities come back unchanged (copied).
func DoubleBridge(t []int, rng *rand.Rand) []int {
	p1, p2, p3 := DoubleBridgeCuts(len(t), rng)
	return DoubleBridgeAt(t, p1, p2, p3)
}
