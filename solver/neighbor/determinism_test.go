package neighbor

import (
	"cmp"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/tsplab/tsplab/internal/testinst"
	"github.com/tsplab/tsplab/internal/tsplibdir"
	"github.com/tsplab/tsplab/solver/problem"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// planeNearest returns the k cities j != i that come first by squared
// distance in the plane from i, ties by index, in that order: the
// definition Nearest's k-d search must meet whatever the tree's shape.
// keep, when not nil, restricts j.
func planeNearest(in *problem.Instance, i, k int, keep func(j int) bool) []int32 {
	type e struct {
		d  float64
		id int32
	}
	if k <= 0 {
		return nil
	}
	best := make([]e, 0, k+1)
	for j := range in.N {
		if j == i || (keep != nil && !keep(j)) {
			continue
		}
		dx, dy := in.X[j]-in.X[i], in.Y[j]-in.Y[i]
		c := e{dx*dx + dy*dy, int32(j)}
		if len(best) == k && (c.d > best[k-1].d || c.d == best[k-1].d) {
			continue // j comes after every kept city (j grows)
		}
		at, _ := slices.BinarySearchFunc(best, c, func(a, b e) int {
			if a.d != b.d {
				return cmp.Compare(a.d, b.d)
			}
			return cmp.Compare(a.id, b.id)
		})
		best = slices.Insert(best, at, c)
		if len(best) > k {
			best = best[:k]
		}
	}
	ids := make([]int32, len(best))
	for x, b := range best {
		ids[x] = b.id
	}
	return ids
}

// wantNearest is Nearest by its definition, by brute force.
func wantNearest(in *problem.Instance, k int) []int32 {
	var out []int32
	for i := range in.N {
		row := planeNearest(in, i, k, nil)
		sortByDist(in, i, row)
		out = append(out, row...)
	}
	return out
}

// wantQuadrant is Quadrant by its definition, by brute force.
func wantQuadrant(in *problem.Instance, k int) []int32 {
	var out []int32
	for i := range in.N {
		var chosen []int32
		for quad := range 4 {
			chosen = append(chosen, planeNearest(in, i, k/4, func(j int) bool {
				return quadrant(in.X[j]-in.X[i], in.Y[j]-in.Y[i]) == quad
			})...)
		}
		near := planeNearest(in, i, k, nil)
		sortByDist(in, i, near)
		for _, c := range near {
			if len(chosen) < k && !slices.Contains(chosen, c) {
				chosen = append(chosen, c)
			}
		}
		sortByDist(in, i, chosen)
		out = append(out, chosen...)
	}
	return out
}

// tiedInstances returns instances where distance ties decide lists:
// cities on a small integer grid (many coincident), a full unit lattice
// in a shuffled order (every city has four neighbours at distance 1 and
// four at √2), and the same lattice as CEIL_2D and ATT.
func tiedInstances(rng *rand.Rand) []*problem.Instance {
	lattice := func(side int, m problem.Metric) *problem.Instance {
		n := side * side
		perm := rng.Perm(n)
		x, y := make([]float64, n), make([]float64, n)
		for i, p := range perm {
			x[p], y[p] = float64(i%side), float64(i/side)
		}
		return problem.NewCoordInstance("lattice", m, x, y, nil)
	}
	return []*problem.Instance{
		testinst.Grid(600, 12, problem.Euc2D, rng),
		testinst.Grid(400, 40, problem.Euc2D, rng),
		lattice(25, problem.Euc2D),
		lattice(20, problem.Ceil2D),
		lattice(20, problem.Att),
	}
}

// TestListsMeetDefinition: on instances full of ties, the k-d searches
// return exactly the lists their definition names (nearest in the plane,
// ties by index), which no tree shape or visiting order can change.
func TestListsMeetDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, in := range tiedInstances(rng) {
		for _, k := range []int{1, 5, 8, 10, 16} {
			if got, want := Nearest(in, k).List, wantNearest(in, k); !slices.Equal(got, want) {
				t.Fatalf("%s %s n=%d k=%d: Nearest differs from its definition at %d", in.Name, in.Metric, in.N, k, firstDiff(got, want))
			}
			if k < 4 {
				continue // Quadrant is Nearest then
			}
			if got, want := Quadrant(in, k).List, wantQuadrant(in, k); !slices.Equal(got, want) {
				t.Fatalf("%s %s n=%d k=%d: Quadrant differs from its definition at %d", in.Name, in.Metric, in.N, k, firstDiff(got, want))
			}
		}
	}
}

