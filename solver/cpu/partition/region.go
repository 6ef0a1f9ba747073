package partition

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
	"time"
)

// Region rounds of the partition search cut the plane into cells instead
// of the tour into segments, so that moves between passes of the tour
// through the same area (the rows of pla85900) fall inside one piece. A
// region is its cells' cities in tour order, closed into a cycle by fixed
// virtual edges that stand for the tour outside it; regions searched
// together can split the tour into cycles, so mergeRegions keeps each
// region's result only where the tour stays one cycle.

// OptPartShape selects the partition search's pieces: "path" (segments of
// consecutive tour positions), "region" (cells of the plane, several tour
// paths each), "alternate" (the two by turns) or "auto" (the one whose
// last round gained more per second, per kick under a kicks budget; the
// other every fourth round).
const OptPartShape = "partshape"

// chooseShape decides whether this round cuts the plane: under "auto" one
// of each first, then the shape whose last round gained more per second
// (per kick under a kicks budget), the other every fourth round to keep
// its figure current.
func (pr *partRun) chooseShape() bool {
	switch pr.env.Opts.Shape {
	case ShapeRegion:
		return true
	case ShapePath:
		return false
	case ShapeAlternate:
		return pr.round%2 == 1
	}
	if pr.round < 2 {
		return pr.round == 1
	}
	return byRate(pr.round, pr.gain, 3)
}

// regionFits tells whether a region round still fits before the run's
// deadline: more than twice the last region cut's time is left, so
// that a cut of the plane late in a run does not take it past its limit.
func (pr *partRun) regionFits() bool {
	d := pr.env.Control.Deadline
	return d.IsZero() || time.Until(d) > 2*pr.regionCut
}

// byRate tells whether the second of two ways takes this round: the one
// whose last round measured more, the other every fourth round (those
// with round%4 == phase), so that a way that fell behind is tried again.
func byRate(round int64, m [2]float64, phase int64) bool {
	better := m[1] > m[0]
	if round%4 == phase {
		return !better
	}
	return better
}

// regionBuckets is the resolution of cutRegions' split: the extent of
// the cities across (and along) the cut's direction is cut into this many
// buckets, so that a cell holds n/p cities up to about one bucket's.
const regionBuckets = 1 << 14

// cutRegions splits the cities into p cells of about n/p cities: strips
// across the direction at angle, each cut along it, by buckets of the
// coordinates (O(n)). Each cell's cities are listed in tour order. It
// returns false, cutting nothing, where a cell would hold fewer than
// partMinSegment cities.
func (pr *partRun) cutRegions(angle float64) bool {
	n, p := pr.env.In.N, pr.p
	all, u, v := pr.rotate(angle)
	pr.cutCells(all, u, v)
	sizes := make([]int, p)
	for _, ct := range all {
		sizes[pr.segOf[ct]]++
	}
	if slices.Min(sizes) < partMinSegment {
		return false
	}
	pr.fillRegions(n)
	return true
}

// rotate returns every city and its coordinates (u, v) in the plane
// turned by angle, in the run's buffers.
func (pr *partRun) rotate(angle float64) (all []int32, u, v []float64) {
	in, n := pr.env.In, pr.env.In.N
	c, s := math.Cos(angle), math.Sin(angle)
	u, v = grow(pr.ru, n), grow(pr.rv, n)
	pr.ru, pr.rv = u, v
	all = grow(pr.ridx, n)
	pr.ridx = all
	all = all[:0]
	for i := range n {
		u[i] = in.X[i]*c + in.Y[i]*s
		v[i] = in.Y[i]*c - in.X[i]*s
		all = append(all, int32(i))
	}
	return all, u, v
}

// cutCells puts every city's cell into segOf: strips across u, strip st
// holding cells lo..hi-1 and so (hi-lo)·n/p cities, each strip cut
// along v into its cells.
func (pr *partRun) cutCells(all []int32, u, v []float64) {
	n, p := pr.env.In.N, pr.p
	byStrip := grow(pr.ridx2, n)
	pr.ridx2 = byStrip
	hist := grow(pr.rhist, regionBuckets)
	pr.rhist = hist
	// segOf holds the strip for now
	strips := max(1, int(math.Round(math.Sqrt(float64(p)))))
	cells := func(st int) (lo, hi int) { return st * p / strips, (st + 1) * p / strips }
	bounds := make([]int, 0, max(strips, p)+1)
	for st := range strips + 1 {
		lo, _ := cells(st)
		bounds = append(bounds, lo*n/p)
	}
	splitByKey(all, u, bounds, hist, func(ct int32, g int) { pr.segOf[ct] = int32(g) })
	// the cities by strip (counting sort), then each strip cut along
	count := make([]int, strips+1)
	for _, ct := range all {
		count[pr.segOf[ct]+1]++
	}
	for st := range strips {
		count[st+1] += count[st]
	}
	at := slices.Clone(count[:strips])
	for _, ct := range all {
		g := pr.segOf[ct]
		byStrip[at[g]] = ct
		at[g]++
	}
	for st := range strips {
		lo, hi := cells(st)
		list := byStrip[count[st]:count[st+1]]
		bounds = bounds[:0]
		for cell := lo; cell <= hi; cell++ {
			bounds = append(bounds, (cell-lo)*len(list)/(hi-lo))
		}
		splitByKey(list, v, bounds, hist, func(ct int32, g int) { pr.segOf[ct] = int32(lo + g) })
	}
}

