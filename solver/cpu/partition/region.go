package partition

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
	"time"

	"github.com/tsplab/tsplab/solver/tour"
)

// Region rounds of the partition search cut the plane into cells instead
// of the tour into segments, so that moves between passes of the tour
// through the same area (the rows of pla85900) fall inside one piece. A
// region is its cells' cities in tour order, closed into a cycle by fixed
// virtual edges that stand for the tour outside it; regions searched
// together can split the tour into cycles, so mergeRegions keeps each
// region's result where the tour stays one cycle, or, below rescueMaxN
// cities, where joining the cycles again costs less than it gained.

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
// are not tour edges (virt), and lists the tour edges between regions.
func (pr *partRun) fillRegions(n int) {
	for _, sg := range pr.segs {
		sg.cities = sg.cities[:0]
		sg.virt = sg.virt[:0]
		sg.first, sg.last = -1, -1
	}
	pr.crossed = pr.crossed[:0]
	prev := pr.t[n-1]
	for at, ct := range pr.t {
		if pr.segOf[ct] != pr.segOf[prev] {
			pr.crossed = append(pr.crossed, prev, ct)
		}
		prev = ct
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

// regionLinks is the tour seen from the regions' virtual edges, for
// mergeRegions. Region r's virtual pair P (its local cities k, k+1 with
// virt[k]) has two ends: 2P at city k, where the tour leaves the region,
// and 2P+1 at city k+1, where it comes back. Every city lies on one path
// of its region's tour between two ends, and every end is joined to an
// end of another region by a tour edge between regions. Walking paths
// and those edges from an end comes back to it after every pair exactly
// when the tour is one cycle, so a check costs the pairs, not the cities.
type regionLinks struct {
	base  []int32 // region r's pairs are base[r] .. base[r+1]-1
	pairs []int32 // each pair's k, by region, ascending
	reg   []int32 // each pair's region
	cross []int32 // an end to the end across its edge between regions
	// an end to the other end of its path in its region's improved tour,
	// and its city's position there twice, plus one where that path goes
	// on forward in sg.order
	newEnd, newAt []int32
	use           []bool // a region's improved tour is applied
}

// pair is the index of region r's pair whose first city is local k.
func (lk *regionLinks) pair(r, k int32) int32 {
	ps := lk.pairs[lk.base[r]:lk.base[r+1]]
	i, _ := slices.BinarySearch(ps, k)
	return lk.base[r] + int32(i)
}

// other is the other end of end e's path, in its region's improved tour
// where that is applied, else in the tour.
func (lk *regionLinks) other(e int32) int32 {
	p := e / 2
	r := lk.reg[p]
	if lk.use[r] {
		return lk.newEnd[e]
	}
	lo, v := lk.base[r], lk.base[r+1]-lk.base[r]
	if e%2 == 1 { // the path goes on forward to the next pair's first city
		return 2 * (lo + (p-lo+1)%v)
	}
	return 2*(lo+(p-lo+v-1)%v) + 1
}

// oneCycle reports whether the tour with the applied regions is one
// cycle.
func (lk *regionLinks) oneCycle() bool {
	total := len(lk.pairs)
	if total == 0 {
		return true // one region holds every city
	}
	e := int32(0)
	for steps := 1; steps <= total; steps++ {
		e = lk.cross[lk.other(e)]
		if e == 0 {
			return steps == total
		}
	}
	return false
}

// linkRegions sets lk's pairs and edges between regions for this round's
// regions, and the paths of each improved region (deltas[i] < 0) whose
// tour keeps its virtual edges; it returns whether region i's does.
func (pr *partRun) linkRegions(deltas []int64) []bool {
	lk := &pr.links
	p := pr.p
	lk.base = grow(lk.base, p+1)
	lk.pairs, lk.reg = lk.pairs[:0], lk.reg[:0]
	for r, sg := range pr.segs[:p] {
		lk.base[r] = int32(len(lk.pairs))
		for k, v := range sg.virt[:sg.m] {
			if v {
				lk.pairs = append(lk.pairs, int32(k))
				lk.reg = append(lk.reg, int32(r))
			}
		}
	}
	lk.base[p] = int32(len(lk.pairs))
	ends := 2 * len(lk.pairs)
	lk.cross = grow(lk.cross, ends)
	lk.newEnd, lk.newAt = grow(lk.newEnd, ends), grow(lk.newAt, ends)
	for j := 0; j < len(pr.crossed); j += 2 {
		a, b := pr.crossed[j], pr.crossed[j+1]
		rb := pr.segOf[b]
		mb := int32(pr.segs[rb].m)
		out := 2 * lk.pair(pr.segOf[a], pr.local[a])
		in := 2*lk.pair(rb, (pr.local[b]+mb-1)%mb) + 1
		lk.cross[out], lk.cross[in] = in, out
	}
	lk.use = grow(lk.use, p)
	clear(lk.use)
	ok := make([]bool, p)
	for r, d := range deltas {
		ok[r] = d < 0 && pr.linkImproved(int32(r))
	}
	return ok
}

// linkImproved sets the paths of region r's improved tour sg.order
// between its virtual edges, and reports whether that tour holds each of
// them.
func (pr *partRun) linkImproved(r int32) bool {
	lk, sg := &pr.links, pr.segs[r]
	m := sg.m
	v := lk.base[r+1] - lk.base[r]
	found := int32(0)
	// the end where the path now being walked began; first: the end at
	// the first virtual edge's first city
	open, first := int32(-1), int32(-1)
	for q, a := range sg.order[:m] {
		b := sg.order[(q+1)%m]
		if !sg.isVirtual(a, b) {
			continue
		}
		found++
		// ea at a closes the path walked; eb at b opens the next one
		var ea, eb int32
		if b == (a+1)%int32(m) {
			ea = 2 * lk.pair(r, a)
			eb = ea + 1
		} else {
			eb = 2 * lk.pair(r, b)
			ea = eb + 1
		}
		lk.newAt[ea] = 2 * int32(q)
		lk.newAt[eb] = 2*int32((q+1)%m) + 1
		if open < 0 {
			first = ea
		} else {
			lk.newEnd[open], lk.newEnd[ea] = ea, open
		}
		open = eb
	}
	if found != v {
		return false
	}
	if v == 0 {
		return true // the region is the whole tour
	}
	lk.newEnd[open], lk.newEnd[first] = first, open
	return true
}

// writeTour writes the tour with the applied regions into pr.t: each
// path from sg.order where its region is applied, else from sg.cities.
func (pr *partRun) writeTour() {
	lk := &pr.links
	if len(lk.pairs) == 0 { // one region, the whole tour
		sg := pr.segs[0]
		for q, j := range sg.order[:sg.m] {
			pr.t[q] = sg.cities[j]
		}
		return
	}
	at := 0
	e0 := int32(0)
	e := e0
	for {
		f := lk.other(e)
		r := lk.reg[e/2]
		sg := pr.segs[r]
		m := int32(sg.m)
		// the path's positions q .. end by step: in the region's improved
		// tour where it is applied, else in its cities' tour order
		var order []int32
		var q, end, step int32
		if lk.use[r] {
			order = sg.order
			q, end, step = lk.newAt[e]/2, lk.newAt[f]/2, 1
			if lk.newAt[e]%2 == 0 {
				step = m - 1
			}
		} else {
			q, end, step = lk.pairs[e/2], lk.pairs[f/2], m-1 // from the pair's first city back
			if e%2 == 1 {
				q, step = (q+1)%m, 1 // from its second city on
			}
			if f%2 == 1 {
				end = (end + 1) % m
			}
		}
		for {
			c := q
			if order != nil {
				c = order[q]
			}
			pr.t[at] = sg.cities[c]
			at++
			if q == end {
				break
			}
			q = (q + step) % m
		}
		e = lk.cross[f]
		if e == e0 {
			return
		}
	}
}

// mergeRegions puts the improved regions' tours into the tour, best gain
// first, halving batches that would split the tour (mergeBatch), then
// the regions left out where they pay joined again (rescue), and returns
// the change of length; it stops checking after limit.
func (pr *partRun) mergeRegions(deltas []int64, limit time.Duration) int64 {
	if pr.env.Control.Done() {
		// every batch would be refused (mergeBatch): the tour stays as it is
		for _, d := range deltas {
			if d < 0 {
				pr.rejected++
			}
		}
		return 0
	}
	ok := pr.linkRegions(deltas)
	var order []int
	for i, d := range deltas {
		switch {
		case ok[i]:
			order = append(order, i)
		case d < 0:
			pr.rejected++
		}
	}
	if len(order) == 0 {
		return 0
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(deltas[a], deltas[b]) })
	pr.checks, pr.mergeEnd = 0, time.Now().Add(limit)
	total := pr.mergeBatch(order, deltas)
	if total != 0 {
		pr.writeTour()
	}
	if pr.env.In.N < rescueMaxN {
		// the regions that split the tour, joined again where that pays
		var left []int
		for _, i := range order {
			if !pr.links.use[i] {
				left = append(left, i)
			}
		}
		total += pr.rescue(left, deltas)
	}
	return total
}

// rescueMaxN: from this many cities the merge drops the regions that
// split the tour, because there the tour's walk and the positions of
// every city, once a round, cost more than the regions gain
// (docs/DECISIONS.md#region-rescue: twice the largest size measured).
const rescueMaxN = 2_000_000

// rescue puts the improved tours of regions that split the tour (left,
// best gain first) into it all the same, each joined again into one
// cycle by the cheapest exchanges of two edges at its cities and their
// candidates (tour.JoinCycles), and keeps each where its gain outweighs
// the joins; it returns the change of length kept. The tour is held as
// its changes (tour.Changed), so that a region costs about its changed
// edges rather than walks over every city.
func (pr *partRun) rescue(left []int, deltas []int64) int64 {
	if len(left) == 0 || pr.env.Control.Done() {
		return 0
	}
	g := tour.NewChanged(pr.t)
	near := func(a int32) []int32 { return pr.nb[0].Of(int(a)) }
	free := func(a, b int32) bool { return !pr.fixedEdge(a, b) }
	var total int64
	kept := false
	for _, r := range left {
		if pr.env.Control.Done() || (pr.env.Opts.Kicks == 0 && time.Now().After(pr.mergeEnd)) {
			break // as the merge: the time bound only under a time limit
		}
		sg := pr.segs[r]
		old, added := regionChange(sg)
		mark := g.Mark()
		// the exchange fails where a join of a region rescued before took
		// one of this region's edges
		ok := tour.Exchange(g, old, added)
		var cost int64
		if ok {
			cost, ok = tour.JoinCycles(g, rescueJoins, sg.cities[:sg.m], near, free, pr.d.At)
		}
		if ok && deltas[r]+cost < 0 {
			total += deltas[r] + cost
			pr.rescued++
			pr.merged++
			pr.rejected--
			kept = true
			continue
		}
		g.Undo(mark)
	}
	if kept {
		t, _ := g.Tour(make([]int32, 0, len(pr.t)))
		copy(pr.t, t)
	}
	return total
}

// regionChange is the tour edges of region sg that its improved tour
// drops (old) and the edges it adds, its virtual edges left out.
func regionChange(sg *partSeg) (old, added [][2]int) {
	m := int32(sg.m)
	key := func(a, b int32) uint64 { return lkPair(sg.cities[a], sg.cities[b]) }
	was := make([]uint64, 0, m)
	for k := range m {
		if !sg.virt[k] {
			was = append(was, key(k, (k+1)%m))
		}
	}
	now := make([]uint64, 0, m)
	for q, a := range sg.order[:m] {
		if b := sg.order[(int32(q)+1)%m]; !sg.isVirtual(a, b) {
			now = append(now, key(a, b))
		}
	}
	slices.Sort(was)
	slices.Sort(now)
	pair := func(e uint64) [2]int { return [2]int{int(e >> 32), int(e & (1<<32 - 1))} }
	i, j := 0, 0
	for i < len(was) || j < len(now) {
		switch {
		case j == len(now) || i < len(was) && was[i] < now[j]:
			old = append(old, pair(was[i]))
			i++
		case i == len(was) || now[j] < was[i]:
			added = append(added, pair(now[j]))
			j++
		default:
			i++
			j++
		}
	}
	return old, added
}

// rescueJoins is the most joins a rescued region may need.
const rescueJoins = 3

// maxChecks bounds the one-cycle checks of one round's merge for p
// regions of n cities with pairs virtual pairs: a few a halving, or as
// many as walk n ends in all, as a walk over every city once did; the
// results not tried by then are dropped.
func maxChecks(p, pairs, n int) int { return max(4+2*bits.Len(uint(p)), n/max(pairs, 1)) }

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
	if pr.checks >= maxChecks(pr.p, len(pr.links.pairs), pr.env.In.N) || c.Done() || late {
		pr.rejected += int64(len(batch))
		return 0
	}
	if c.SnapshotDue() {
		c.Snapshot(nil, c.BestLen.Load(), pr.env.totalKicks(), pr.env.frac(), 0)
	}
	lk := &pr.links
	for _, i := range batch {
		lk.use[i] = true
	}
	pr.checks++
	if lk.oneCycle() {
		var sum int64
		for _, i := range batch {
			sum += deltas[i]
		}
		pr.merged += int64(len(batch))
		return sum
	}
	for _, i := range batch {
		lk.use[i] = false
	}
	if len(batch) == 1 {
		pr.rejected++
		return 0
	}
	h := len(batch) / 2
	return pr.mergeBatch(batch[:h], deltas) + pr.mergeBatch(batch[h:], deltas)
}
