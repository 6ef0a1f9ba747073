// Package recomb recombines tours: partition crossover in the spirit of
// GPX2 (Tinós, Whitley and Ochoa, "A new generalized partition crossover
// for the traveling salesman problem: tunneling between local optima",
// Evolutionary Computation 28(2), 2020).
//
// Two parent tours are laid over each other; the edges they share are
// kept, and what is left splits into components. Where both parents cross
// a component through the same portals, joined in the same pairs, either
// parent's paths inside it can stand in for the other's, independently of
// every other component, so the child takes the shorter parent's paths in
// each such component. Vertices where the parents share no edge are split
// in two joined by a ghost edge common to both, which cuts components
// further. Every edge of the child is an edge of a parent, every edge the
// parents share is kept (fixed edges among them), and the child is never
// longer than the shorter parent.
package recomb

import (
	"slices"
)

// Distancer gives the distance of two cities; *problem.Instance is one.
type Distancer interface {
	Dist(i, j int) int64
}

// Stats describe one crossover.
type Stats struct {
	// Components of the parents' differing edges; Feasible those crossed alike by both; Taken those from the non-base parent.
	Components, Feasible, Taken int
	// Ghosts counts the vertices split in two (no edge shared there).
	Ghosts int
	// Fused counts the components fusion made feasible.
	Fused int
	// Repaired counts the infeasible components taken from the other parent.
	Repaired int
	// Length is the child's length.
	Length int64
	// Gain is the shorter parent's length minus the child's (never negative).
	Gain int64
}

// GPX is the partition crossover's reusable workspace, allocation-free once warm; the zero value is ready.
// It is not safe for concurrent use.
type GPX struct {
	// NoGhosts turns off splitting vertices without a shared edge (plain GPX).
	NoGhosts bool
	// NoFusion turns off fusing neighbouring infeasible components.
	NoFusion bool
	// NoRepair turns off taking an infeasible component from the other parent where the child stays one cycle.
	NoRepair bool

	n, m int
	// ghost[v] is v's ghost's extended id (-1: none); city[x] the city of x
	ghost []int32
	city  []int32
	// the parents as extended sequences, with their neighbours
	ta, tb         []int32
	nA, pA, nB, pB []int32
	// label[x] is x's component (-1: both of x's edges are shared)
	label []int32
	stack []int32
	// per component: both parents' lengths, entries, feasibility and choice
	lenA, lenB []int64
	entries    []int32
	ok, useB   []bool
	pairsA     []pair
	pairsB     []pair
	// fusion: the union-find over components
	parent []int32
	// repair's scratch: candidates, portal links and component entries
	cands           []cand
	outLink, inLink []int32
	firstA, firstB  []int32
	// the child walk
	stamp []uint32
	epoch uint32
	out   []int32
}

// pair is one passage of a parent through a component.
type pair struct{ comp, lo, hi int32 }

// cand is an infeasible component the other parent is shorter in.
type cand struct {
	comp int32
	gain int64
}

func cmpPair(a, b pair) int {
	switch {
	case a.comp != b.comp:
		return int(a.comp) - int(b.comp)
	case a.lo != b.lo:
		return int(a.lo) - int(b.lo)
	}
	return int(a.hi) - int(b.hi)
}

// grow sizes the workspace for n cities.
func (g *GPX) grow(n int) {
	g.n = n
	if cap(g.ghost) >= n {
		g.ghost = g.ghost[:n]
		return
	}
	g.ghost = make([]int32, n)
	m := 2 * n
	g.city = make([]int32, m)
	g.ta, g.tb = make([]int32, 0, m), make([]int32, 0, m)
	g.nA, g.pA, g.nB, g.pB = make([]int32, m), make([]int32, m), make([]int32, m), make([]int32, m)
	g.label = make([]int32, m)
	g.stack = make([]int32, 0, m)
	g.lenA, g.lenB = make([]int64, m), make([]int64, m)
	g.entries = make([]int32, m)
	g.ok, g.useB = make([]bool, m), make([]bool, m)
	g.parent = make([]int32, m)
	g.outLink, g.inLink = make([]int32, m), make([]int32, m)
	g.firstA, g.firstB = make([]int32, m), make([]int32, m)
	g.stamp = make([]uint32, m)
	g.epoch = 0
	g.out = make([]int32, 0, n)
}

