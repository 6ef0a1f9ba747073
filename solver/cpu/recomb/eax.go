package recomb

import (
	"math/rand/v2"
	"slices"
)

// EAX is Nagata and Kobayashi's edge assembly crossover (INFORMS J. Computing 25(2), 2013) with one AB-cycle a child:
// exchanging one alternating cycle's a-edges for its b-edges leaves subtours, joined by the cheapest 2-exchanges;
// the child is a with the cycle that shortens it most.
type EAX struct {
	// NB and K are the candidate lists of the joins (K a city).
	NB []int32
	K  int
	// Fixed are edges no join may remove (read on the first call).
	Fixed [][2]int
	// Done, when set, ends Improve's trials once true, also between the joins of a trial (a 100,000-city child's take a
	// good part of a second, and on a clustered instance a trial's joins can run for seconds).
	Done func() bool

	n       int
	link    [][2]int32 // the tour being built, each city's two neighbours
	ra, rb  [][2]int32 // a's and b's edges not yet in an AB-cycle (-1: none)
	path    []int32
	pos     [][2]int32 // each city's places in path (-1: none)
	cycles  []int32    // AB-cycles, each its cities, a-edge first, then -1
	starts  []int
	a       []int32  // the first parent, during Improve
	at      []int32  // each city's place in a
	cuts    []int32  // the places in a after the cycle's a-edges, sorted
	segSub  []int32  // each piece of a between cuts: its subtour
	subSize []int    // each subtour's cities (0: joined into another)
	subRep  []int32  // a city of each subtour
	parent  []int32  // each subtour's union with others by the joins
	members []int32  // the smallest subtour's cities, in join
	mark    []uint32 // stamp of the join whose smallest subtour has the city
	stamp   uint32
	live    int // subtours labelled
	fixed   [][2]int32
	undo    []undoEntry
}

type undoEntry struct{ v, slot, old int32 }

// EAXStats describe one call of Improve.
type EAXStats struct {
	// Cycles counts the AB-cycles, Tried those gaining alone, Taken those kept.
	Cycles, Tried, Taken int
	// Length is the tour's length after.
	Length int64
}

func (e *EAX) grow(n int) {
	if e.n == n {
		return
	}
	e.n = n
	e.link = make([][2]int32, n)
	e.ra = make([][2]int32, n)
	e.rb = make([][2]int32, n)
	e.pos = make([][2]int32, n) // -1 between calls: buildCycles clears what it sets
	for i := range e.pos {
		e.pos[i] = [2]int32{-1, -1}
	}
	e.at = make([]int32, n)
	e.mark = make([]uint32, n)
	e.stamp = 0
	e.fixed = make([][2]int32, n)
	for i := range e.fixed {
		e.fixed[i] = [2]int32{-1, -1}
	}
	for _, f := range e.Fixed {
		for _, p := range [2][2]int{{f[0], f[1]}, {f[1], f[0]}} {
			s := &e.fixed[p[0]]
			if s[0] < 0 {
				s[0] = int32(p[1])
			} else {
				s[1] = int32(p[1])
			}
		}
	}
}

// Improve writes the child of a and b into out (a when no cycle shortens it) and returns its statistics.
func (e *EAX) Improve(d Distancer, a, b []int32, lenA int64, seed uint64, out []int32) EAXStats {
	n := len(a)
	copy(out, a)
	st := EAXStats{Length: lenA}
	if n < 8 {
		return st
	}
	e.grow(n)
	rng := rand.New(rand.NewPCG(seed, 0x656178))
	e.setLinks(a, b)
	e.buildCycles(rng)
	st.Cycles = len(e.starts)
	// each cycle whose exchange gains before its joins, tried and undone
	bestCI, bestDelta := -1, int64(0)
	for ci := range e.starts {
		if e.cycleGain(d, ci) <= 0 {
			continue
		}
		if e.Done != nil && e.Done() {
			break
		}
		st.Tried++
		e.undo = e.undo[:0]
		delta, ok := e.apply(d, ci, e.Done)
		e.revert()
		if ok && delta < bestDelta {
			bestCI, bestDelta = ci, delta
		}
	}
	if bestCI >= 0 {
		e.undo = e.undo[:0]
		e.apply(d, bestCI, nil) // its trial joined it whole: the same joins again, never cut short
		st.Length += bestDelta
		st.Taken++
	}
	if st.Taken > 0 {
		e.walk(out)
	}
	return st
}

