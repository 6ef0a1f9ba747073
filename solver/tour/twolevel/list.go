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
	seg, id, nx, pv []int32 // by city
	// by segment
	rev                               []bool
	first, last, rank, size, snx, spv []int32
	m, group                          int // segments, and cities a segment at a build
	buf, sbuf                         []int32
}

// New returns the list of the tour t (a permutation of 0..len(t)-1).
func New(t []int32) *List {
	n := len(t)
	g := n // one segment below 64 cities
	if n >= 64 {
		g = int(math.Sqrt(float64(n)) / 2)
	}
	l := &List{seg: make([]int32, n), id: make([]int32, n), nx: make([]int32, n), pv: make([]int32, n), group: max(g, 1)}
	l.build(t)
	return l
}

// build lays t out in segments of l.group cities.
func (l *List) build(t []int32) {
	n := len(t)
	m := max(1, n/l.group)
	l.rev = make([]bool, m)
	l.first, l.last, l.rank, l.size = make([]int32, m), make([]int32, m), make([]int32, m), make([]int32, m)
	l.snx, l.spv = make([]int32, m), make([]int32, m)
	for s := 0; s < m; s++ {
		lo, hi := s*n/m, (s+1)*n/m
		for i := lo; i < hi; i++ {
			c := t[i]
			l.seg[c], l.id[c] = int32(s), int32(i-lo)
			if i > lo {
				l.pv[c] = t[i-1]
			}
			if i+1 < hi {
				l.nx[c] = t[i+1]
			}
		}
		l.first[s], l.last[s], l.rank[s], l.size[s] = t[lo], t[hi-1], int32(s), int32(hi-lo)
		l.snx[s], l.spv[s] = int32((s+1)%m), int32((s+m-1)%m)
	}
	l.m = m
}

// N is the number of cities.
func (l *List) N() int { return len(l.seg) }

func (l *List) head(s int32) int32 {
	if l.rev[s] {
		return l.last[s]
	}
	return l.first[s]
}

func (l *List) tail(s int32) int32 {
	if l.rev[s] {
		return l.first[s]
	}
	return l.last[s]
}

// Next is the city after a in tour order.
func (l *List) Next(a int32) int32 {
	s := l.seg[a]
	if l.rev[s] {
		if a != l.first[s] {
			return l.pv[a]
		}
	} else if a != l.last[s] {
		return l.nx[a]
	}
	return l.head(l.snx[s])
}

// Prev is the city before a in tour order.
func (l *List) Prev(a int32) int32 {
	s := l.seg[a]
	if l.rev[s] {
		if a != l.last[s] {
			return l.nx[a]
		}
	} else if a != l.first[s] {
		return l.pv[a]
	}
	return l.tail(l.spv[s])
}