// Cross writes into child the partition crossover of a and b (lengths lenA, lenB) and returns its figures; child
// may not share memory with them. Below 5 cities or without a feasible component, the shorter parent.
func (g *GPX) Cross(d Distancer, a, b []int32, lenA, lenB int64, child []int32) Stats {
	n := len(a)
	g.grow(n)
	if n < 5 {
		return g.copyBase(a, b, lenA, lenB, child)
	}
	return g.cross(d, a, b, lenA, lenB, child)
}

// copyBase writes the shorter parent into child.
func (g *GPX) copyBase(a, b []int32, lenA, lenB int64, child []int32) Stats {
	if lenB < lenA {
		copy(child, b)
		return Stats{Length: lenB}
	}
	copy(child, a)
	return Stats{Length: lenA}
}

// cross is one crossover of a and b.
func (g *GPX) cross(d Distancer, a, b []int32, lenA, lenB int64, child []int32) Stats {
	var st Stats
	g.links(a, b)
	st.Ghosts = g.split()
	g.extend(a, b)
	comps := g.components()
	st.Components = comps
	if comps == 0 {
		return g.copyBase(a, b, lenA, lenB, child)
	}
	g.measure(d, comps)
	g.feasible(comps)
	if !g.NoFusion {
		st.Fused = g.fuse(comps)
	}
	diff := g.choose(comps, &st)
	if !g.NoRepair {
		st.Repaired = g.repair(comps, &diff)
	}
	if !g.walk(child) {
		// cannot happen when the feasibility test is right; the shorter parent stands in
		return g.copyBase(a, b, lenA, lenB, child)
	}
	st.Length = lenA + diff
	st.Gain = min(lenA, lenB) - st.Length
	if st.Gain < 0 {
		return g.copyBase(a, b, lenA, lenB, child)
	}
	return st
}

// links sets the cities' neighbours in a and b (b reversed when reverseB).
func (g *GPX) links(a, b []int32) {
	n := g.n
	for i, c := range a {
		g.nA[c] = a[(i+1)%n]
		g.pA[c] = a[(i+n-1)%n]
	}
	for i, c := range b {
		g.nB[c], g.pB[c] = b[(i+1)%n], b[(i+n-1)%n]
	}
}

// split gives a ghost to every city of degree 4 in the parents' union (none with NoGhosts) and returns the ghosts made.
func (g *GPX) split() int {
	n := g.n
	m := n
	for v := 0; v < n; v++ {
		g.ghost[v] = -1
		g.city[v] = int32(v)
		if g.NoGhosts {
			continue
		}
		na, pa, nb, pb := g.nA[v], g.pA[v], g.nB[v], g.pB[v]
		if na != nb && na != pb && pa != nb && pa != pb {
			g.ghost[v] = int32(m)
			g.city[m] = int32(v)
			m++
		}
	}
	g.m = m
	return m - n
}

// extend builds the extended sequences, ghosts after their cities, and links them.
func (g *GPX) extend(a, b []int32) {
	m := g.m
	g.ta = g.ta[:0]
	for _, c := range a {
		g.ta = append(g.ta, c)
		if gh := g.ghost[c]; gh >= 0 {
			g.ta = append(g.ta, gh)
		}
	}
	g.tb = g.tb[:0]
	for _, c := range b {
		g.tb = append(g.tb, c)
		if gh := g.ghost[c]; gh >= 0 {
			g.tb = append(g.tb, gh)
		}
	}
	for i, x := range g.ta {
		g.nA[x] = g.ta[(i+1)%m]
		g.pA[x] = g.ta[(i+m-1)%m]
	}
	for i, x := range g.tb {
		g.nB[x] = g.tb[(i+1)%m]
		g.pB[x] = g.tb[(i+m-1)%m]
	}
}

// choose picks each component's parent (feasible: the shorter's paths) and returns the child's length minus a's.
func (g *GPX) choose(comps int, st *Stats) int64 {
	var infA, infB int64
	for c := 0; c < comps; c++ {
		if g.parent[c] != int32(c) {
			continue // fused into another
		}
		if !g.ok[c] {
			infA += g.lenA[c]
			infB += g.lenB[c]
		} else {
			st.Feasible++
		}
	}
	baseB := infB < infA
	var diff int64
	for c := 0; c < comps; c++ {
		g.useB[c] = false
		if g.parent[c] != int32(c) {
			continue
		}
		takeB := baseB
		if g.ok[c] {
			takeB = g.lenB[c] < g.lenA[c]
			if takeB != baseB && g.lenA[c] != g.lenB[c] {
				st.Taken++
			}
		}
		g.useB[c] = takeB
		if takeB {
			diff += g.lenB[c] - g.lenA[c]
		}
	}
	return diff
}

