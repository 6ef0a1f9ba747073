package tour

import "math"

// Links is tour t as each city's two neighbours.
func Links(t []int32) [][2]int32 {
	n := len(t)
	adj := make([][2]int32, n)
	for i, c := range t {
		adj[c] = [2]int32{t[(i+n-1)%n], t[(i+1)%n]}
	}
	return adj
}

// Relink makes a's neighbour from to (-1: none); false when from is not one.
func Relink(adj [][2]int32, a, from, to int32) bool {
	switch from {
	case adj[a][0]:
		adj[a][0] = to
	case adj[a][1]:
		adj[a][1] = to
	default:
		return false
	}
	return true
}

// Walk is adj's cycle through from; ok false unless it holds every city.
func Walk(adj [][2]int32, from int32) ([]int32, bool) {
	n := len(adj)
	out := make([]int32, 0, n)
	prev, c := int32(-1), from
	for range n {
		out = append(out, c)
		next := adj[c][0]
		if next == prev {
			next = adj[c][1]
		}
		prev, c = c, next
		if c == from {
			break
		}
	}
	return out, len(out) == n && c == from
}

// Cycles labels each city of adj with its cycle (comp, one entry a city)
// and returns the cycles' sizes.
func Cycles(adj [][2]int32, comp []int32) []int {
	for i := range comp {
		comp[i] = -1
	}
	var size []int
	for start := range adj {
		if comp[start] >= 0 {
			continue
		}
		k := int32(len(size))
		m, prev, c := 0, int32(-1), int32(start)
		for comp[c] < 0 {
			comp[c] = k
			m++
			next := adj[c][0]
			if next == prev {
				next = adj[c][1]
			}
			prev, c = c, next
		}
		size = append(size, m)
	}
	return size
}

// Graph is a graph of two links a city whose cycles JoinCycles joins:
// every city's links held in full (Adj), or a tour with a few links
// changed, whose cycles are labelled from the changes alone.
type Graph interface {
	// Links is a's two neighbours (-1: none).
	Links(a int32) [2]int32
	// Relink makes a's neighbour from to (-1: none); false when from is not one.
	Relink(a, from, to int32) bool
	// Label labels the cycles and returns their sizes; Of is a city's label since.
	Label() []int
	Of(a int32) int32
}

// Adj is the graph adj as a Graph, its cycles labelled by a walk over every city (Cycles).
type Adj struct {
	adj  [][2]int32
	comp []int32
}

// NewAdj is adj as a Graph; it changes adj itself.
func NewAdj(adj [][2]int32) *Adj { return &Adj{adj: adj} }

func (g *Adj) Links(a int32) [2]int32        { return g.adj[a] }
func (g *Adj) Relink(a, from, to int32) bool { return Relink(g.adj, a, from, to) }
func (g *Adj) Of(a int32) int32              { return g.comp[a] }

func (g *Adj) Label() []int {
	if g.comp == nil {
		g.comp = make([]int32, len(g.adj))
	}
	return Cycles(g.adj, g.comp)
}

// Exchange swaps the edges old for added in g; false when an old edge is missing or a city has no free link.
func Exchange(g Graph, old, added [][2]int) bool {
	for _, e := range old {
		a, b := int32(e[0]), int32(e[1])
		if !g.Relink(a, b, -1) || !g.Relink(b, a, -1) {
			return false
		}
	}
	for _, e := range added {
		a, b := int32(e[0]), int32(e[1])
		if !g.Relink(a, -1, b) || !g.Relink(b, -1, a) {
			return false
		}
	}
	return true
}

// JoinCycles joins the cycles of g into one, each time the smallest to another by the cheapest exchange of two
// edges at a city of from and one of its near cities (cheapestJoin), no edge taken out that free refuses. It returns
// the length the exchanges added; ok is false, the exchanges made so far left in g, past maxJoins or where no
// exchange joins.
func JoinCycles(g Graph, maxJoins int, from []int32, near func(a int32) []int32,
	free func(a, b int32) bool, d func(a, b int32) int64) (cost int64, ok bool) {
	for tries := 0; ; tries++ {
		size := g.Label()
		if len(size) == 1 {
			return cost, true
		}
		if len(size)-1 > maxJoins-tries {
			return cost, false
		}
		small := int32(0)
		for k, m := range size {
			if m < size[small] {
				small = int32(k)
			}
		}
		mv, c, found := cheapestJoin(g, small, from, near, free, d)
		if !found {
			return cost, false
		}
		a, b, x, e := mv[0], mv[1], mv[2], mv[3]
		g.Relink(a, b, x)
		g.Relink(b, a, e)
		g.Relink(x, e, a)
		g.Relink(e, x, b)
		cost += c
	}
}

// cheapestJoin is the exchange of two edges that joins cycle small of g
// (as its Label labels them) to another at least added
// length: with move a, b, c, e the edges (a, b) and (c, e) go out and
// (a, c) and (b, e) come in, a among from in cycle small, c among near(a)
// in another cycle, no edge taken out that free refuses; found is false
// where there is none.
func cheapestJoin(g Graph, small int32, from []int32, near func(a int32) []int32,
	free func(a, b int32) bool, d func(a, b int32) int64) (move [4]int32, cost int64, found bool) {
	cost = math.MaxInt64
	for _, a := range from {
		if g.Of(a) != small {
			continue
		}
		for _, c := range near(a) {
			if g.Of(c) == small {
				continue
			}
			for _, b := range g.Links(a) {
				if !free(a, b) {
					continue
				}
				for _, e := range g.Links(c) {
					if !free(c, e) {
						continue
					}
					out := d(a, b) + d(c, e)
					if g := d(a, c) + d(b, e) - out; g < cost {
						cost, found, move = g, true, [4]int32{a, b, c, e}
					}
					if g := d(a, e) + d(b, c) - out; g < cost {
						cost, found, move = g, true, [4]int32{a, b, e, c}
					}
				}
			}
		}
	}
	return move, cost, found
}