// setLinks loads a into link and the differing edges into ra and rb.
func (e *EAX) setLinks(a, b []int32) {
	n := len(a)
	e.a = a
	prev := a[n-1]
	for i, c := range a {
		nx := a[0]
		if i+1 < n {
			nx = a[i+1]
		}
		e.link[c] = [2]int32{prev, nx}
		e.at[c] = int32(i)
		prev = c
	}
	prev = b[n-1]
	for i, c := range b {
		nx := b[0]
		if i+1 < n {
			nx = b[i+1]
		}
		l, m := e.link[c], [2]int32{prev, nx}
		da, db := [2]int32{-1, -1}, [2]int32{-1, -1}
		ia, ib := 0, 0
		for _, x := range l {
			if x != m[0] && x != m[1] {
				da[ia] = x
				ia++
			}
		}
		for _, x := range m {
			if x != l[0] && x != l[1] {
				db[ib] = x
				ib++
			}
		}
		e.ra[c], e.rb[c] = da, db
		prev = c
	}
}

// take removes the edge c-x from r (both ends).
func take(r [][2]int32, c, x int32) {
	for _, p := range [2][2]int32{{c, x}, {x, c}} {
		s := &r[p[0]]
		if s[0] == p[1] {
			s[0] = s[1]
			s[1] = -1
		} else if s[1] == p[1] {
			s[1] = -1
		}
	}
}

// buildCycles splits the differing edges into AB-cycles by alternating random walks.
func (e *EAX) buildCycles(rng *rand.Rand) {
	e.cycles, e.starts = e.cycles[:0], e.starts[:0]
	n := int32(e.n)
	for v0 := int32(0); v0 < n; v0++ {
		for e.ra[v0][0] >= 0 {
			e.path = append(e.path[:0], v0)
			e.pos[v0][0] = 0
			for len(e.path) > 0 {
				cur := e.path[len(e.path)-1]
				r := e.ra
				if (len(e.path)-1)%2 == 1 {
					r = e.rb
				}
				s := r[cur]
				if s[0] < 0 {
					// only a walk that closed at its start: done with it
					e.clearPath()
					break
				}
				x := s[0]
				if s[1] >= 0 && rng.IntN(2) == 1 {
					x = s[1]
				}
				take(r, cur, x)
				idx := int32(len(e.path))
				e.path = append(e.path, x)
				// an earlier place of x an even number of edges back closes a cycle
				p := int32(-1)
				for _, q := range e.pos[x] {
					if q >= 0 && (idx-q)%2 == 0 && q > p {
						p = q
					}
				}
				if p < 0 {
					if e.pos[x][0] < 0 {
						e.pos[x][0] = idx
					} else {
						e.pos[x][1] = idx
					}
					continue
				}
				e.emit(p, idx)
				for _, c := range e.path[p+1 : idx] {
					e.dropPos(c, p)
				}
				e.path = e.path[:p+1]
				if p == 0 && e.ra[x][0] < 0 {
					e.clearPath()
					break
				}
			}
		}
	}
}

// dropPos forgets c's places in path beyond p.
func (e *EAX) dropPos(c, p int32) {
	for i := range e.pos[c] {
		if e.pos[c][i] > p {
			e.pos[c][i] = -1
		}
	}
}

func (e *EAX) clearPath() {
	for _, c := range e.path {
		e.pos[c] = [2]int32{-1, -1}
	}
	e.path = e.path[:0]
}

// emit records path[p..q] as a cycle beginning with an edge of a.
func (e *EAX) emit(p, q int32) {
	e.starts = append(e.starts, len(e.cycles))
	seg := e.path[p : q+1]
	if p%2 == 0 {
		e.cycles = append(e.cycles, seg[:len(seg)-1]...)
	} else {
		e.cycles = append(e.cycles, seg[1:len(seg)-1]...)
		e.cycles = append(e.cycles, seg[0])
	}
	e.cycles = append(e.cycles, -1)
}

// cycle returns cycle i's cities, edges alternating a's and b's.
func (e *EAX) cycle(i int) []int32 {
	s := e.starts[i]
	t := s
	for e.cycles[t] >= 0 {
		t++
	}
	return e.cycles[s:t]
}

func (e *EAX) cycleGain(d Distancer, i int) int64 {
	c := e.cycle(i)
	var g int64
	for j := range c {
		x, y := c[j], c[(j+1)%len(c)]
		if j%2 == 0 {
			g += d.Dist(int(x), int(y))
		} else {
			g -= d.Dist(int(x), int(y))
		}
	}
	return g
}

func (e *EAX) set(v int32, old, nw int32) {
	s := 0
	if e.link[v][0] != old {
		s = 1
	}
	e.undo = append(e.undo, undoEntry{v, int32(s), old})
	e.link[v][s] = nw
}

