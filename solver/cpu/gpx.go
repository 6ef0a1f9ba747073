package cpu

import (
	"github.com/tsplab/tsplab/solver/internal/unionfind"
	"github.com/tsplab/tsplab/solver/tour"
)

// gpx is the partition crossover of Whitley, Hains and Howe ("Tunneling
// between optima: partition crossover for the TSP", GECCO 2009), with two
// steps of GPX2 (Tinós, Whitley and Ochoa, 2018): the pairing test for
// components entered more than once, and the fusion of infeasible
// neighbouring components. The child of A and B keeps their shared edges
// and takes, in each feasible component where they differ, the shorter of
// A's and B's edges, so it is never longer than A. O(n), buffers reused.
type gpx struct {
	n          int
	posA, posB []int32
	key        []bool
	uf         *unionfind.Sets // the components: sets of key vertices
	parent     []int32         // per key vertex: its component's root (classify)
	end        []int32         // a key vertex's shared path's other end (-1: none)
	portal     []bool
	crossings  []int32 // per component root: its portals
	lenA, lenB []int64 // per component root: its A-only and B-only edges
	state      []int8  // per component root: 1 feasible, -1 not
	shA        []bool  // per position of A: is the edge to the next shared
	pairA      []int32 // per portal: the portal A's path inside joins it to
	pairB      []int32
	child      []int32
	a          []int32 // the call's A, for walk
	seen       []uint32
	stamp      uint32

	// statistics of the last call
	comps, feasible, swapped int
}

// resize prepares the buffers for n cities.
func (g *gpx) resize(n int) {
	if g.n == n {
		return
	}
	g.n = n
	g.posA, g.posB = make([]int32, n), make([]int32, n)
	g.key, g.portal, g.shA = make([]bool, n), make([]bool, n), make([]bool, n)
	g.uf = unionfind.New(n)
	g.parent, g.end = make([]int32, n), make([]int32, n)
	g.crossings, g.pairA, g.pairB = make([]int32, n), make([]int32, n), make([]int32, n)
	g.lenA, g.lenB = make([]int64, n), make([]int64, n)
	g.state = make([]int8, n)
	g.child = make([]int32, n)
	g.seen = make([]uint32, n)
	g.stamp = 0
}

// at returns the city dir (±1) positions from city c in tour t, pos its
// position index.
func at(t, pos []int32, c int32, dir int32) int32 {
	p := pos[c] + dir
	n := int32(len(t))
	if p == n {
		p = 0
	} else if p < 0 {
		p = n - 1
	}
	return t[p]
}

// adjacent reports whether u and v are neighbours in the tour whose
// position index is pos.
func adjacent(pos []int32, u, v int32) bool {
	d := pos[u] - pos[v]
	n := int32(len(pos))
	return d == 1 || d == -1 || d == n-1 || d == 1-n
}

// cross returns the child of a (of length lenA) and b: a itself when no
// component of b is shorter, when a fixed edge is not in both, or when
// the child fails its check; else g's buffer (valid until the next call).
func (g *gpx) cross(d *tour.Dist, a []int32, lenA int64, b []int32, fixed [][2]int) ([]int32, int64) {
	n := len(a)
	g.comps, g.feasible, g.swapped = 0, 0, 0
	if n < 5 || len(b) != n {
		return a, lenA
	}
	g.resize(n)
	g.a = a
	defer func() { g.a = nil }()
	for i, c := range a {
		g.posA[c] = int32(i)
	}
	for i, c := range b {
		g.posB[c] = int32(i)
	}
	for _, e := range fixed {
		u, v := int32(e[0]), int32(e[1])
		if !adjacent(g.posA, u, v) || !adjacent(g.posB, u, v) {
			return a, lenA
		}
	}
	if !g.components(a, b) {
		return a, lenA
	}
	g.sharedPaths(a)
	// portals, lengths and feasibility of the components; then the
	// infeasible components joined by a shared path are fused into one,
	// which may be feasible (GPX2's fusion)
	g.classify(d, a, b)
	g.feasible = g.countFeasible()
	if g.fuse() {
		g.classify(d, a, b)
		g.feasible = g.countFeasible()
	}
	gain := g.gain(n)
	if g.swapped == 0 || !g.build(a, b) {
		return a, lenA
	}
	l := d.Length(g.child)
	if l != lenA-gain || l > lenA {
		return a, lenA
	}
	return g.child, l
}

// components marks A's shared edges (edge i joins a[i] and a[i+1]) and
// the key vertices, and joins the key vertices into components by the
// edges of one tour only. It returns false when the tours are the same.
func (g *gpx) components(a, b []int32) bool {
	n := len(a)
	sh := g.shA
	keys := 0
	for i := range n {
		j := i + 1
		if j == n {
			j = 0
		}
		sh[i] = adjacent(g.posB, a[i], a[j])
	}
	prevSh := sh[n-1]
	g.uf.Reset()
	for i, v := range a {
		g.parent[v], g.end[v], g.portal[v] = v, -1, false
		g.key[v] = !sh[i] || !prevSh
		if g.key[v] {
			keys++
		}
		prevSh = sh[i]
	}
	if keys == 0 {
		return false
	}
	for i := range n {
		j := i + 1
		if j == n {
			j = 0
		}
		if !sh[i] {
			g.uf.Union(a[i], a[j])
		}
		if !adjacent(g.posA, b[i], b[j]) {
			g.uf.Union(b[i], b[j])
		}
	}
	return true
}

