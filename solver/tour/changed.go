package tour

import "slices"

// Changed is a tour with a few of its links changed, as a Graph: only the
// cities whose links differ from the tour's are held, so that a change, its
// undoing and the labelling of the cycles it makes cost about the changed
// links rather than a walk over every city. The tour less its cut links is
// as many paths as links cut, each known by two positions; the cycles are
// those paths joined by the links that are not the tour's.
type Changed struct {
	t, pos []int32
	over   map[int32][2]int32 // the links of the cities whose links differ from t's
	undo   []changedLink
	// the last Label's: the positions whose link to the next is cut, in
	// order (path j runs from cuts[j]+1 to cuts[j+1]), and each path's cycle
	cuts, cycle []int32
}

// changedLink is a city's links before a Relink, for Undo.
type changedLink struct {
	a   int32
	had bool // whether over held a's links
	l   [2]int32
}

// NewChanged is the tour t (position → city) with no link changed; t is
// read, never written.
func NewChanged(t []int32) *Changed {
	pos := make([]int32, len(t))
	for i, c := range t {
		pos[c] = int32(i)
	}
	return &Changed{t: t, pos: pos, over: map[int32][2]int32{}}
}

// base is a's links in the tour.
func (g *Changed) base(a int32) [2]int32 {
	n, p := int32(len(g.t)), g.pos[a]
	return [2]int32{g.t[(p+n-1)%n], g.t[(p+1)%n]}
}

// Links is a's two neighbours (-1: none).
func (g *Changed) Links(a int32) [2]int32 {
	if l, ok := g.over[a]; ok {
		return l
	}
	return g.base(a)
}

// Relink makes a's neighbour from to (-1: none); false when from is not one.
func (g *Changed) Relink(a, from, to int32) bool {
	prev, had := g.over[a]
	b := g.base(a)
	l := prev
	if !had {
		l = b
	}
	switch from {
	case l[0]:
		l[0] = to
	case l[1]:
		l[1] = to
	default:
		return false
	}
	g.undo = append(g.undo, changedLink{a, had, prev})
	if l == b || l == [2]int32{b[1], b[0]} {
		delete(g.over, a)
	} else {
		g.over[a] = l
	}
	return true
}

// Mark is the changes made so far, for Undo.
func (g *Changed) Mark() int { return len(g.undo) }

// Undo takes back the changes made after mark, the last first.
func (g *Changed) Undo(mark int) {
	for i := len(g.undo) - 1; i >= mark; i-- {
		u := g.undo[i]
		if u.had {
			g.over[u.a] = u.l
		} else {
			delete(g.over, u.a)
		}
	}
	g.undo = g.undo[:mark]
}

// Label labels the cycles and returns their sizes; every city must have
// two links.
func (g *Changed) Label() []int {
	n := int32(len(g.t))
	g.cuts = g.cuts[:0]
	for a, l := range g.over {
		p, b := g.pos[a], g.base(a)
		if l[0] != b[0] && l[1] != b[0] {
			g.cuts = append(g.cuts, (p+n-1)%n)
		}
		if l[0] != b[1] && l[1] != b[1] {
			g.cuts = append(g.cuts, p)
		}
	}
	slices.Sort(g.cuts)
	g.cuts = slices.Compact(g.cuts)
	k := len(g.cuts)
	g.cycle = slices.Grow(g.cycle[:0], k)[:k]
	if k == 0 {
		return []int{int(n)}
	}
	for j := range g.cycle {
		g.cycle[j] = -1
	}
	var size []int
	for j0 := range k {
		if g.cycle[j0] >= 0 {
			continue
		}
		label, m := int32(len(size)), 0
		g.walk(j0, func(j int, _ bool) bool {
			if g.cycle[j] >= 0 {
				return false
			}
			g.cycle[j] = label
			m += g.pathLen(j)
			return true
		})
		size = append(size, m)
	}
	return size
}

// Of is a's cycle since Label.
func (g *Changed) Of(a int32) int32 {
	if len(g.cuts) == 0 {
		return 0
	}
	return g.cycle[g.pathOf(a)]
}

// Tour appends the cities in the order of their cycle to dst; ok is false
// unless there is one cycle.
func (g *Changed) Tour(dst []int32) ([]int32, bool) {
	if len(g.Label()) != 1 {
		return dst, false
	}
	k, n := len(g.cuts), len(g.t)
	if k == 0 {
		return append(dst, g.t...), true
	}
	left := n
	g.walk(0, func(j int, fwd bool) bool {
		lo, m := int(g.cuts[j])+1, g.pathLen(j)
		for i := range m {
			if !fwd {
				i = m - 1 - i
			}
			dst = append(dst, g.t[(lo+i)%n])
		}
		left -= m
		return left > 0
	})
	return dst, true
}

// walk follows the cycle through path j0, entered at its first city, calling
// visit for each path (fwd: entered at its first city) until visit says stop.
func (g *Changed) walk(j0 int, visit func(j int, fwd bool) bool) {
	n := int32(len(g.t))
	j, from := j0, int32(-1)
	enter := g.t[(g.cuts[j0]+1)%n]
	for {
		s, e := g.ends(j)
		fwd := enter == s
		if !visit(j, fwd) {
			return
		}
		exit := e
		if !fwd {
			exit = s
		}
		next := g.leave(exit, from, s == e)
		if next < 0 {
			return
		}
		j, from, enter = g.pathOf(next), exit, next
	}
}

// leave is the city after exit, a path's end, by the link that is not the
// tour's: for a path of one city the link other than the one from.
func (g *Changed) leave(exit, from int32, single bool) int32 {
	l := g.Links(exit)
	if single {
		if l[0] != from {
			return l[0]
		}
		return l[1]
	}
	b := g.base(exit)
	for _, x := range l {
		if x != b[0] && x != b[1] {
			return x
		}
	}
	return -1
}

// ends is path j's first and last city.
func (g *Changed) ends(j int) (s, e int32) {
	n, k := int32(len(g.t)), len(g.cuts)
	return g.t[(g.cuts[j]+1)%n], g.t[g.cuts[(j+1)%k]]
}

// pathLen is path j's cities.
func (g *Changed) pathLen(j int) int {
	n, k := len(g.t), len(g.cuts)
	if k == 1 {
		return n
	}
	return (int(g.cuts[(j+1)%k]) - int(g.cuts[j]) + n) % n
}

// pathOf is the path holding city a.
func (g *Changed) pathOf(a int32) int {
	k := len(g.cuts)
	i, _ := slices.BinarySearch(g.cuts, g.pos[a])
	return (i - 1 + k) % k
}
