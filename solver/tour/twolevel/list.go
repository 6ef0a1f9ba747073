// Package twolevel is a tour as a two-level doubly linked list (Fredman,
// Johnson, McGeoch and Ostheimer 1995): the cities in segments of about
// √n, each segment with a reversed bit and a rank among the segments, so
// that a 2-opt flip costs O(√n) and next, prev and sequence are O(1).
package twolevel

import "math"

// List is a tour of n cities. Within a segment the cities are linked in
// their stored order (nx, pv, ids increasing from first to last); the
// segment is walked from last to first when reversed. The segments are
// linked in tour order (snx, spv) and ranked from 0 along it.
type List struct {
	c        []node    // by city
	sg       []segment // by segment
	m, group int       // segments, and cities a segment at a build
	buf      []int32
}

// node is a city's segment, its rank in the segment's stored order, and
// the cities after and before it in that order, together so that a step
// from a city reads one cache line.
type node struct{ seg, id, nx, pv int32 }

// segment is a segment's first and last city in stored order, whether
// the tour walks it reversed, its rank along the tour, its size and the
// segments after and before it in tour order.
type segment struct {
	rev                               bool
	first, last, rank, size, snx, spv int32
}

// New returns the list of the tour t (a permutation of 0..len(t)-1).
func New(t []int32) *List {
	n := len(t)
	g := n // one segment below 64 cities
	if n >= 64 {
		g = int(math.Sqrt(float64(n)) / 2)
	}
	l := &List{c: make([]node, n), group: max(g, 1)}
	l.build(t)
	return l
}

// build lays t out in segments of l.group cities.
func (l *List) build(t []int32) {
	n := len(t)
	m := max(1, n/l.group)
	l.sg = make([]segment, m)
	for s := 0; s < m; s++ {
		lo, hi := s*n/m, (s+1)*n/m
		for i := lo; i < hi; i++ {
			c := t[i]
			l.c[c].seg, l.c[c].id = int32(s), int32(i-lo)
			if i > lo {
				l.c[c].pv = t[i-1]
			}
			if i+1 < hi {
				l.c[c].nx = t[i+1]
			}
		}
		l.sg[s].first, l.sg[s].last, l.sg[s].rank, l.sg[s].size = t[lo], t[hi-1], int32(s), int32(hi-lo)
		l.sg[s].snx, l.sg[s].spv = int32((s+1)%m), int32((s+m-1)%m)
	}
	l.m = m
}

// N is the number of cities.
func (l *List) N() int { return len(l.c) }

func (l *List) head(s int32) int32 {
	if l.sg[s].rev {
		return l.sg[s].last
	}
	return l.sg[s].first
}

func (l *List) tail(s int32) int32 {
	if l.sg[s].rev {
		return l.sg[s].first
	}
	return l.sg[s].last
}

// Next is the city after a in tour order.
func (l *List) Next(a int32) int32 {
	s := l.c[a].seg
	if l.sg[s].rev {
		if a != l.sg[s].first {
			return l.c[a].pv
		}
	} else if a != l.sg[s].last {
		return l.c[a].nx
	}
	return l.head(l.sg[s].snx)
}

// Prev is the city before a in tour order.
func (l *List) Prev(a int32) int32 {
	s := l.c[a].seg
	if l.sg[s].rev {
		if a != l.sg[s].last {
			return l.c[a].nx
		}
	} else if a != l.sg[s].first {
		return l.c[a].pv
	}
	return l.tail(l.sg[s].spv)
}

// key orders the cities along the tour from the segment of rank 0.
func (l *List) key(a int32) int64 {
	s := l.c[a].seg
	k := int64(l.c[a].id)
	if l.sg[s].rev {
		k = -k
	}
	return int64(l.sg[s].rank)<<32 + k + 1<<31
}

// Between reports whether b lies on the tour path from a forward to c
// (ends included).
func (l *List) Between(a, b, c int32) bool {
	ka, kb, kc := l.key(a), l.key(b), l.key(c)
	if ka <= kc {
		return ka <= kb && kb <= kc
	}
	return kb >= ka || kb <= kc
}

// Tour appends the cities in tour order from city 0 to dst.
func (l *List) Tour(dst []int32) []int32 {
	c := int32(0)
	for range l.c {
		dst = append(dst, c)
		c = l.Next(c)
	}
	return dst
}

// Flip reverses the tour path from b forward to c: with a = Prev(b) and
// d = Next(c), the edges (a, b) and (c, d) become (a, c) and (b, d). It
// may reverse the rest of the tour instead, the same tour the other way
// round.
func (l *List) Flip(b, c int32) {
	if b == c || l.Next(c) == b {
		return
	}
	sb, sc := l.c[b].seg, l.c[c].seg
	if sb == sc {
		if l.key(b) > l.key(c) {
			l.Flip(l.Next(c), l.Prev(b))
			return
		}
		// a short path in place, a long one as its own segment
		if k := l.c[c].id - l.c[b].id; 4*max(k, -k) < 3*l.sg[sb].size || l.m < 3 {
			l.reverseIn(sb, b, c)
			return
		}
	}
	// the side with fewer segments
	if k := (int(l.sg[sc].rank) - int(l.sg[sb].rank) + l.m) % l.m; 2*k > l.m {
		l.Flip(l.Next(c), l.Prev(b))
		return
	}
	l.splitBefore(b, sb == sc, false)
	if c != l.tail(l.c[c].seg) {
		// the part after c moves on unless that is b's segment; with b
		// it always moves on
		sb, sc := l.c[b].seg, l.c[c].seg
		l.splitBefore(l.Next(c), l.sg[sc].snx == sb, sb == sc)
	}
	l.reverseRun(l.c[b].seg, l.c[c].seg)
	if l.sg[l.c[b].seg].size > int32(8*l.group) || l.sg[l.c[c].seg].size > int32(8*l.group) {
		l.buf = l.Tour(l.buf[:0])
		l.build(l.buf)
	}
}