func firstDiff(a, b []int32) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// buildAll returns every list builder's output for in, flattened.
func buildAll(in *problem.Instance, k int) [][]int32 {
	var among []int32
	cities := make([]int32, 0, in.N/2)
	for c := 0; c < in.N; c += 2 {
		cities = append(cities, int32(c))
	}
	Among(in, cities, k, func(e, c int32) { among = append(among, e, c) })
	return [][]int32{Nearest(in, k).List, Quadrant(in, k).List, among}
}

// checkRepeatable builds in's lists at several GOMAXPROCS settings (so
// with different numbers of goroutines and chunkings), twice each, and
// fails on any difference.
func checkRepeatable(t *testing.T, in *problem.Instance, k int) {
	t.Helper()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var first [][]int32
	for _, procs := range []int{1, 2, 3, 8, 2} {
		runtime.GOMAXPROCS(procs)
		got := buildAll(in, k)
		if first == nil {
			first = got
			continue
		}
		for x, what := range []string{"Nearest", "Quadrant", "Among"} {
			if !slices.Equal(got[x], first[x]) {
				t.Fatalf("%s: %s with GOMAXPROCS=%d differs from the first build at %d", in.Name, what, procs, firstDiff(got[x], first[x]))
			}
		}
	}
}

// TestListsRepeatable: the lists are the same on every build and for
// any number of goroutines, on a 10,000-city lattice (above the parallel
// loops' serial threshold, every city with tied neighbours) and pr2392.
func TestListsRepeatable(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	side := 100
	perm := rng.Perm(side * side)
	x, y := make([]float64, side*side), make([]float64, side*side)
	for i, p := range perm {
		x[p], y[p] = float64(i%side), float64(i/side)
	}
	checkRepeatable(t, problem.NewCoordInstance("lattice", problem.Euc2D, x, y, nil), 10)
	checkRepeatable(t, testinst.Grid(3000, 30, problem.Euc2D, rng), 8)
	checkRepeatable(t, testinst.Explicit(700, rng), 8)
}

// TestListsRepeatablePr2392: pr2392's cities lie on a coarse grid with
// many equal distances; its lists once changed from build to build.
func TestListsRepeatablePr2392(t *testing.T) {
	in, err := tsplib.Read(tsplibdir.Instance(t, "pr2392"))
	if err != nil {
		t.Fatal(err)
	}
	checkRepeatable(t, in, 10)
	if got, want := Nearest(in, 10).List, wantNearest(in, 10); !slices.Equal(got, want) {
		t.Fatalf("pr2392: Nearest differs from its definition at %d", firstDiff(got, want))
	}
	if got, want := Quadrant(in, 10).List, wantQuadrant(in, 10); !slices.Equal(got, want) {
		t.Fatalf("pr2392: Quadrant differs from its definition at %d", firstDiff(got, want))
	}
}

// TestAmongIgnoresOrder: Among visits the same pairs whatever the order
// of the cities it is given (the tree of a subset is the same however
// the subset is listed).
func TestAmongIgnoresOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	in := testinst.Grid(800, 20, problem.Euc2D, rng)
	cities := make([]int32, 0, 500)
	for c := range 500 {
		cities = append(cities, int32(c))
	}
	pairs := func(cs []int32) [][2]int32 {
		var ps [][2]int32
		Among(in, cs, 6, func(e, c int32) { ps = append(ps, [2]int32{e, c}) })
		slices.SortFunc(ps, func(a, b [2]int32) int {
			if a[0] != b[0] {
				return cmp.Compare(a[0], b[0])
			}
			return cmp.Compare(a[1], b[1])
		})
		return ps
	}
	want := pairs(cities)
	rng.Shuffle(len(cities), func(i, j int) { cities[i], cities[j] = cities[j], cities[i] })
	if got := pairs(cities); !slices.Equal(got, want) {
		t.Fatal("Among visits other pairs when the cities are listed in another order")
	}
}
