package tour

// Linked is a tour stored as a doubly linked list, as Lam et al. store a
// solution for LWSA: Next[c] and Prev[c] are the neighbours of city c.
type Linked struct {
	Next, Prev []int32
}

// link makes b follow a.
func (l *Linked) link(a, b int32) {
	l.Next[a] = b
	l.Prev[b] = a
}

// Relocate moves city c to between city u and Next[u] (LWSA's move) in
// O(1). u == c or u == Prev[c] leave the tour as it is.
func (l *Linked) Relocate(c, u int) {
	if len(l.Next) < 3 || u == c || int(l.Prev[c]) == u {
		return
	}
	p, q, v, c32 := l.Prev[c], l.Next[c], l.Next[u], int32(c)
	l.link(p, q)
	l.link(int32(u), c32)
	l.link(c32, v)
}
