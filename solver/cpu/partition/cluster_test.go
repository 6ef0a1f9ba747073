package partition

import (
	"math"
	"slices"
	"testing"

	"github.com/tsplab/tsplab/solver/cpu/localsearch"
	"github.com/tsplab/tsplab/solver/enginetest"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/tour"
)

// tourEdges returns the tour's edges as a set of ordered pairs (both
// directions).
func tourEdges(t []int32) map[[2]int32]bool {
	n := len(t)
	e := make(map[[2]int32]bool, 2*n)
	for i, a := range t {
		b := t[(i+1)%n]
		e[[2]int32{a, b}], e[[2]int32{b, a}] = true, true
	}
	return e
}

// TestClusterContract: on a clustered instance's greedy tour the
// contracted cities are in tour order, consecutive ones either tour
// neighbours or the two ends of a fixed edge whose inside holds no long
// edge, at most 2·clusterEnds of them between two long edges, and the
// contracted tour in its own order expands to the tour itself.
func TestClusterContract(t *testing.T) {
	pr := newTestPartRun(t, enginetest.DIMACS(t, "portcgen", 3000, 3000), 2, func(o *Options) { o.Candidates = ListMixed })
	cs := pr.contract()
	if cs == nil {
		t.Fatal("no runs on a clustered instance")
	}
	n, m := len(pr.t), len(cs.of)
	cuts, fixed := 0, 0
	for i, a := range pr.t {
		if pr.longEdge(a, pr.t[(i+1)%n]) {
			cuts++
		}
	}
	for j := range m {
		k := (j + 1) % m
		p, q := int(cs.pos[j]), int(cs.pos[k])
		if cs.of[j] != pr.t[p] {
			t.Fatalf("city %d: %d, the tour has %d at %d", j, cs.of[j], pr.t[p], p)
		}
		if cs.inner[j] != int32(k) {
			if q != (p+1)%n {
				t.Fatalf("cities %d, %d at %d, %d: not neighbours, no fixed edge", j, k, p, q)
			}
			continue
		}
		fixed++
		if cs.edges[fixed-1] != [2]int{j, k} || cs.inner[k] != int32(j) || !cs.ahead[j] || cs.ahead[k] {
			t.Fatalf("fixed edge %d: %v, want %v", fixed-1, cs.edges[fixed-1], [2]int{j, k})
		}
		for x := p; x != q; x = (x + 1) % n {
			if pr.longEdge(pr.t[x], pr.t[(x+1)%n]) {
				t.Fatalf("long edge inside the fixed edge %d-%d", j, k)
			}
		}
	}
	if pr.fixed == nil && fixed != len(cs.edges) || m > 2*clusterEnds*cuts || m >= n/4 {
		t.Fatalf("%d cities, %d fixed edges (%d found) for %d long edges", m, len(cs.edges), fixed, cuts)
	}
	// the same tour from the contracted tour's first city
	want := append(append([]int32(nil), pr.t[cs.pos[0]:]...), pr.t[:cs.pos[0]]...)
	pr.expand(cs, ident(m))
	if !slices.Equal(pr.t, want) {
		t.Fatal("the contracted tour's own order does not expand to the tour")
	}
}

// TestClusterPass: from a clustered instance's greedy tour the cluster
// pass shortens the tour, keeps one cycle of the recorded length, and
// keeps every edge inside the runs' contracted insides;
// a second pass never lengthens it.
func TestClusterPass(t *testing.T) {
	pr := newTestPartRun(t, enginetest.DIMACS(t, "portcgen", 3000, 3000), 2, func(o *Options) { o.Candidates = ListMixed })
	if !pr.clustered || !pr.clusterDue() {
		t.Fatalf("clustered %v, pass due %v at round 0", pr.clustered, pr.clusterDue())
	}
	n := len(pr.t)
	cs := pr.contract()
	inside := map[[2]int32]bool{}
	for _, e := range cs.edges {
		for x := cs.pos[e[0]]; x != cs.pos[e[1]]; x = (x + 1) % int32(n) {
			inside[[2]int32{pr.t[x], pr.t[(x+1)%int32(n)]}] = true
		}
	}
	l0 := pr.length
	if d := pr.clusterPass(); d >= 0 || pr.length != l0+d {
		t.Fatalf("pass: change %d, length %d from %d", d, pr.length, l0)
	}
	checkPartTour(t, pr, "after the pass")
	edges := tourEdges(pr.t)
	for e := range inside {
		if !edges[e] {
			t.Fatalf("edge %v inside a run lost", e)
		}
	}
	l1 := pr.length
	pr.round++
	if d := pr.clusterPass(); d > 0 || pr.length > l1 {
		t.Fatalf("second pass: change %d, length %d from %d", d, pr.length, l1)
	}
	checkPartTour(t, pr, "after the second pass")
}