// key orders the cities along the tour from the segment of rank 0.
func (l *List) key(a int32) int64 {
	s := l.seg[a]
	k := int64(l.id[a])
	if l.rev[s] {
		k = -k
	}
	return int64(l.rank[s])<<32 + k + 1<<31
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
	for range l.seg {
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
	sb, sc := l.seg[b], l.seg[c]
	if sb == sc {
		if l.key(b) > l.key(c) {
			l.Flip(l.Next(c), l.Prev(b))
			return
		}
		// a short path in place, a long one as its own segment
		if k := l.id[c] - l.id[b]; 4*max(k, -k) < 3*l.size[sb] || l.m < 3 {
			l.reverseIn(sb, b, c)
			return
		}
	}
	// the side with fewer segments
	if k := (int(l.rank[sc]) - int(l.rank[sb]) + l.m) % l.m; 2*k > l.m {
		l.Flip(l.Next(c), l.Prev(b))
		return
	}
	l.splitBefore(b, sb == sc, false)
	if c != l.tail(l.seg[c]) {
		// the part after c moves on unless that is b's segment; with b
		// it always moves on
		sb, sc := l.seg[b], l.seg[c]
		l.splitBefore(l.Next(c), l.snx[sc] == sb, sb == sc)
	}
	l.reverseRun(l.seg[b], l.seg[c])
	if l.size[l.seg[b]] > int32(8*l.group) || l.size[l.seg[c]] > int32(8*l.group) {
		l.buf = l.Tour(l.buf[:0])
		l.build(l.buf)
	}
}

// reverseIn reverses the path x..y inside segment s (x before y).
func (l *List) reverseIn(s, x, y int32) {
	lo, hi := x, y
	if l.rev[s] {
		lo, hi = y, x
	}
	b := l.buf[:0]
	for c := lo; ; c = l.nx[c] {
		b = append(b, c)
		if c == hi {
			break
		}
	}
	l.buf = b
	id0 := l.id[lo]
	outL, outR := l.pv[lo], l.nx[hi]
	isFirst, isLast := lo == l.first[s], hi == l.last[s]
	k := len(b)
	for i := 0; i < k; i++ {
		c := b[k-1-i]
		l.id[c] = id0 + int32(i)
		if i > 0 {
			l.pv[c] = b[k-i]
		}
		if i+1 < k {
			l.nx[c] = b[k-2-i]
		}
	}
	nl, nh := b[k-1], b[0]
	if isFirst {
		l.first[s] = nl
	} else {
		l.pv[nl], l.nx[outL] = outL, nl
	}
	if isLast {
		l.last[s] = nh
	} else {
		l.nx[nh], l.pv[outR] = outR, nh
	}
}

// splitBefore makes b the first city of its segment in tour order: the
// smaller part of its segment, the cities before b or those from b on,
// joins the segment before or after it; with back the cities before b
// always move, with on those from b.
func (l *List) splitBefore(b int32, back, on bool) {
	s := l.seg[b]
	h := l.head(s)
	if b == h {
		return
	}
	nb := l.id[b] - l.id[h] // the cities before b
	if nb < 0 {
		nb = -nb
	}
	p := l.buf[:0]
	// the smaller part moves, unless its new segment is large already
	mb, mf := nb, l.size[s]-nb
	if big := int32(2 * l.group); l.size[l.spv[s]] > big {
		mb += big
	} else if l.size[l.snx[s]] > big {
		mf += big
	}
	if back || (!on && mb <= mf) {
		for c := h; c != b; c = l.Next(c) {
			p = append(p, c)
		}
		if l.rev[s] {
			l.last[s] = b
		} else {
			l.first[s] = b
		}
		l.moveTo(p, l.spv[s], false)
	} else {
		t := l.tail(s)
		for c := b; ; c = l.Next(c) {
			p = append(p, c)
			if c == t {
				break
			}
		}
		if l.rev[s] {
			l.first[s] = l.nx[b]
		} else {
			l.last[s] = l.pv[b]
		}
		l.moveTo(p, l.snx[s], true)
	}
	l.size[s] -= int32(len(p))
	l.buf = p
}

// moveTo puts the cities p, in tour order, at the head or the tail of
// segment s in tour order.
func (l *List) moveTo(p []int32, s int32, head bool) {
	app := head == l.rev[s] // appended after last, else put before first
	for i := range p {
		c := p[i]
		if head {
			c = p[len(p)-1-i]
		}
		l.seg[c] = s
		if app {
			e := l.last[s]
			l.id[c], l.pv[c], l.nx[e], l.last[s] = l.id[e]+1, e, c, c
		} else {
			f := l.first[s]
			l.id[c], l.nx[c], l.pv[f], l.first[s] = l.id[f]-1, f, c, c
		}
	}
	l.size[s] += int32(len(p))
	if l.id[l.first[s]] < -1<<30 || l.id[l.last[s]] > 1<<30 {
		i := int32(0)
		for c := l.first[s]; ; c = l.nx[c] {
			l.id[c] = i
			i++
			if c == l.last[s] {
				break
			}
		}
	}
}

// reverseRun reverses the segments from a to b in tour order, the run
// keeping its ranks.
func (l *List) reverseRun(a, b int32) {
	p, q := l.spv[a], l.snx[b]
	run := l.sbuf[:0]
	for s := a; ; s = l.snx[s] {
		run = append(run, s)
		if s == b {
			break
		}
	}
	l.sbuf = run
	r0, k := int(l.rank[a]), len(run)
	for i, s := range run {
		j := k - 1 - i // its place in the reversed run
		l.rev[s] = !l.rev[s]
		l.spv[s], l.snx[s] = p, q
		if j > 0 {
			l.spv[s] = run[i+1]
		}
		if j < k-1 {
			l.snx[s] = run[i-1]
		}
		l.rank[s] = int32((r0 + j) % l.m)
	}
	l.snx[p], l.spv[q] = b, a
}
