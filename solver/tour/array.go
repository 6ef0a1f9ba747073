package tour

// Array is a tour with a position index: Tour[p] is the city at position
// p (cyclic) and Pos[c] the position of city c, so that a 2-opt move costs
// the length of the shorter side (Bentley 1992).
type Array struct {
	Tour []int
	Pos  []int
}

// NewArray returns the array form of tour t. t is copied: the Array owns
// its slices.
func NewArray(t []int) *Array {
	a := &Array{Tour: append([]int(nil), t...), Pos: make([]int, len(t))}
	for p, c := range a.Tour {
		a.Pos[c] = p
	}
	return a
}

// Len returns the number of cities.
func (a *Array) Len() int { return len(a.Tour) }

// At returns the city at position p (cyclic: any integer p is allowed).
func (a *Array) At(p int) int { return a.Tour[a.wrap(p)] }

// wrap maps any integer position into 0..n-1.
func (a *Array) wrap(p int) int {
	n := len(a.Tour)
	if uint(p) < uint(n) {
		return p
	}
	if p >= n && p < 2*n {
		return p - n
	}
	p %= n
	if p < 0 {
		p += n
	}
	return p
}

// Next returns the city after c.
func (a *Array) Next(c int) int {
	p := a.Pos[c] + 1
	if p == len(a.Tour) {
		p = 0
	}
	return a.Tour[p]
}

// Prev returns the city before c.
func (a *Array) Prev(c int) int {
	p := a.Pos[c] - 1
	if p < 0 {
		p = len(a.Tour) - 1
	}
	return a.Tour[p]
}

// Reverse2Opt reverses positions i..j (inclusive, cyclic) or, when
// shorter, the complement, which gives the same cycle: callers re-read
// positions through Pos afterwards.
func (a *Array) Reverse2Opt(i, j int) {
	n := len(a.Tour)
	if n < 2 {
		return
	}
	i, j = a.wrap(i), a.wrap(j)
	l := j - i + 1 // segment length
	if l <= 0 {
		l += n
	}
	if 2*l > n {
		i, j, l = a.wrap(j+1), a.wrap(i-1), n-l
	}
	for k := 0; k < l/2; k++ {
		p, q := i+k, j-k
		if p >= n {
			p -= n
		}
		if q < 0 {
			q += n
		}
		cp, cq := a.Tour[p], a.Tour[q]
		a.Tour[p], a.Tour[q] = cq, cp
		a.Pos[cq], a.Pos[cp] = p, q
	}
}

// Apply2Opt replaces edges (t[i], t[i+1]) and (t[j], t[j+1]) by (t[i],
// t[j]) and (t[i+1], t[j+1]); i == j is a no-op.
func (a *Array) Apply2Opt(i, j int) {
	if a.wrap(i) == a.wrap(j) {
		return
	}
	a.Reverse2Opt(i+1, j)
}

// OrOpt moves the l cities at positions i..i+l-1 (cyclic) to between city
// u and its successor, reversed or not, shifting the shorter side; u in or
// just before the segment, l < 1 or l > n-2 is no move.
func (a *Array) OrOpt(i, l, u int, reversed bool) {
	n := len(a.Tour)
	if l < 1 || l > n-2 {
		return
	}
	i = a.wrap(i)
	pu := a.Pos[u]
	off := pu - i // offset of u from the segment start
	if off < 0 {
		off += n
	}
	if off < l || off == n-1 {
		return
	}
	var buf [8]int
	seg := buf[:0]
	if l > len(buf) {
		seg = make([]int, 0, l)
	}
	for k := range l {
		seg = append(seg, a.Tour[a.wrap(i+k)])
	}
	put := func(p, c int) {
		a.Tour[p] = c
		a.Pos[c] = p
	}
	first := 0 // position where the segment lands
	if fwd := off - l + 1; fwd <= n-l-fwd {
		// Shift the fwd cities after the segment (up to u) back by l.
		for k := range fwd {
			put(a.wrap(i+k), a.Tour[a.wrap(i+l+k)])
		}
		first = a.wrap(i + fwd)
	} else {
		// Shift the cities after u up to the segment forward by l.
		for k := range n - l - fwd {
			src := a.wrap(i - 1 - k)
			put(a.wrap(src+l), a.Tour[src])
		}
		first = a.wrap(pu + 1)
	}
	for k, c := range seg {
		if reversed {
			c = seg[l-1-k]
		}
		put(a.wrap(first+k), c)
	}
}
