package tour

import "fmt"

// Linked is a tour stored as a doubly linked list over the cities, as Lam
// et al. store a solution for LWSA: Next[c] and Prev[c] are the
// successor and predecessor of city c. Relocation, Or-opt and swap moves
// are O(1) pointer updates; 2-opt reverses the shorter of the two paths.
type Linked struct {
	Next, Prev []int32
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

// link makes b follow a.
func (l *Linked) link(a, b int32) {
	l.Next[a] = b
	l.Prev[b] = a
}

// Relocate moves city c to between city u and Next[u] (LWSA's move) in
// O(1). u == c or u == Prev[c] leave the tour as it is.
func (l *Linked) Relocate(c, u int) {
	l.OrOpt(c, 1, u, false)
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
