package tour

import (
	"slices"
	"testing"
)

// TestAdjacency: an exchange of two edges that cuts a tour of 10 cities
// into two cycles shows as two cycles of the right sizes and no walk
// through every city; the exchange back gives the tour again.
func TestAdjacency(t *testing.T) {
	t0 := []int32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	adj := Links(t0)
	// a walk from 0 leaves by its first link, to the city before it
	if got, ok := Walk(adj, 0); !ok || !slices.Equal(got, []int32{0, 9, 8, 7, 6, 5, 4, 3, 2, 1}) {
		t.Fatalf("walk of the tour: %v, %v", got, ok)
	}
	// (2, 3) and (6, 7) out, (2, 7) and (3, 6) in: 0-1-2-7-8-9 and 3-4-5-6
	if !Relink(adj, 2, 3, 7) || !Relink(adj, 3, 2, 6) || !Relink(adj, 7, 6, 2) || !Relink(adj, 6, 7, 3) {
		t.Fatal("an edge of the tour not found")
	}
	if Relink(adj, 0, 5, 1) {
		t.Fatal("relinked a neighbour 0 does not have")
	}
	comp := make([]int32, len(adj))
	size := Cycles(adj, comp)
	slices.Sort(size)
	if !slices.Equal(size, []int{4, 6}) || comp[3] != comp[6] || comp[3] == comp[0] || comp[2] != comp[7] {
		t.Fatalf("cycles %v, labels %v", size, comp)
	}
	if _, ok := Walk(adj, 0); ok {
		t.Fatal("two cycles walked as one tour")
	}
	// joined again on points of a line, in one exchange
	joined := slices.Clone(adj)
	all := []int32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	d := func(a, b int32) int64 { return int64(max(a-b, b-a)) }
	length := func(adj [][2]int32) (l int64) {
		for a, nb := range adj {
			l += d(int32(a), nb[0]) + d(int32(a), nb[1])
		}
		return l / 2
	}
	cost, ok := JoinCycles(NewAdj(joined), 1, all, func(int32) []int32 { return all }, func(a, b int32) bool { return true }, d)
	if _, whole := Walk(joined, 0); !ok || !whole || cost != length(joined)-length(adj) {
		t.Fatalf("join: cost %d (length %d from %d), ok %v, one tour %v", cost, length(joined), length(adj), ok, whole)
	}
	Relink(adj, 2, 7, 3)
	Relink(adj, 3, 6, 2)
	Relink(adj, 7, 2, 6)
	Relink(adj, 6, 3, 7)
	if got, ok := Walk(adj, 0); !ok || len(Cycles(adj, comp)) != 1 {
		t.Fatalf("after the exchange back: %v, %v", got, ok)
	}
}
