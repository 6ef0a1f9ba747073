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
	rev                         []bool
	first, last, rank, snx, spv []int32
	free                        []int32 // unused segment ids
	m, base                     int     // segments in use, and at a rebuild
	group                       int     // cities a segment at a rebuild
	buf, sbuf                   []int32
}

// New returns the list of the tour t (a permutation of 0..len(t)-1).
func New(t []int32) *List {
	n := len(t)
	g := max(8, int(math.Sqrt(float64(n))))
	l := &List{seg: make([]int32, n), id: make([]int32, n), nx: make([]int32, n), pv: make([]int32, n), group: g}
	l.build(t)
	return l
}

// build lays t out in segments of l.group cities.
func (l *List) build(t []int32) {
	n := len(t)
	m := (n + l.group - 1) / l.group
	cap := 2*m + 4
	l.rev = make([]bool, cap)
	l.first, l.last, l.rank = make([]int32, cap), make([]int32, cap), make([]int32, cap)
	l.snx, l.spv = make([]int32, cap), make([]int32, cap)
	l.free = l.free[:0]
	for s := cap - 1; s >= m; s-- {
		l.free = append(l.free, int32(s))
	}
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
		l.first[s], l.last[s], l.rank[s] = t[lo], t[hi-1], int32(s)
		l.snx[s], l.spv[s] = int32((s+1)%m), int32((s+m-1)%m)
	}
	l.m, l.base = m, m
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
		k = math.MaxInt32 - k
	}
	return int64(l.rank[s])<<32 | k
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
		if l.key(b) <= l.key(c) {
			l.reverseIn(sb, b, c)
		} else {
			l.Flip(l.Next(c), l.Prev(b))
		}
		return
	}
	// the side with fewer segments
	if k := (int(l.rank[sc]) - int(l.rank[sb]) + l.m) % l.m; 2*k > l.m {
		l.Flip(l.Next(c), l.Prev(b))
		return
	}
	l.splitBefore(b)
	if c != l.tail(l.seg[c]) {
		l.splitBefore(l.Next(c))
	}
	l.reverseRun(l.seg[b], l.seg[c])
	if l.m > 2*l.base {
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

// splitBefore makes b the first city of a segment in tour order, the
// smaller part of its segment moving to a new one.
func (l *List) splitBefore(b int32) {
	s := l.seg[b]
	if b == l.head(s) {
		return
	}
	x := b // the stored cut: first..x and nx[x]..last
	if !l.rev[s] {
		x = l.pv[b]
	}
	y := l.nx[x]
	t := l.free[len(l.free)-1]
	l.free = l.free[:len(l.free)-1]
	l.m++
	l.rev[t] = l.rev[s]
	sizeA := l.id[x] - l.id[l.first[s]] + 1
	sizeB := l.id[l.last[s]] - l.id[y] + 1
	var after bool // t follows s in tour order
	var from, to int32
	if sizeA <= sizeB {
		l.first[t], l.last[t], l.first[s] = l.first[s], x, y
		from, to = l.first[t], x
		after = l.rev[s]
	} else {
		l.first[t], l.last[t], l.last[s] = y, l.last[s], x
		from, to = y, l.last[t]
		after = !l.rev[s]
	}
	for c := from; ; c = l.nx[c] {
		l.seg[c] = t
		if c == to {
			break
		}
	}
	if after {
		n := l.snx[s]
		l.snx[s], l.spv[t], l.snx[t], l.spv[n] = t, s, n, t
	} else {
		p := l.spv[s]
		l.snx[p], l.spv[t], l.snx[t], l.spv[s] = t, p, s, t
	}
	l.renumber(s)
}

// renumber ranks the segments along the tour from s.
func (l *List) renumber(s int32) {
	for i := 0; i < l.m; i++ {
		l.rank[s] = int32(i)
		s = l.snx[s]
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
