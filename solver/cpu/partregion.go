package cpu

import (
	"cmp"
	"math"
	"slices"
)

// Region rounds of the partition search. A segment of consecutive tour
// positions holds one pass of the tour through each part of the plane it
// covers; where the tour passes through the same area several times (the
// rows of pla85900) the moves between those passes are never inside one
// segment. A region round cuts the plane instead: the cities are split
// into p cells of equal size (strips across a random direction, each
// strip cut across), and a region is the set of its cities in tour
// order, several tour paths. Its sub-instance is that sequence closed into
// a cycle, each jump from the end of one path to the start of the next
// being a fixed (virtual) edge standing for the tour outside the region.
// Any tour of the sub-instance that keeps those edges, with each virtual
// edge replaced by the outside path it stands for, is a tour of the whole
// instance, shorter by exactly what the region gained. Regions searched
// at the same time can each change which outside path joins which of
// their path ends, though, and two such changes together can split the
// tour into cycles: mergeRegions applies the regions' results one at a
// time, best first, and keeps each one only when the tour stays one
// cycle.

// OptPartShape selects the partition search's pieces: "path" (segments of
// consecutive tour positions), "region" (cells of the plane, several tour
// paths each), "alternate" (the two by turns) or "auto" (the one whose
// last round gained more per kick, the other every fourth round).
const OptPartShape = "partshape"

// chooseShape decides whether this round cuts the plane. Under "auto" the
// first two rounds take one of each, then the shape whose last round
// gained more per kick, the other one every fourth round so that its
// figure stays current. From a greedy tour the paths gain more (a region
// made of many short paths has most of its edges fixed, and the regions'
// results collide); once the tour is good the regions do (pla85900, 16
// workers, docs/PERF.md).
func (pr *partRun) chooseShape() bool {
	switch pr.r.o.partShape {
	case "region":
		return true
	case "path":
		return false
	case "alternate":
		return pr.round%2 == 1
	}
	if pr.round < 2 {
		return pr.round == 1
	}
	better := pr.gain[1] > pr.gain[0]
	if pr.round%4 == 3 {
		return !better
	}
	return better
}

// regionRound reports whether this round cuts the plane.
func (pr *partRun) regionRound() bool { return pr.region }

// cutRegions splits the cities into p cells of the plane: strips across
// the direction at angle, each cut into cells along it, all of n/p
// cities (ties by city index, so the cut depends on the angle alone).
// Each cell's cities are listed in tour order; the pairs of consecutive
// ones that are not consecutive in the tour are its virtual edges.
func (pr *partRun) cutRegions(angle float64) {
	in, n, p := pr.r.in, pr.r.in.N, pr.p
	c, s := math.Cos(angle), math.Sin(angle)
	u, v := grow(pr.ru, n), grow(pr.rv, n)
	pr.ru, pr.rv = u, v
	idx := grow(pr.ridx, n)
	pr.ridx = idx
	for i := range n {
		u[i] = in.X[i]*c + in.Y[i]*s
		v[i] = in.Y[i]*c - in.X[i]*s
		idx[i] = int32(i)
	}
	by := func(key []float64) func(a, b int32) int {
		return func(a, b int32) int { return cmp.Or(cmp.Compare(key[a], key[b]), cmp.Compare(a, b)) }
	}
	slices.SortFunc(idx, by(u))
	strips := max(1, int(math.Round(math.Sqrt(float64(p)))))
	for st := range strips {
		lo, hi := st*p/strips, (st+1)*p/strips // its cells
		slices.SortFunc(idx[lo*n/p:hi*n/p], by(v))
		for cell := lo; cell < hi; cell++ {
			for _, ct := range idx[cell*n/p : (cell+1)*n/p] {
				pr.segOf[ct] = int32(cell)
			}
		}
	}
	for _, sg := range pr.segs {
		sg.cities = sg.cities[:0]
		sg.virt = sg.virt[:0]
		sg.first, sg.last = -1, -1
	}
	for at, ct := range pr.t {
		sg := pr.segs[pr.segOf[ct]]
		if len(sg.cities) > 0 {
			sg.virt = append(sg.virt, int32(at) != sg.last+1)
		} else {
			sg.first = int32(at)
		}
		pr.local[ct] = int32(len(sg.cities))
		sg.cities = append(sg.cities, ct)
		sg.last = int32(at)
	}
	for _, sg := range pr.segs {
		sg.m = len(sg.cities)
		// the closing pair, last to first: a tour edge only where the
		// region's one path wraps around position 0
		sg.virt = append(sg.virt, !(sg.last == int32(n-1) && sg.first == 0))
	}
}