// components labels the components of the unshared edges and returns their count.
func (g *GPX) components() int {
	m := g.m
	for x := 0; x < m; x++ {
		g.label[x] = -1
	}
	comps := int32(0)
	for x0 := int32(0); x0 < int32(m); x0++ {
		if g.label[x0] >= 0 || !g.hasUncommon(x0) {
			continue
		}
		g.label[x0] = comps
		g.stack = append(g.stack[:0], x0)
		for len(g.stack) > 0 {
			x := g.stack[len(g.stack)-1]
			g.stack = g.stack[:len(g.stack)-1]
			for _, y := range [4]int32{g.nA[x], g.pA[x], g.nB[x], g.pB[x]} {
				if g.label[y] < 0 && !g.common(x, y) {
					g.label[y] = comps
					g.stack = append(g.stack, y)
				}
			}
		}
		comps++
	}
	return int(comps)
}

// common reports whether x and y are joined in both parents.
func (g *GPX) common(x, y int32) bool {
	inA := g.nA[x] == y || g.pA[x] == y
	inB := g.nB[x] == y || g.pB[x] == y
	return inA && inB
}

// hasUncommon reports whether an edge at x is in one parent only.
func (g *GPX) hasUncommon(x int32) bool {
	return !g.common(x, g.nA[x]) || !g.common(x, g.pA[x])
}

// measure sums each parent's edges inside each component.
func (g *GPX) measure(d Distancer, comps int) {
	for c := 0; c < comps; c++ {
		g.lenA[c], g.lenB[c] = 0, 0
		g.parent[c] = int32(c)
	}
	for x := int32(0); x < int32(g.m); x++ {
		if y := g.nA[x]; !g.common(x, y) {
			g.lenA[g.label[x]] += g.dist(d, x, y)
		}
		if y := g.nB[x]; !g.common(x, y) {
			g.lenB[g.label[x]] += g.dist(d, x, y)
		}
	}
}

// dist is the length of the extended edge x–y (0 for a ghost edge).
func (g *GPX) dist(d Distancer, x, y int32) int64 {
	cx, cy := g.city[x], g.city[y]
	if cx == cy {
		return 0
	}
	return d.Dist(int(cx), int(cy))
}

// root is the component c was fused into.
func (g *GPX) root(c int32) int32 {
	for g.parent[c] != c {
		g.parent[c] = g.parent[g.parent[c]]
		c = g.parent[c]
	}
	return c
}

// compOf is x's component after fusion (-1: none).
func (g *GPX) compOf(x int32) int32 {
	l := g.label[x]
	if l < 0 {
		return -1
	}
	return g.root(l)
}

// passages appends each passage of t through a component to ps.
func (g *GPX) passages(t []int32, ps []pair, count bool) []pair {
	m := len(t)
	for i, x := range t {
		c := g.compOf(x)
		if c < 0 || g.compOf(t[(i+m-1)%m]) == c {
			continue
		}
		// an entry at x: follow the component to its exit
		j := i
		for g.compOf(t[(j+1)%m]) == c {
			j = (j + 1) % m
			if j == i {
				break // the whole tour: no portal
			}
		}
		lo, hi := x, t[j]
		if hi < lo {
			lo, hi = hi, lo
		}
		ps = append(ps, pair{c, lo, hi})
		if count {
			g.entries[c]++
		}
	}
	return ps
}