func (e *EAX) revert() {
	for i := len(e.undo) - 1; i >= 0; i-- {
		u := e.undo[i]
		e.link[u.v][u.slot] = u.old
	}
	e.undo = e.undo[:0]
}

func (e *EAX) isFixed(x, y int32) bool { return e.fixed[x][0] == y || e.fixed[x][1] == y }

// apply exchanges cycle i's edges and joins the subtours, returning the change; false when they cannot be joined or
// stop (nil: never) turns true first.
func (e *EAX) apply(d Distancer, i int, stop func() bool) (int64, bool) {
	c := e.cycle(i)
	delta := e.exchange(d, c)
	comps := e.label(c)
	for comps > 1 {
		if stop != nil && stop() {
			return 0, false
		}
		dd, ok := e.join(d, stop)
		if !ok {
			return 0, false
		}
		delta += dd
		comps--
	}
	return delta, true
}

// exchange swaps cycle c's a-edges for its b-edges in link and returns the change in length.
func (e *EAX) exchange(d Distancer, c []int32) int64 {
	L := len(c)
	var delta int64
	for j := 0; j < L; j += 2 {
		x, y := c[j], c[j+1]
		delta -= d.Dist(int(x), int(y))
		e.set(x, y, -1)
		e.set(y, x, -1)
	}
	for j := 1; j < L; j += 2 {
		x, y := c[j], c[(j+1)%L]
		delta += d.Dist(int(x), int(y))
		e.set(x, -1, y)
		e.set(y, -1, x)
	}
	return delta
}

// label finds the subtours the exchange leaves by walking a's pieces, not the cities, and returns their count.
func (e *EAX) label(c []int32) int {
	n := int32(len(e.a))
	e.cuts = e.cuts[:0]
	for j := 0; j < len(c); j += 2 {
		px, py := e.at[c[j]], e.at[c[j+1]]
		if (px+1)%n == py {
			e.cuts = append(e.cuts, py)
		} else {
			e.cuts = append(e.cuts, px)
		}
	}
	slices.Sort(e.cuts)
	k := len(e.cuts)
	e.segSub = e.segSub[:0]
	for range k {
		e.segSub = append(e.segSub, -1)
	}
	e.subSize, e.subRep, e.parent = e.subSize[:0], e.subRep[:0], e.parent[:0]
	for s0 := range k {
		if e.segSub[s0] >= 0 {
			continue
		}
		id := int32(len(e.subSize))
		size := 0
		seg, atHead := s0, true // enter s0 at its head
		var from int32 = -1
		for e.segSub[seg] < 0 {
			e.segSub[seg] = id
			size += e.segLen(seg)
			head, tail := e.a[e.cuts[seg]], e.a[(e.cuts[(seg+1)%k]+n-1)%n]
			// leave by the other end, along its new edge
			x, in := tail, e.a[(e.cuts[(seg+1)%k]+n-2)%n]
			if !atHead {
				x, in = head, e.a[(e.cuts[seg]+1)%n]
			}
			if head == tail {
				in = from // a piece of one city: out by the edge not taken in
			}
			z := e.link[x][0]
			if z == in {
				z = e.link[x][1]
			}
			from = x
			seg = e.segOf(e.at[z])
			atHead = z == e.a[e.cuts[seg]]
		}
		e.subSize = append(e.subSize, size)
		e.subRep = append(e.subRep, e.a[e.cuts[s0]])
		e.parent = append(e.parent, id)
	}
	e.live = len(e.subSize)
	return e.live
}

// segLen is the cities of piece i of a between the cuts.
func (e *EAX) segLen(i int) int {
	k := len(e.cuts)
	if i == k-1 {
		return len(e.a) - int(e.cuts[k-1]) + int(e.cuts[0])
	}
	return int(e.cuts[i+1] - e.cuts[i])
}

// segOf is the piece of a at place p.
func (e *EAX) segOf(p int32) int {
	i, found := slices.BinarySearch(e.cuts, p)
	if !found {
		i--
	}
	if i < 0 {
		i = len(e.cuts) - 1 // before the first cut: the piece that wraps
	}
	return i
}

// comp is city v's subtour, joins included.
func (e *EAX) comp(v int32) int32 {
	return e.root(e.segSub[e.segOf(e.at[v])])
}

// piecesOf appends subtour id's cities to dst, joins included.
func (e *EAX) piecesOf(dst []int32, id int32) []int32 {
	k := len(e.cuts)
	for seg := range k {
		if e.root(e.segSub[seg]) != id {
			continue
		}
		from, to := e.cuts[seg], e.cuts[(seg+1)%k]
		if seg == k-1 {
			dst = append(dst, e.a[from:]...)
			from = 0
		}
		dst = append(dst, e.a[from:to]...)
	}
	return dst
}

