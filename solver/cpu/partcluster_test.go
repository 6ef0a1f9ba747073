package cpu

import "testing"

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

// TestClusterContract: on a clustered instance's greedy tour the runs
// cover every tour position once, each run's end cities are its first
// and last, the edges between runs are long and those inside are not,
// and each run of several cities has its ends joined by a fixed edge.
func TestClusterContract(t *testing.T) {
	pr := newTestPartRun(t, dimacsInstance(t, "portcgen", 3000, 3000), 2, map[string]string{OptCandidates: "mixed"})
	cs := pr.contract()
	if cs == nil {
		t.Fatal("no runs on a clustered instance")
	}
	n := len(pr.t)
	seen := make([]bool, n)
	fixed := 0
	for j := range cs.of {
		from, size := int(cs.from[j]), int(cs.size[j])
		want := pr.t[from]
		if !cs.first[j] {
			want = pr.t[(from+size-1)%n]
		} else {
			for k := range size {
				at := (from + k) % n
				if seen[at] {
					t.Fatalf("position %d in two runs", at)
				}
				seen[at] = true
				if k+1 < size && pr.longEdge(pr.t[at], pr.t[(at+1)%n]) {
					t.Fatalf("long edge inside the run from %d", from)
				}
			}
			before := (from + n - 1) % n
			if !pr.longEdge(pr.t[before], pr.t[from]) {
				t.Fatalf("run from %d not after a long edge", from)
			}
		}
		if cs.of[j] != want {
			t.Fatalf("end %d: city %d, want %d", j, cs.of[j], want)
		}
		if !cs.first[j] {
			fixed++
			if cs.edges[fixed-1] != [2]int{j - 1, j} {
				t.Fatalf("end %d: fixed edge %v, want its run's other end before it", j, cs.edges[fixed-1])
			}
		}
	}
	for at, ok := range seen {
		if !ok {
			t.Fatalf("position %d in no run", at)
		}
	}
	if fixed != len(cs.edges) || len(cs.of) >= n/4 {
		t.Fatalf("%d ends, %d fixed edges for %d run ends: runs too short", len(cs.of), len(cs.edges), fixed)
	}
}

// TestClusterPass: from a clustered instance's greedy tour the cluster
// pass shortens the tour, keeps one cycle of the recorded length, and
// keeps every edge inside a run (it only reorders and turns the runs);
// a second pass never lengthens it.
func TestClusterPass(t *testing.T) {
	pr := newTestPartRun(t, dimacsInstance(t, "portcgen", 3000, 3000), 2, map[string]string{OptCandidates: "mixed"})
	if !pr.clustered || !pr.clusterDue() {
		t.Fatalf("clustered %v, pass due %v at round 0", pr.clustered, pr.clusterDue())
	}
	n := len(pr.t)
	inside := map[[2]int32]bool{}
	for i, a := range pr.t {
		if b := pr.t[(i+1)%n]; !pr.longEdge(a, b) {
			inside[[2]int32{a, b}] = true
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
	in := dimacsInstance(t, "portcgen", 3000, 3000)
	pr := newTestPartRun(t, in, 2, map[string]string{OptCandidates: "mixed"})
	n := len(pr.t)
	for i, a := range pr.t {
		if b := pr.t[(i+1)%n]; pr.longEdge(a, b) && i%3 == 0 {
			in.FixedEdges = append(in.FixedEdges, [2]int{int(a), int(b)})
		}
	}
	if len(in.FixedEdges) == 0 {
		t.Fatal("no long edges to fix")
	}
	pr = newTestPartRun(t, in, 2, map[string]string{OptCandidates: "mixed"})
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
	uni := newTestPartRun(t, dimacsInstance(t, "portgen", 3000, 3000), 2, map[string]string{OptCandidates: "mixed"})
	if uni.clusterDue() {
		t.Fatal("cluster pass due on a uniform instance")
	}

}