// feasible marks the components both parents cross through the same portals alike.
func (g *GPX) feasible(comps int) {
	for c := 0; c < comps; c++ {
		g.entries[c] = 0
		g.ok[c] = false
	}
	g.pairsA = g.passages(g.ta, g.pairsA[:0], true)
	g.pairsB = g.passages(g.tb, g.pairsB[:0], false)
	slices.SortFunc(g.pairsA, cmpPair)
	slices.SortFunc(g.pairsB, cmpPair)
	for c := 0; c < comps; c++ {
		g.ok[c] = g.parent[c] == int32(c) && g.entries[c] > 0
	}
	// a component is feasible when both lists of its passages agree
	i, j := 0, 0
	for i < len(g.pairsA) || j < len(g.pairsB) {
		var c int32
		switch {
		case i >= len(g.pairsA):
			c = g.pairsB[j].comp
		case j >= len(g.pairsB):
			c = g.pairsA[i].comp
		default:
			c = min(g.pairsA[i].comp, g.pairsB[j].comp)
		}
		i0, j0 := i, j
		for i < len(g.pairsA) && g.pairsA[i].comp == c {
			i++
		}
		for j < len(g.pairsB) && g.pairsB[j].comp == c {
			j++
		}
		if !slices.Equal(g.pairsA[i0:i], g.pairsB[j0:j]) {
			g.ok[c] = false
		}
	}
}

// fuse joins pairs of infeasible components linked by a shared path while that makes feasible ones, each with one
// neighbour a round; it returns how many it made.
func (g *GPX) fuse(comps int) int {
	made := 0
	busy := g.useB // scratch: joined in this round
	for round := 0; round < 4; round++ {
		for c := 0; c < comps; c++ {
			busy[c] = false
		}
		joined := false
		m := g.m
		for i, x := range g.ta {
			cx := g.compOf(x)
			if cx < 0 || g.ok[cx] || busy[cx] {
				continue
			}
			if g.compOf(g.ta[(i+1)%m]) == cx {
				continue
			}
			// x is an exit of cx: follow the shared path to the next component
			j := (i + 1) % m
			for g.compOf(g.ta[j]) < 0 && j != i {
				j = (j + 1) % m
			}
			cy := g.compOf(g.ta[j])
			if cy < 0 || cy == cx || g.ok[cy] || busy[cy] {
				continue
			}
			for k := (i + 1) % m; k != j; k = (k + 1) % m {
				g.label[g.ta[k]] = cx
			}
			g.parent[cy] = cx
			g.lenA[cx] += g.lenA[cy]
			g.lenB[cx] += g.lenB[cy]
			busy[cx], busy[cy] = true, true
			joined = true
		}
		if !joined {
			break
		}
		before := g.countFeasible(comps)
		g.feasible(comps)
		made += g.countFeasible(comps) - before
	}
	return max(made, 0)
}

// countFeasible counts the feasible components after fusion.
func (g *GPX) countFeasible(comps int) int {
	k := 0
	for c := 0; c < comps; c++ {
		if g.parent[c] == int32(c) && g.ok[c] {
			k++
		}
	}
	return k
}

// maxRepair bounds the components repair tries, largest gain first.
const maxRepair = 256

// maxRepairPairs bounds the components repair tries two at a time.
const maxRepairPairs = 48

// repair takes each infeasible component where the other parent is shorter, largest gain first, while the portals
// still make one cycle; it returns how many it took.
func (g *GPX) repair(comps int, diff *int64) int {
	if !g.gather(comps) {
		return 0
	}
	portals := g.portals(comps)
	p0 := g.pairsA[0].lo
	taken := 0
	// a component taken can free others: a few passes while some are taken
	for pass := 0; pass < repairPasses; pass++ {
		if pass > 0 && !g.gather(comps) {
			break
		}
		alone, left := g.takeAlone(p0, portals, diff)
		paired := g.takePairs(g.cands[:min(left, maxRepairPairs)], p0, portals, diff)
		taken += alone + paired
		if alone+paired == 0 {
			break
		}
	}
	return taken
}

// portals readies repair's walks: each component's passages, the links between them and the insides entered.
func (g *GPX) portals(comps int) int {
	for i := len(g.pairsA) - 1; i >= 0; i-- {
		g.firstA[g.pairsA[i].comp] = int32(i)
	}
	for i := len(g.pairsB) - 1; i >= 0; i-- {
		g.firstB[g.pairsB[i].comp] = int32(i)
	}
	m := g.m
	portals := 0
	for i, x := range g.ta {
		cx := g.compOf(x)
		if cx < 0 || g.compOf(g.ta[(i+1)%m]) == cx {
			continue
		}
		j := (i + 1) % m
		for g.compOf(g.ta[j]) < 0 {
			j = (j + 1) % m
		}
		y := g.ta[j]
		g.outLink[x], g.outLink[y] = y, x
		portals += 2
	}
	for c := int32(0); c < int32(comps); c++ {
		if g.parent[c] == c && g.entries[c] > 0 {
			g.setInside(c)
		}
	}
	return portals
}

