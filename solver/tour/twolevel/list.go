// Package twolevel is a tour as a two-level doubly linked list (Fredman,
// Johnson, McGeoch and Ostheimer 1995): the cities in segments of about
// √n, each segment with a reversed bit and a rank among the segments, so
// that a 2-opt flip costs O(√n) and next, prev and sequence are O(1).
package twolevel

import "math"

// List is a tour of n cities. The cities are linked in one cycle, each
// city's two links read in its segment's stored order (adj[1] towards
// higher ids); the tour walks a segment that way unless it is reversed.
// A link may cross into the next segment, so that reversing a run of
// whole segments relinks only the run's two ends. The segments are
// linked in tour order (adj[0] before, adj[1] after) and ranked from 0
// along it.
type List struct {
	c        []node    // by city
	sg       []segment // by segment
	m, group int       // segments, and cities a segment at a build
	buf      []int32
}

// node is a city's two links, its segment and its rank in the segment's
// stored order, together so that a step from a city reads one cache line.
type node struct {
	adj     [2]int32
	seg, id int32
}

// segment is a segment's ends in stored order (ends[0] the lowest id),
// whether the tour walks it reversed, its rank along the tour, its size
// and the segments before and after it in tour order.
type segment struct {
	rev        bool
	ends, adj  [2]int32
	rank, size int32
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
	for i, c := range t {
		l.c[c].adj = [2]int32{t[(i+n-1)%n], t[(i+1)%n]}
	}
	for s := 0; s < m; s++ {
		lo, hi := s*n/m, (s+1)*n/m
		for i := lo; i < hi; i++ {
			l.c[t[i]].seg, l.c[t[i]].id = int32(s), int32(i-lo)
		}
		l.sg[s] = segment{ends: [2]int32{t[lo], t[hi-1]}, adj: [2]int32{int32((s + m - 1) % m), int32((s + 1) % m)},
			rank: int32(s), size: int32(hi - lo)}
	}
	l.m = m
}

// N is the number of cities.
func (l *List) N() int { return len(l.c) }

// fw is the link slot the tour goes on by in segment s: 1 unless reversed.
func (l *List) fw(s int32) int {
	if l.sg[s].rev {
		return 0
	}
	return 1
}

func (l *List) head(s int32) int32 { return l.sg[s].ends[1-l.fw(s)] }
func (l *List) tail(s int32) int32 { return l.sg[s].ends[l.fw(s)] }

// Next is the city after a in tour order.
func (l *List) Next(a int32) int32 { return l.c[a].adj[l.fw(l.c[a].seg)] }

// Prev is the city before a in tour order.
func (l *List) Prev(a int32) int32 { return l.c[a].adj[1-l.fw(l.c[a].seg)] }

// setNext and setPrev link a to b after or before it in tour order.
func (l *List) setNext(a, b int32) { l.c[a].adj[l.fw(l.c[a].seg)] = b }
func (l *List) setPrev(a, b int32) { l.c[a].adj[1-l.fw(l.c[a].seg)] = b }

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
		// a path of up to 3/10 of a segment at a build in place, a longer one
		// as its own segment
		if k := l.c[c].id - l.c[b].id; 10*int(max(k, -k)) < 3*l.group || l.m < 3 {
			l.reverseIn(b, c)
			return
		}
	}
	// the side with fewer segments
	k := int(l.sg[sc].rank) - int(l.sg[sb].rank)
	if k < 0 {
		k += l.m
	}
	if 2*k > l.m {
		l.Flip(l.Next(c), l.Prev(b))
		return
	}
	l.splitBefore(b, sb == sc, false)
	if c != l.tail(l.c[c].seg) {
		// the part after c moves on unless that is b's segment; with b
		// it always moves on
		sb, sc := l.c[b].seg, l.c[c].seg
		l.splitBefore(l.Next(c), l.sg[sc].adj[1] == sb, sb == sc)
	}
	l.reverseRun(l.c[b].seg, l.c[c].seg)
	if l.sg[l.c[b].seg].size > int32(8*l.group) || l.sg[l.c[c].seg].size > int32(8*l.group) {
		l.buf = l.Tour(l.buf[:0])
		l.build(l.buf)
	}
}

