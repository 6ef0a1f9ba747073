package tour

// Every Delta...Edges function returns new length − old length of the
// move it names, priced from the cities at its ends whatever holds the
// tour: a negative delta is an improvement.

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

// validCuts reports whether 0 < p1 < p2 < p3 < n.
func validCuts(n, p1, p2, p3 int) bool { return 0 < p1 && p1 < p2 && p2 < p3 && p3 < n }

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

// SwapAdjacent exchanges, in place, the l1 cities after position i of the
// cyclic tour t with the l2 cities after them (a double bridge of two
// short segments): A B C → A C B with B and C of l1 and l2 cities. It
// needs l1+l2 < len(t).
func SwapAdjacent(t []int32, i, l1, l2 int) {
	n := len(t)
	seg := make([]int32, 0, l1+l2)
	for j := 0; j < l1+l2; j++ {
		seg = append(seg, t[(i+1+j)%n])
	}
	j := 0
	for _, c := range seg[l1:] {
		t[(i+1+j)%n] = c
		j++
	}
	for _, c := range seg[:l1] {
		t[(i+1+j)%n] = c
		j++
	}
}