// sharedPaths links consecutive key vertices in A's order whose A path
// between them is all shared (end holds each one's partner).
func (g *gpx) sharedPaths(a []int32) {
	n := len(a)
	first := 0
	for !g.key[a[first]] {
		first++
	}
	k := a[first]
	for step := 1; step <= n; step++ {
		i := first + step
		if i >= n {
			i -= n
		}
		v := a[i]
		if !g.key[v] {
			continue
		}
		if g.shA[g.posA[k]] {
			g.end[k], g.end[v] = v, k
		}
		k = v
	}
}

// gain counts the feasible components whose B side is shorter (swapped)
// and returns what taking B's side in them saves.
func (g *gpx) gain(n int) int64 {
	var gain int64
	for v := int32(0); v < int32(n); v++ {
		if g.takesB(v) && g.parent[v] == v {
			g.swapped++
			gain += g.lenA[v] - g.lenB[v]
		}
	}
	return gain
}

// takesB reports whether the child takes key vertex v's neighbours from
// B: its component is feasible and B's side of it is shorter.
func (g *gpx) takesB(v int32) bool {
	r := g.parent[v]
	return g.key[v] && g.state[r] == 1 && g.lenB[r] < g.lenA[r]
}

// build writes the child into g.child: B's neighbours in the swapped
// components, A's elsewhere. Walked from city 0 it must be one cycle
// over every city; build returns false when it is not.
func (g *gpx) build(a, b []int32) bool {
	n := len(a)
	g.stamp++
	if g.stamp == 0 {
		clear(g.seen)
		g.stamp = 1
	}
	prev, cur := int32(-1), int32(0)
	for i := 0; i < n; i++ {
		if g.seen[cur] == g.stamp {
			return false
		}
		g.seen[cur] = g.stamp
		g.child[i] = cur
		x, y := at(a, g.posA, cur, -1), at(a, g.posA, cur, 1)
		if g.takesB(cur) {
			x, y = at(b, g.posB, cur, -1), at(b, g.posB, cur, 1)
		}
		next := x
		if prev >= 0 {
			switch prev {
			case x:
				next = y
			case y:
			default:
				return false // not a consistent adjacency
			}
		}
		prev, cur = cur, next
	}
	return cur == 0
}

// classify finds every key vertex's component root (in parent), the
// components' A-only and B-only lengths, portals and crossings, and marks
// each component feasible (1) or not (-1).
func (g *gpx) classify(d *tour.Dist, a, b []int32) {
	n := len(a)
	g.comps = 0
	for _, v := range a {
		if g.key[v] {
			r := g.uf.Find(v)
			g.parent[v] = r
			if r == v {
				g.crossings[v], g.lenA[v], g.lenB[v], g.state[v] = 0, 0, 0, 1
				g.comps++
			}
		}
		g.portal[v] = false
	}
	for i := range n {
		j := i + 1
		if j == n {
			j = 0
		}
		if !g.shA[i] {
			g.lenA[g.parent[a[i]]] += d.At(a[i], a[j])
		}
		if !adjacent(g.posA, b[i], b[j]) {
			g.lenB[g.parent[b[i]]] += d.At(b[i], b[j])
		}
	}
	for _, v := range a {
		if u := g.end[v]; u >= 0 && g.parent[v] != g.parent[u] {
			g.portal[v] = true
			g.crossings[g.parent[v]]++
			g.pairA[v], g.pairB[v] = -1, -1
		}
	}
	for _, v := range a {
		if !g.portal[v] {
			continue
		}
		r := g.parent[v]
		if g.state[r] != 1 || g.crossings[r] <= 2 {
			continue
		}
		if g.pairA[v] < 0 {
			q := g.walk(a, g.posA, v)
			g.pairA[v], g.pairA[q] = q, v
		}
		if g.pairB[v] < 0 {
			q := g.walk(b, g.posB, v)
			g.pairB[v], g.pairB[q] = q, v
		}
		if g.pairA[v] != g.pairB[v] {
			g.state[r] = -1 // B's paths join other portals: infeasible
		}
	}
}

// countFeasible returns the number of feasible components.
func (g *gpx) countFeasible() int {
	f := 0
	for v, k := range g.key {
		if k && g.parent[v] == int32(v) && g.state[v] == 1 {
			f++
		}
	}
	return f
}

// fuse joins every two infeasible components linked by a shared path
// and reports whether it joined any.
func (g *gpx) fuse() bool {
	fused := false
	for v, p := range g.portal {
		if !p {
			continue
		}
		u := g.end[v]
		ru, rv := g.uf.Find(u), g.uf.Find(int32(v))
		if ru != rv && g.state[ru] == -1 && g.state[rv] == -1 {
			g.uf.Union(ru, rv)
			fused = true
		}
	}
	return fused
}

// walk follows tour t (position index pos) from portal p into its
// component, away from p's shared edge, to the next portal: the other end
// of t's path through the component that starts at p.
func (g *gpx) walk(t, pos []int32, p int32) int32 {
	// p's one shared edge, read off A: the one towards its path's end
	s := at(g.a, g.posA, p, -1)
	if g.shA[g.posA[p]] {
		s = at(g.a, g.posA, p, 1)
	}
	dir := int32(1)
	if at(t, pos, p, 1) == s {
		dir = -1
	}
	u := at(t, pos, p, dir)
	for !g.portal[u] {
		u = at(t, pos, u, dir)
	}
	return u
}