// root is subtour s's subtour after the joins so far.
func (e *EAX) root(s int32) int32 {
	for e.parent[s] != s {
		e.parent[s] = e.parent[e.parent[s]]
		s = e.parent[s]
	}
	return s
}

// cities appends subtour id's cities to dst, walking from its city.
func (e *EAX) cities(dst []int32, id int) []int32 {
	start := e.subRep[id]
	prev, cur := int32(-1), start
	for {
		dst = append(dst, cur)
		nx := e.link[cur][0]
		if nx == prev {
			nx = e.link[cur][1]
		}
		prev, cur = cur, nx
		if cur == start {
			return dst
		}
	}
}

// join merges the smallest subtour into another by the cheapest 2-exchange at a candidate of its cities, else at any
// city of another subtour; false when there is none, or stop (nil: never) turns true during that search of all pairs.
func (e *EAX) join(d Distancer, stop func() bool) (int64, bool) {
	small := e.smallest()
	u0 := e.markMembers(small)
	mv := joinMove{gain: int64(1) << 62, u: -1, u2: -1, c: -1, c2: -1}
	for _, u := range u0 {
		for _, c := range e.NB[int(u)*e.K : int(u)*e.K+e.K] {
			if c >= 0 && e.mark[c] != e.stamp {
				e.tryJoin(d, u, c, &mv)
			}
		}
	}
	if mv.u < 0 {
		// no candidate outside: any city of another subtour
		var others []int32
		for j, sz := range e.subSize[:e.live] {
			if j == small || sz == 0 {
				continue
			}
			others = e.cities(others[:0], j)
			for _, u := range u0 {
				if stop != nil && stop() {
					return 0, false
				}
				for _, c := range others {
					e.tryJoin(d, u, c, &mv)
				}
			}
		}
	}
	if mv.u < 0 {
		return 0, false
	}
	to := e.comp(mv.c)
	// edges u-u2 and x-y go; u-x and u2-y come (x, y: c, c2 as chosen)
	e.set(mv.u, mv.u2, mv.c)
	e.set(mv.c, mv.c2, mv.u)
	e.set(mv.u2, mv.u, mv.c2)
	e.set(mv.c2, mv.c, mv.u2)
	e.parent[small] = to
	e.subSize[to] += e.subSize[small]
	e.subSize[small] = 0
	return mv.gain, true
}

// joinMove is a join's best 2-exchange so far.
type joinMove struct {
	gain         int64
	u, u2, c, c2 int32
}

// smallest returns the live subtour with the fewest cities.
func (e *EAX) smallest() int {
	small := -1
	for i, sz := range e.subSize[:e.live] {
		if sz > 0 && (small < 0 || sz < e.subSize[small]) {
			small = i
		}
	}
	return small
}

// markMembers lists and stamps subtour small's cities.
func (e *EAX) markMembers(small int) []int32 {
	e.members = e.piecesOf(e.members[:0], int32(small))
	e.stamp++
	if e.stamp == 0 {
		clear(e.mark)
		e.stamp = 1
	}
	for _, u := range e.members {
		e.mark[u] = e.stamp
	}
	return e.members
}

// tryJoin weighs the 2-exchanges of an edge at u with an edge at c, keeping the best in mv.
func (e *EAX) tryJoin(d Distancer, u, c int32, mv *joinMove) {
	duc := d.Dist(int(u), int(c))
	var dcc, duc2 [2]int64
	var open [2]bool
	for k, c2 := range e.link[c] {
		if open[k] = !e.isFixed(c, c2); open[k] {
			dcc[k], duc2[k] = d.Dist(int(c), int(c2)), d.Dist(int(u), int(c2))
		}
	}
	for _, u2 := range e.link[u] {
		if e.isFixed(u, u2) {
			continue
		}
		duu, du2c := d.Dist(int(u), int(u2)), d.Dist(int(u2), int(c))
		for k, c2 := range e.link[c] {
			if !open[k] {
				continue
			}
			base := -duu - dcc[k]
			if g := base + duc + d.Dist(int(u2), int(c2)); g < mv.gain {
				*mv = joinMove{g, u, u2, c, c2}
			}
			if g := base + duc2[k] + du2c; g < mv.gain {
				*mv = joinMove{g, u, u2, c2, c}
			}
		}
	}
}

// walk writes the tour in link into out.
func (e *EAX) walk(out []int32) {
	prev, cur := int32(-1), int32(0)
	for i := range out {
		out[i] = cur
		nx := e.link[cur][0]
		if nx == prev {
			nx = e.link[cur][1]
		}
		prev, cur = cur, nx
	}
}