// reverseIn reverses the path x..y inside segment s (x before y) in
// place: each city's links swap and its rank mirrors.
func (l *List) reverseIn(s, x, y int32) {
	lo, hi := x, y
	if l.sg[s].rev {
		lo, hi = y, x
	}
	outL, outR := l.c[lo].pv, l.c[hi].nx
	isFirst, isLast := lo == l.sg[s].first, hi == l.sg[s].last
	ids := l.c[lo].id + l.c[hi].id
	for c := lo; ; {
		n := &l.c[c]
		next := n.nx
		n.nx, n.pv, n.id = n.pv, next, ids-n.id
		if c == hi {
			break
		}
		c = next
	}
	l.c[hi].pv, l.c[lo].nx = outL, outR
	if isFirst {
		l.sg[s].first = hi
	} else {
		l.c[outL].nx = hi
	}
	if isLast {
		l.sg[s].last = lo
	} else {
		l.c[outR].pv = lo
	}
}

// splitBefore makes b the first city of its segment in tour order: the
// smaller part of its segment, the cities before b or those from b on,
// joins the segment before or after it; with back the cities before b
// always move, with on those from b.
func (l *List) splitBefore(b int32, back, on bool) {
	s := l.c[b].seg
	h := l.head(s)
	if b == h {
		return
	}
	nb := l.c[b].id - l.c[h].id // the cities before b
	if nb < 0 {
		nb = -nb
	}
	p := l.buf[:0]
	// the smaller part moves, unless its new segment is large already
	mb, mf := nb, l.sg[s].size-nb
	if big := int32(2 * l.group); l.sg[l.sg[s].spv].size > big {
		mb += big
	} else if l.sg[l.sg[s].snx].size > big {
		mf += big
	}
	rev := l.sg[s].rev
	// within s the tour goes on by nx, or by pv when s is reversed
	if back || (!on && mb <= mf) {
		for c := h; c != b; {
			p = append(p, c)
			if rev {
				c = l.c[c].pv
			} else {
				c = l.c[c].nx
			}
		}
		if l.sg[s].rev {
			l.sg[s].last = b
		} else {
			l.sg[s].first = b
		}
		l.moveTo(p, l.sg[s].spv, false)
	} else {
		t := l.tail(s)
		for c := b; ; {
			p = append(p, c)
			if c == t {
				break
			}
			if rev {
				c = l.c[c].pv
			} else {
				c = l.c[c].nx
			}
		}
		if l.sg[s].rev {
			l.sg[s].first = l.c[b].nx
		} else {
			l.sg[s].last = l.c[b].pv
		}
		l.moveTo(p, l.sg[s].snx, true)
	}
	l.sg[s].size -= int32(len(p))
	l.buf = p
}

// moveTo puts the cities p, in tour order, at the head or the tail of
// segment s in tour order.
func (l *List) moveTo(p []int32, s int32, head bool) {
	app := head == l.sg[s].rev // appended after last, else put before first
	for i := range p {
		c := p[i]
		if head {
			c = p[len(p)-1-i]
		}
		l.c[c].seg = s
		if app {
			e := l.sg[s].last
			l.c[c].id, l.c[c].pv, l.c[e].nx, l.sg[s].last = l.c[e].id+1, e, c, c
		} else {
			f := l.sg[s].first
			l.c[c].id, l.c[c].nx, l.c[f].pv, l.sg[s].first = l.c[f].id-1, f, c, c
		}
	}
	l.sg[s].size += int32(len(p))
	if l.c[l.sg[s].first].id < -1<<30 || l.c[l.sg[s].last].id > 1<<30 {
		i := int32(0)
		for c := l.sg[s].first; ; c = l.c[c].nx {
			l.c[c].id = i
			i++
			if c == l.sg[s].last {
				break
			}
		}
	}
}

// reverseRun reverses the segments from a to b in tour order, the run
// keeping its ranks: each segment's links swap and its rank mirrors.
func (l *List) reverseRun(a, b int32) {
	p, q := l.sg[a].spv, l.sg[b].snx
	ra, m := l.sg[a].rank, int32(l.m)
	last := l.sg[b].rank - ra // the run's last place from a
	if last < 0 {
		last += m
	}
	for s, i := a, int32(0); ; i++ {
		g := &l.sg[s]
		next := g.snx
		g.rev, g.snx, g.spv = !g.rev, g.spv, next
		if g.rank = ra + last - i; g.rank >= m {
			g.rank -= m
		}
		if s == b {
			break
		}
		s = next
	}
	l.sg[a].snx, l.sg[b].spv = q, p
	l.sg[p].snx, l.sg[q].spv = b, a
}
