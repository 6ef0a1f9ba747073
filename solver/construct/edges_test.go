package construct

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/tsplab/tsplab/internal/testinst"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/problem"
)

// TestEdgesParallel: candidateEdges gives the serial scan's edges for
// any number of cores, and sortEdges the comparison sort's order, on
// lists full of equal lengths.
func TestEdgesParallel(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	rng := rand.New(rand.NewPCG(41, 42))
	in := testinst.Grid(20_000, 150, problem.Euc2D, rng)
	nb := neighbor.Nearest(in, 8)
	want := candidateEdgesSerial(in, nb)
	sorted := slices.Clone(want)
	slices.SortFunc(sorted, compareEdges)
	// Random edges with few distinct lengths and repeated pairs.
	random := make([]candEdge, 200_003)
	for x := range random {
		random[x] = candEdge{int64(rng.IntN(50)), int32(rng.IntN(300)), int32(rng.IntN(300))}
	}
	randomSorted := slices.Clone(random)
	slices.SortFunc(randomSorted, compareEdges)
	for _, procs := range []int{1, 2, 3, 5, 8} {
		runtime.GOMAXPROCS(procs)
		got := candidateEdges(in, nb)
		if !slices.Equal(got, want) {
			t.Fatalf("GOMAXPROCS=%d: candidateEdges differs from the serial scan", procs)
		}
		sortEdges(got)
		if !slices.Equal(got, sorted) {
			t.Fatalf("GOMAXPROCS=%d: sortEdges differs from a comparison sort", procs)
		}
		r := slices.Clone(random)
		sortEdges(r)
		if !slices.Equal(r, randomSorted) {
			t.Fatalf("GOMAXPROCS=%d: sortEdges differs from a comparison sort on random edges", procs)
		}
	}
}

// BenchmarkSortEdges8M: the greedy construction's sort on a million
// cities with 8 candidates each.
func BenchmarkSortEdges8M(b *testing.B) {
	rng := rand.New(rand.NewPCG(43, 44))
	edges := make([]candEdge, 8_000_000)
	for x := range edges {
		edges[x] = candEdge{int64(rng.IntN(5000)), int32(rng.IntN(1_000_000)), int32(rng.IntN(1_000_000))}
	}
	work := make([]candEdge, len(edges))
	for b.Loop() {
		copy(work, edges)
		sortEdges(work)
	}
}

// TestSortEdgesWide: edges that fill the 64 bits of a packed key
// exactly are radix-sorted right, and edges too wide to pack (long
// lengths, large indices) or with negative lengths are sorted by
// comparison, also right.
func TestSortEdgesWide(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 46))
	for _, c := range []struct {
		maxD, off int64
		maxV      int
	}{{1 << 24, 0, 1 << 20}, {1 << 40, 0, 1 << 21}, {1 << 10, -5, 100}} {
		edges := make([]candEdge, 5000)
		for x := range edges {
			edges[x] = candEdge{rng.Int64N(c.maxD) + c.off, int32(rng.IntN(c.maxV)), int32(rng.IntN(c.maxV))}
		}
		edges[0] = candEdge{c.maxD - 1, int32(c.maxV - 1), int32(c.maxV - 1)} // every bit used
		want := slices.Clone(edges)
		slices.SortFunc(want, compareEdges)
		if packed := sortEdgesPacked(slices.Clone(edges)); packed != (c.maxD == 1<<24) {
			t.Fatalf("lengths below %d, indices below %d: packed %v", c.maxD, c.maxV, packed)
		}
		sortEdges(edges)
		if !slices.Equal(edges, want) {
			t.Fatalf("lengths below %d, indices below %d: sortEdges differs from a comparison sort", c.maxD, c.maxV)
		}
	}
}