// regionEdges gives region i its fixed edges: the virtual ones and the
// instance's own inside it.
func (pr *partRun) regionEdges(i int) {
	sg := pr.segs[i]
	m := sg.m
	sg.edges = sg.edges[:0]
	for j, v := range sg.virt[:m] {
		if v {
			sg.edges = append(sg.edges, [2]int{j, (j + 1) % m})
		}
	}
	pr.instanceEdges(i)
}

// isVirtual reports whether the pair of local cities a, b is one of
// region sg's virtual edges.
func (sg *partSeg) isVirtual(a, b int32) bool {
	m := int32(sg.m)
	switch {
	case b == (a+1)%m:
		return sg.virt[a]
	case a == (b+1)%m:
		return sg.virt[b]
	}
	return false
}

// mergeRegions puts the improved regions' tours (sg.order, from
// keepRegion) into the tour, best gain first, each kept only where the
// tour stays one cycle, and returns the change of length.
func (pr *partRun) mergeRegions(deltas []int64) int64 {
	n := pr.r.in.N
	adj := grow(pr.adj, 2*n)
	pr.adj = adj
	for at, ct := range pr.t {
		prev := pr.t[(at+n-1)%n]
		next := pr.t[(at+1)%n]
		adj[2*ct], adj[2*ct+1] = prev, next
	}
	var order []int
	for i, d := range deltas {
		if d < 0 {
			order = append(order, i)
		}
	}
	if len(order) == 0 {
		return 0
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(deltas[a], deltas[b]) })
	var total int64
	for _, i := range order {
		sg := pr.segs[i]
		saved, ok := pr.applyRegion(i, sg)
		if ok && pr.oneCycle() {
			total += deltas[i]
			pr.merged++
			continue
		}
		for j, ct := range sg.cities[:sg.m] {
			adj[2*ct], adj[2*ct+1] = saved[2*j], saved[2*j+1]
		}
		pr.rejected++
	}
	// the tour from the adjacency, from the same first city
	prev, cur := int32(-1), pr.t[0]
	for at := range n {
		pr.t[at] = cur
		next := adj[2*cur]
		if next == prev {
			next = adj[2*cur+1]
		}
		prev, cur = cur, next
	}
	return total
}

// applyRegion writes region i's new tour into the adjacency: each of its
// cities keeps its neighbours outside the region (the paths the virtual
// edges stand for) and takes its new neighbours inside. It returns the
// region's old adjacency, two entries per city in local order, and false
// where the region's tour does not fit its cities' outside neighbours
// (a city would get a third neighbour), the adjacency then being partly
// written.
func (pr *partRun) applyRegion(i int, sg *partSeg) ([]int32, bool) {
	adj, m := pr.adj, sg.m
	saved := grow(pr.adjSaved, 2*m)
	pr.adjSaved = saved
	seg := int32(i)
	deg := grow(pr.adjDeg, m)
	pr.adjDeg = deg
	for j, ct := range sg.cities[:m] {
		saved[2*j], saved[2*j+1] = adj[2*ct], adj[2*ct+1]
		// the outside neighbours first
		deg[j] = 0
		for _, x := range saved[2*j : 2*j+2] {
			if pr.segOf[x] != seg {
				adj[2*ct+deg[j]] = x
				deg[j]++
			}
		}
	}
	for q, a := range sg.order[:m] {
		b := sg.order[(q+1)%m]
		if sg.isVirtual(a, b) {
			continue
		}
		if deg[a] >= 2 || deg[b] >= 2 {
			return saved, false
		}
		ca, cb := sg.cities[a], sg.cities[b]
		adj[2*ca+deg[a]] = cb
		deg[a]++
		adj[2*cb+deg[b]] = ca
		deg[b]++
	}
	return saved, true
}

// oneCycle reports whether the adjacency is one cycle through all cities.
func (pr *partRun) oneCycle() bool {
	n, adj := pr.r.in.N, pr.adj
	prev, cur := int32(-1), int32(0)
	for steps := 1; steps <= n; steps++ {
		next := adj[2*cur]
		if next == prev {
			next = adj[2*cur+1]
		}
		prev, cur = cur, next
		if cur == 0 {
			return steps == n
		}
	}
	return false
}