// reverseIn reverses the path x..y of one segment (x before y) in place:
// each city's links swap and its rank mirrors.
func (l *List) reverseIn(x, y int32) {
	s := l.c[x].seg
	a, d := l.Prev(x), l.Next(y)
	f := l.fw(s)
	ids := l.c[x].id + l.c[y].id
	for u := x; ; {
		n := &l.c[u]
		next := n.adj[f]
		n.adj[0], n.adj[1], n.id = n.adj[1], n.adj[0], ids-n.id
		if u == y {
			break
		}
		u = next
	}
	l.c[y].adj[1-f], l.c[x].adj[f] = a, d
	l.setNext(a, y)
	l.setPrev(d, x)
	g := &l.sg[s]
	for i := range g.ends {
		if g.ends[i] == x {
			g.ends[i] = y
		} else if g.ends[i] == y {
			g.ends[i] = x
		}
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
	// the smaller part moves, unless its new segment is large already
	mb, mf := nb, l.sg[s].size-nb
	if big := int32(2 * l.group); l.sg[l.sg[s].adj[0]].size > big {
		mb += big
	} else if l.sg[l.sg[s].adj[1]].size > big {
		mf += big
	}
	f := l.fw(s)
	pb := l.c[b].adj[1-f]
	var q int32 // the segment the cities join
	if back || (!on && mb <= mf) {
		// h .. Prev(b) to the tail of the segment before, in tour order
		q = l.sg[s].adj[0]
		fq := l.fw(q)
		l.moveRun(h, pb, f, q, l.sg[q].ends[fq], int32(2*fq-1))
		l.sg[q].ends[fq] = pb
		l.sg[s].ends[1-f] = b
		l.sg[q].size += nb
		l.sg[s].size -= nb
	} else {
		// b .. the tail to the head of the segment after, walked back
		q = l.sg[s].adj[1]
		fq := l.fw(q)
		l.moveRun(l.sg[s].ends[f], b, 1-f, q, l.sg[q].ends[1-fq], int32(1-2*fq))
		l.sg[q].ends[1-fq] = b
		l.sg[s].ends[f] = pb
		l.sg[q].size += l.sg[s].size - nb
		l.sg[s].size = nb
	}
	if g := &l.sg[q]; l.c[g.ends[0]].id < -1<<30 || l.c[g.ends[1]].id > 1<<30 {
		l.renumber(q)
	}
}

// moveRun moves the cities from u by link slot dir to last into segment
// q, ranked on from city end's rank by step, each city's links swapped
// where q's stored order runs the other way.
func (l *List) moveRun(u, last int32, dir int, q, end, step int32) {
	swap := l.fw(q) != l.fw(l.c[u].seg)
	for id := l.c[end].id; ; {
		n := &l.c[u]
		next := n.adj[dir]
		if swap {
			n.adj[0], n.adj[1] = n.adj[1], n.adj[0]
		}
		id += step
		n.seg, n.id = q, id
		if u == last {
			return
		}
		u = next
	}
}

// renumber ranks segment s's cities 0, 1, ... in stored order.
func (l *List) renumber(s int32) {
	g := &l.sg[s]
	i := int32(0)
	for u := g.ends[0]; ; u = l.c[u].adj[1] {
		l.c[u].id = i
		i++
		if u == g.ends[1] {
			break
		}
	}
}

// reverseRun reverses the segments from a to b in tour order, the run
// keeping its ranks: each segment's bit and links swap and its rank
// mirrors; the links between the run's segments hold as they are, and
// only the run's two ends are linked anew.
func (l *List) reverseRun(a, b int32) {
	p, q := l.sg[a].adj[0], l.sg[b].adj[1]
	ha, tb := l.head(a), l.tail(b)
	pa, qb := l.Prev(ha), l.Next(tb)
	ra, m := l.sg[a].rank, int32(l.m)
	last := l.sg[b].rank - ra // the run's last place from a
	if last < 0 {
		last += m
	}
	for s, i := a, int32(0); ; i++ {
		g := &l.sg[s]
		next := g.adj[1]
		g.rev, g.adj[0], g.adj[1] = !g.rev, g.adj[1], g.adj[0]
		if g.rank = ra + last - i; g.rank >= m {
			g.rank -= m
		}
		if s == b {
			break
		}
		s = next
	}
	l.sg[a].adj[1], l.sg[b].adj[0] = q, p
	l.sg[p].adj[1], l.sg[q].adj[0] = b, a
	l.setNext(pa, tb)
	l.setPrev(tb, pa)
	l.setNext(ha, qb)
	l.setPrev(qb, ha)
}
