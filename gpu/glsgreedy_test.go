package gpu

import (
	"math"
	"math/rand/v2"
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
		tour := ggrLink(deg, oth, adj, near)
		if len(tour) != n {
			t.Fatalf("n %d: tour of %d cities", n, len(tour))
		}
		pos := make([]int, n)
		seen := make([]bool, n)
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
}