// fillRegions gives every region its cities in tour order (segOf holds
// each city's region), their local indices, and which consecutive pairs
// are not tour edges (virt).
func (pr *partRun) fillRegions(n int) {
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

// splitByKey assigns the cities to len(bounds)-1 groups by key, group g
// taking about the cities bounds[g]..bounds[g+1]-1 in key order, off by
// at most a bucket of hist (scratch).
func splitByKey(cities []int32, key []float64, bounds []int, hist []int32, assign func(ct int32, g int)) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, ct := range cities {
		lo, hi = min(lo, key[ct]), max(hi, key[ct])
	}
	scale := 0.0
	if hi > lo {
		scale = float64(len(hist)-1) / (hi - lo)
	}
	bucket := func(ct int32) int { return int((key[ct] - lo) * scale) }
	clear(hist)
	for _, ct := range cities {
		hist[bucket(ct)]++
	}
	// hist[b] becomes the group of bucket b
	g, before := 0, 0
	for b, cnt := range hist {
		mid := before + int(cnt)/2
		for g+2 < len(bounds) && mid >= bounds[g+1] {
			g++
		}
		before += int(cnt)
		hist[b] = int32(g)
	}
	for _, ct := range cities {
		assign(ct, int(hist[bucket(ct)]))
	}
}

// regionEdges gives region i its virtual and its instance fixed edges.
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

// isVirtual reports whether local cities a, b form a virtual edge of sg.
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

// mergeRegions puts the improved regions' tours into the tour, best gain
// first, halving batches that would split the tour (mergeBatch), and
// returns the change of length; it stops checking after limit.
func (pr *partRun) mergeRegions(deltas []int64, limit time.Duration) int64 {
	if pr.env.Control.Done() {
		// every batch would be refused (mergeBatch): the tour stays as it
		// is, without the two passes over all of it that take a fraction
		// of a second at ten million cities
		for _, d := range deltas {
			if d < 0 {
				pr.rejected++
			}
		}
		return 0
	}
	n := pr.env.In.N
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
	pr.checks, pr.mergeEnd = 0, time.Now().Add(limit)
	total := pr.mergeBatch(order, deltas)
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

// maxChecks bounds the O(n) checks of one round's merge for p regions;
// the results not tried in time are dropped.
func maxChecks(p int) int { return 4 + 2*bits.Len(uint(p)) }

// mergeBatch applies the regions of batch together and keeps them where
// the tour stays one cycle, else tries the two halves in turn; it returns
// the change of length kept.
func (pr *partRun) mergeBatch(batch []int, deltas []int64) int64 {
	if len(batch) == 0 {
		return 0
	}
	c := pr.env.Control
	// the time bound only under a time limit, for repeatable kick budgets
	late := pr.env.Opts.Kicks == 0 && pr.checks > 0 && time.Now().After(pr.mergeEnd)
	if pr.checks >= maxChecks(pr.p) || c.Done() || late {
		pr.rejected += int64(len(batch))
		return 0
	}
	if c.SnapshotDue() {
		c.Snapshot(nil, c.BestLen.Load(), pr.env.totalKicks(), pr.env.frac(), 0)
	}
	ok := true
	applied := 0
	for _, i := range batch {
		applied++
		if !pr.applyRegion(i) {
			ok = false
			break
		}
	}
	pr.checks++
	if ok && pr.oneCycle() {
		var sum int64
		for _, i := range batch {
			sum += deltas[i]
		}
		pr.merged += int64(len(batch))
		return sum
	}
	// each region writes only its own cities' entries: take them back
	for _, i := range batch[:applied] {
		sg := pr.segs[i]
		for j, ct := range sg.cities[:sg.m] {
			pr.adj[2*ct], pr.adj[2*ct+1] = sg.saved[2*j], sg.saved[2*j+1]
		}
	}
	if len(batch) == 1 {
		pr.rejected++
		return 0
	}
	h := len(batch) / 2
	return pr.mergeBatch(batch[:h], deltas) + pr.mergeBatch(batch[h:], deltas)
}

// applyRegion writes region i's new tour into the adjacency, the old
// entries going to sg.saved; it returns false where the tour does not fit
// its cities' outside neighbours (the adjacency then partly written).
func (pr *partRun) applyRegion(i int) bool {
	adj, sg := pr.adj, pr.segs[i]
	m := sg.m
	saved := grow(sg.saved, 2*m)
	sg.saved = saved
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
			return false
		}
		ca, cb := sg.cities[a], sg.cities[b]
		adj[2*ca+deg[a]] = cb
		deg[a]++
		adj[2*cb+deg[b]] = ca
		deg[b]++
	}
	return true
}

// oneCycle reports whether the adjacency is one cycle through all cities.
func (pr *partRun) oneCycle() bool {
	n, adj := pr.env.In.N, pr.adj
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