// takeAlone takes each candidate whose flip alone keeps one cycle; it returns those taken and those left at the front.
func (g *GPX) takeAlone(p0 int32, portals int, diff *int64) (taken, left int) {
	for _, k := range g.cands {
		g.flip(k.comp)
		if g.oneCycle(p0, portals) {
			taken++
			*diff -= k.gain
			continue
		}
		g.flip(k.comp)
		g.cands[left] = k
		left++
	}
	return taken, left
}

// takePairs takes two at once among the candidates refused alone (crossing portals change together).
func (g *GPX) takePairs(rest []cand, p0 int32, portals int, diff *int64) int {
	taken := 0
	for i := range rest {
		ci := rest[i].comp
		if ci < 0 {
			continue
		}
		g.flip(ci)
		for j := i + 1; j < len(rest); j++ {
			cj := rest[j].comp
			if cj < 0 {
				continue
			}
			g.flip(cj)
			if g.oneCycle(p0, portals) {
				taken += 2
				*diff -= rest[i].gain + rest[j].gain
				rest[i].comp, rest[j].comp = -1, -1
				break
			}
			g.flip(cj)
		}
		if rest[i].comp >= 0 {
			g.flip(ci)
		}
	}
	return taken
}

// repairPasses bounds repair's passes over its candidates.
const repairPasses = 3

// gather lists in cands the infeasible components the other parent is shorter in, largest gain first (at most maxRepair).
func (g *GPX) gather(comps int) bool {
	g.cands = g.cands[:0]
	for c := int32(0); c < int32(comps); c++ {
		if g.parent[c] != c || g.ok[c] || g.entries[c] == 0 {
			continue
		}
		gain := g.lenA[c] - g.lenB[c]
		if g.useB[c] {
			gain = -gain
		}
		if gain > 0 {
			g.cands = append(g.cands, cand{c, gain})
		}
	}
	slices.SortFunc(g.cands, func(x, y cand) int {
		switch {
		case x.gain > y.gain:
			return -1
		case x.gain < y.gain:
			return 1
		}
		return int(x.comp) - int(y.comp)
	})
	if len(g.cands) > maxRepair {
		g.cands = g.cands[:maxRepair]
	}
	return len(g.cands) > 0
}

// flip takes component c from the other parent.
func (g *GPX) flip(c int32) {
	g.useB[c] = !g.useB[c]
	g.setInside(c)
}

// setInside links component c's portals as its chosen parent passes.
func (g *GPX) setInside(c int32) {
	ps, i := g.pairsA, g.firstA[c]
	if g.useB[c] {
		ps, i = g.pairsB, g.firstB[c]
	}
	for ; int(i) < len(ps) && ps[i].comp == c; i++ {
		g.inLink[ps[i].lo], g.inLink[ps[i].hi] = ps[i].hi, ps[i].lo
	}
}

// oneCycle reports whether the portals' links make one cycle.
func (g *GPX) oneCycle(p0 int32, portals int) bool {
	x, k := p0, 0
	for {
		x = g.inLink[g.outLink[x]]
		k += 2
		if x == p0 || k > portals {
			return k == portals && x == p0
		}
	}
}

// walk writes the child, each vertex taking its neighbours from its component's parent; false unless one cycle.
func (g *GPX) walk(child []int32) bool {
	m := g.m
	g.epoch++
	if g.epoch == 0 {
		clear(g.stamp)
		g.epoch = 1
	}
	g.out = g.out[:0]
	prev, x := int32(-1), int32(0)
	for steps := 0; steps < m; steps++ {
		if g.stamp[x] == g.epoch {
			return false
		}
		g.stamp[x] = g.epoch
		if x < int32(g.n) {
			g.out = append(g.out, x)
		}
		n1, n2 := g.nA[x], g.pA[x]
		if c := g.compOf(x); c >= 0 && g.useB[c] {
			n1, n2 = g.nB[x], g.pB[x]
		}
		next := n1
		if n1 == prev {
			next = n2
		}
		prev, x = x, next
	}
	if x != 0 || len(g.out) != g.n {
		return false
	}
	copy(child, g.out)
	return true
}
