package ils

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// ggrFragments builds deg, oth and adj of random paths over n cities
// (some of one city) with their ends written both ways round.
func ggrFragments(n int, seed uint64) (deg, oth, adj []int32, edges [][2]int32) {
	rng := rand.New(rand.NewPCG(seed, 1))
	perm := rng.Perm(n)
	deg, oth, adj = make([]int32, n), make([]int32, n), make([]int32, 2*n)
	for i := 0; i < n; {
		l := 1 + rng.IntN(6)
		if i+l > n {
			l = n - i
		}
		path := perm[i : i+l]
		for j := 0; j+1 < l; j++ {
			a, b := int32(path[j]), int32(path[j+1])
			if rng.IntN(2) == 0 {
				a, b = b, a
			}
			adj[2*a+deg[a]], adj[2*b+deg[b]] = b, a
			deg[a]++
			deg[b]++
			edges = append(edges, [2]int32{a, b})
		}
		oth[path[0]], oth[path[l-1]] = int32(path[l-1]), int32(path[0])
		i += l
	}
	return deg, oth, adj, edges
}

// TestGreedyLink checks that the joined fragments are a permutation that
// keeps every fragment edge.
func TestGreedyLink(t *testing.T) {
	for _, n := range []int{1, 2, 7, 1000} {
		deg, oth, adj, edges := ggrFragments(n, uint64(n))
		near := func(a, b int32) float64 { return math.Abs(float64(a - b)) }
		checkLinked(t, n, ggrLink(deg, oth, adj, near), edges)
	}
}

// TestGreedyMatchEnds: matching the ends of random fragments of random
// points keeps every fragment edge, leaves fewer than a tenth of the
// fragments (from 1,000 cities), and the joined tour is shorter than
// joining them all in index order; on a clustered instance the rounds go
// on until a further one would join fewer than an eighth of those left.
func TestGreedyMatchEnds(t *testing.T) {
	for _, n := range []int{1, 3, 50, 3000} {
		rng := rand.New(rand.NewPCG(uint64(n), 2))
		x, y := make([]float64, n), make([]float64, n)
		for i := range n {
			x[i], y[i] = rng.Float64(), rng.Float64()
		}
		xy := func(c int32) (float64, float64) { return x[c], y[c] }
		near := func(a, b int32) float64 { return math.Hypot(x[a]-x[b], y[a]-y[b]) }
		length := func(tour []int32) float64 {
			var l float64
			for i, c := range tour {
				l += near(c, tour[(i+1)%len(tour)])
			}
			return l
		}
		deg, oth, adj, edges := ggrFragments(n, uint64(n))
		plain := ggrLink(slices.Clone(deg), slices.Clone(oth), slices.Clone(adj), near)
		before := ggrFragCount(deg, oth)
		cdeg, coth, cadj := slices.Clone(deg), slices.Clone(oth), slices.Clone(adj)
		ggrMatchEnds(deg, oth, adj, xy, false)
		after := ggrFragCount(deg, oth)
		tour := ggrLink(deg, oth, adj, near)
		checkLinked(t, n, tour, edges)
		if n >= 50 && (n >= 1000 && 10*after >= before || length(tour) >= length(plain)) {
			t.Fatalf("n %d: %d fragments left of %d; length %.2f, joined in order %.2f", n, after, before, length(tour), length(plain))
		}
		ggrMatchEnds(cdeg, coth, cadj, xy, true)
		if c := ggrFragCount(cdeg, coth); c > after {
			t.Fatalf("n %d: %d fragments left by the rounds, %d by one", n, c, after)
		}
		left, joined := ggrMatchRound(cdeg, coth, cadj, xy)
		if joined > 0 && 8*joined >= left {
			t.Fatalf("n %d: a further round joined %d of %d", n, joined, left+1)
		}
		checkLinked(t, n, ggrLink(cdeg, coth, cadj, near), edges)
	}
}

// ggrFragCount is the number of fragments deg and oth describe.
func ggrFragCount(deg, oth []int32) int {
	f := 0
	for c, d := range deg {
		if d < 2 && oth[c] >= int32(c) {
			f++
		}
	}
	return f
}

// checkLinked fails unless tour is a permutation of n cities that keeps
// every edge of edges.
func checkLinked(t *testing.T, n int, tour []int32, edges [][2]int32) {
	t.Helper()
	if len(tour) != n {
		t.Fatalf("n %d: tour of %d cities", n, len(tour))
	}
	pos, seen := make([]int, n), make([]bool, n)
	for i, c := range tour {
		if seen[c] {
			t.Fatalf("n %d: city %d twice", n, c)
		}
		seen[c], pos[c] = true, i
	}
	for _, e := range edges {
		if d := pos[e[0]] - pos[e[1]]; d != 1 && d != -1 {
			t.Fatalf("n %d: edge %v not kept (positions %d, %d)", n, e, pos[e[0]], pos[e[1]])
		}
	}
}
