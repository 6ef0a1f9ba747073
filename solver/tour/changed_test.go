package tour

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestChanged: a tour changed by random exchanges of edges, undone in part,
// labels the same cycles as the whole adjacency does (Cycles), walks the
// same tour when it is one cycle, and joins its cycles as JoinCycles does
// on the adjacency, to the same length.
func TestChanged(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		n := 5 + rng.IntN(60)
		t0 := make([]int32, n)
		for i := range t0 {
			t0[i] = int32(i)
		}
		rng.Shuffle(n, func(i, j int) { t0[i], t0[j] = t0[j], t0[i] })
		adj := Links(t0)
		g := NewChanged(t0)
		// a few exchanges of two edges into two others, some undone
		for range 1 + rng.IntN(6) {
			mark := g.Mark()
			before := slices.Clone(adj)
			a := int32(rng.IntN(n))
			c := int32(rng.IntN(n))
			b, e := adj[a][rng.IntN(2)], adj[c][rng.IntN(2)]
			if a == c || a == e || b == c || b == e {
				continue
			}
			old := [][2]int{{int(a), int(b)}, {int(c), int(e)}}
			added := [][2]int{{int(a), int(c)}, {int(b), int(e)}}
			okA, okG := Exchange(NewAdj(adj), old, added), Exchange(g, old, added)
			if okA != okG || !okA {
				t.Fatalf("trial %d: exchange %v for %v: adjacency %v, changed %v", trial, old, added, okA, okG)
			}
			if rng.IntN(4) == 0 {
				g.Undo(mark)
				copy(adj, before)
			}
		}
		for c := range n {
			l, w := g.Links(int32(c)), adj[c]
			if l != w && l != [2]int32{w[1], w[0]} {
				t.Fatalf("trial %d: city %d links %v, the adjacency's %v", trial, c, l, w)
			}
		}
		comp := make([]int32, n)
		want := Cycles(adj, comp)
		got := g.Label()
		if !slices.Equal(sorted(got), sorted(want)) {
			t.Fatalf("trial %d: cycles of %v cities, the adjacency's %v", trial, got, want)
		}
		for a := range n {
			for b := range n {
				if (g.Of(int32(a)) == g.Of(int32(b))) != (comp[a] == comp[b]) {
					t.Fatalf("trial %d: cities %d and %d on one cycle: %v, the adjacency says %v", trial, a, b, !(comp[a] == comp[b]), comp[a] == comp[b])
				}
			}
		}
		walked, one := g.Tour(nil)
		if one != (len(want) == 1) {
			t.Fatalf("trial %d: one cycle %v, the adjacency's %d", trial, one, len(want))
		}
		if one && !walksAdj(walked, adj) {
			t.Fatalf("trial %d: tour %v is not the adjacency's cycle", trial, walked)
		}
		// joined on points of a line by both, to the same length
		if len(want) > 1 {
			all := make([]int32, n)
			for i := range all {
				all[i] = int32(i)
			}
			d := func(a, b int32) int64 { return int64(max(a-b, b-a)) }
			near := func(int32) []int32 { return all }
			free := func(a, b int32) bool { return true }
			costA, okA := JoinCycles(NewAdj(adj), len(want)-1, all, near, free, d)
			costG, okG := JoinCycles(g, len(want)-1, all, near, free, d)
			if okA != okG || costA != costG {
				t.Fatalf("trial %d: joined %v at %d, the adjacency %v at %d", trial, okG, costG, okA, costA)
			}
			if walked, one := g.Tour(nil); okG && (!one || len(walked) != n) {
				t.Fatalf("trial %d: joined but not one tour", trial)
			}
		}
	}
}

func sorted(s []int) []int { s = slices.Clone(s); slices.Sort(s); return s }

// walksAdj reports whether tour holds every city once, each next to its
// two neighbours in adj.
func walksAdj(tour []int32, adj [][2]int32) bool {
	n := len(adj)
	if len(tour) != n {
		return false
	}
	for i, a := range tour {
		b := tour[(i+1)%n]
		if adj[a][0] != b && adj[a][1] != b {
			return false
		}
	}
	return true
}