// TestClusterPassFixed: a long edge that is one of the instance's fixed
// edges is no cut, and the pass keeps every fixed edge.
func TestClusterPassFixed(t *testing.T) {
	in := enginetest.DIMACS(t, "portcgen", 3000, 3000)
	pr := newTestPartRun(t, in, 2, func(o *Options) { o.Candidates = ListMixed })
	n := len(pr.t)
	for i, a := range pr.t {
		if b := pr.t[(i+1)%n]; pr.longEdge(a, b) && i%3 == 0 {
			in.FixedEdges = append(in.FixedEdges, [2]int{int(a), int(b)})
		}
	}
	if len(in.FixedEdges) == 0 {
		t.Fatal("no long edges to fix")
	}
	pr = newTestPartRun(t, in, 2, func(o *Options) { o.Candidates = ListMixed })
	for _, e := range in.FixedEdges {
		if pr.longEdge(int32(e[0]), int32(e[1])) {
			t.Fatalf("fixed edge %v taken for a cut", e)
		}
	}
	pr.clusterPass()
	checkPartTour(t, pr, "after the pass")
}

// TestClusterSchedule: passes come two rounds apart while they gain,
// twice as far apart after each that does not, at most clusterMaxGap,
// and never on a uniform instance.
func TestClusterSchedule(t *testing.T) {
	pr := &partRun{clustered: true}
	want := []int64{2, 4, 8, 16}
	for _, g := range want {
		pr.clusterSchedule(false)
		if pr.clusterGap != g || pr.clusterNext != pr.round+g {
			t.Fatalf("gap %d next %d, want gap %d", pr.clusterGap, pr.clusterNext, g)
		}
		pr.round = pr.clusterNext
		if !pr.clusterDue() {
			t.Fatal("pass not due at its round")
		}
	}
	for range 10 {
		pr.clusterSchedule(false)
	}
	if pr.clusterGap != clusterMaxGap {
		t.Fatalf("gap %d, want at most %d", pr.clusterGap, clusterMaxGap)
	}
	pr.clusterSchedule(true)
	if pr.clusterGap != 2 || pr.clusterDue() {
		t.Fatalf("after a gain: gap %d, due %v", pr.clusterGap, pr.clusterDue())
	}
	uni := newTestPartRun(t, enginetest.DIMACS(t, "portgen", 3000, 3000), 2, func(o *Options) { o.Candidates = ListMixed })
	if uni.clusterDue() {
		t.Fatal("cluster pass due on a uniform instance")
	}
}

// TestClusteredUncached: the candidates' total distance is the same from
// the cached distances and without them (lists too large to cache), so
// that large clustered instances count as clustered and uniform ones do
// not; above neighbor.ClusteredSample cities on a sample, whose ratio stays
// within a few per cent of the whole's.
func TestClusteredUncached(t *testing.T) {
	for _, n := range []int{3000, 3*neighbor.ClusteredSample - 1} {
		for _, kind := range []string{"portcgen", "portgen"} {
			in := enginetest.DIMACS(t, kind, n, uint64(n))
			d := tour.NewDist(in)
			nb, quad := neighbor.Nearest(in, 8), neighbor.Quadrant(in, 8)
			near := listSum(d, nb, nil)
			if c := listSum(d, nb, localsearch.NeighborDists(d, nb.List, in.N, nb.K, nil)); c != near || near <= 0 {
				t.Fatalf("%s %d: sum %v cached, %v not", kind, n, c, near)
			}
			q := listSum(d, quad, nil)
			if got := clustered(near, q); got != (kind == "portcgen") {
				t.Fatalf("%s %d: clustered %v", kind, n, got)
			}
			whole := sumAll(d, quad) / sumAll(d, nb)
			if r := q / near; math.Abs(r/whole-1) > 0.05 {
				t.Fatalf("%s %d: ratio %.3f on the sample, %.3f on every city", kind, n, r, whole)
			}
		}
	}
}

// sumAll is the total distance from every city to its candidates.
func sumAll(d *tour.Dist, nb *neighbor.Lists) float64 {
	var s float64
	for c := range nb.N() {
		for _, x := range nb.Of(c) {
			s += float64(d.At(int32(c), x))
		}
	}
	return s
}
