package neighbor

import (
	"cmp"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/tsplab/tsplab/internal/testinst"
	"github.com/tsplab/tsplab/solver/problem"
)

// clustered returns n cities of metric m in a few dense clusters over a
// wide empty square, on integer coordinates (so that many coincide), with
// one city in ten an exact copy of an earlier one: unbalanced boxes, empty
// leaves' neighbourhoods and ties everywhere.
func clustered(n int, m problem.Metric, rng *rand.Rand) *problem.Instance {
	x, y := make([]float64, n), make([]float64, n)
	type c struct{ x, y, r float64 }
	var cs []c
	for range 6 {
		cs = append(cs, c{rng.Float64() * 1e5, rng.Float64() * 1e5, 1 + rng.Float64()*200})
	}
	for i := range n {
		if i > 0 && rng.IntN(10) == 0 {
			j := rng.IntN(i)
			x[i], y[i] = x[j], y[j]
			continue
		}
		k := cs[rng.IntN(len(cs))]
		x[i] = math.Round(k.x + rng.NormFloat64()*k.r)
		y[i] = math.Round(k.y + rng.NormFloat64()*k.r)
	}
	return problem.NewCoordInstance("clustered", m, x, y, nil)
}

// withCopies returns a uniform instance of metric m on a side×side
// integer square whose cities each have a second city on the same point
// with probability 1/4.
func withCopies(n int, side float64, m problem.Metric, rng *rand.Rand) *problem.Instance {
	x, y := make([]float64, n), make([]float64, n)
	for i := range n {
		if i > 0 && rng.IntN(4) == 0 {
			j := rng.IntN(i)
			x[i], y[i] = x[j], y[j]
			continue
		}
		x[i], y[i] = math.Floor(rng.Float64()*side), math.Floor(rng.Float64()*side)
	}
	return problem.NewCoordInstance("copies", m, x, y, nil)
}

// wantAmong is the pairs Among visits by its definition: for each city e
// of cities, the k+1 first of cities by squared distance in the plane
// from e, ties by index, e left out; sorted.
func wantAmong(in *problem.Instance, cities []int32, k int) [][2]int32 {
	in2 := map[int]bool{}
	for _, c := range cities {
		in2[int(c)] = true
	}
	var ps [][2]int32
	for _, e := range cities {
		// planeNearest leaves e out; e itself is first unless k+1
		// cities with smaller indices share its point.
		row := planeNearest(in, int(e), k+1, func(j int) bool { return in2[j] })
		if len(row) == k+1 {
			last := row[k]
			dx, dy := in.X[last]-in.X[e], in.Y[last]-in.Y[e]
			if dx != 0 || dy != 0 || last > e {
				row = row[:k] // e comes before last: it takes last's place
			}
		}
		for _, c := range row {
			ps = append(ps, [2]int32{e, c})
		}
	}
	sortPairs(ps)
	return ps
}

func sortPairs(ps [][2]int32) {
	slices.SortFunc(ps, func(a, b [2]int32) int {
		if a[0] != b[0] {
			return cmp.Compare(a[0], b[0])
		}
		return cmp.Compare(a[1], b[1])
	})
}

// bruteNearest is Nearest for the metrics searched by brute force: the k
// nearest by the exact metric, ties by index.
func bruteNearest(in *problem.Instance, k int) []int32 {
	var out []int32
	for i := range in.N {
		row := make([]int32, 0, in.N)
		for j := range in.N {
			if j != i {
				row = append(row, int32(j))
			}
		}
		sortByDist(in, i, row)
		out = append(out, row[:k]...)
	}
	return out
}

// TestKDListsMeetDefinition: on clustered instances and uniform ones full
// of coincident cities, large enough for a deep tree and the parallel
// loops, in every metric the k-d search handles, Nearest, Quadrant,
// NearestQuadrantContext and Among return exactly what their definitions
// name, computed by brute force.
func TestKDListsMeetDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	var ins []*problem.Instance
	for _, m := range []problem.Metric{problem.Euc2D, problem.Ceil2D, problem.Att} {
		ins = append(ins, clustered(2000, m, rng), withCopies(1500, 300, m, rng))
	}
	ins = append(ins, testinst.Euc(2000, 1e6, rng))
	for x, in := range ins {
		for _, k := range []int{1, 4 + x%4, 10} {
			near, quad := wantNearest(in, k), wantNearest(in, k)
			if k >= 4 {
				quad = wantQuadrant(in, k)
			}
			if got := Nearest(in, k).List; !slices.Equal(got, near) {
				t.Fatalf("%s %s k=%d: Nearest differs from its definition at %d", in.Name, in.Metric, k, firstDiff(got, near))
			}
			if got := Quadrant(in, k).List; !slices.Equal(got, quad) {
				t.Fatalf("%s %s k=%d: Quadrant differs from its definition at %d", in.Name, in.Metric, k, firstDiff(got, quad))
			}
			a, b, err := NearestQuadrantContext(context.Background(), in, k)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(a.List, near) || !slices.Equal(b.List, quad) || a.K != b.K {
				t.Fatalf("%s %s k=%d: NearestQuadrantContext differs from Nearest and Quadrant", in.Name, in.Metric, k)
			}
			cities := make([]int32, 0, in.N/3)
			for c := 1; c < in.N; c += 3 {
				cities = append(cities, int32(c))
			}
			var got [][2]int32
			Among(in, cities, k, func(e, c int32) { got = append(got, [2]int32{e, c}) })
			sortPairs(got)
			if want := wantAmong(in, cities, k); !slices.Equal(got, want) {
				t.Fatalf("%s %s k=%d: Among visits %d pairs, its definition %d", in.Name, in.Metric, k, len(got), len(want))
			}
		}
	}
}

// TestBruteForceMetrics: for the metrics without planar order (GEO,
// MAN_2D, MAX_2D, EXPLICIT) the lists are the k nearest by the exact
// metric, ties by index, and NearestQuadrantContext gives them twice.
func TestBruteForceMetrics(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 34))
	geo := clustered(700, problem.Geo, rng)
	for i := range geo.N { // degrees.minutes within range
		geo.X[i], geo.Y[i] = math.Mod(geo.X[i], 80), math.Mod(geo.Y[i], 170)
	}
	geo = problem.NewCoordInstance("geo", problem.Geo, geo.X, geo.Y, nil)
	for _, in := range []*problem.Instance{
		geo,
		clustered(700, problem.Man2D, rng),
		withCopies(700, 50, problem.Max2D, rng),
		testinst.Explicit(600, rng),
	} {
		for _, k := range []int{1, 8} {
			want := bruteNearest(in, k)
			if got := Nearest(in, k).List; !slices.Equal(got, want) {
				t.Fatalf("%s k=%d: Nearest differs from brute force at %d", in.Metric, k, firstDiff(got, want))
			}
			a, b, err := NearestQuadrantContext(context.Background(), in, k)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(a.List, want) || !slices.Equal(b.List, want) {
				t.Fatalf("%s k=%d: NearestQuadrantContext differs from brute force", in.Metric, k)
			}
			if &a.List[0] == &b.List[0] {
				t.Fatalf("%s: NearestQuadrantContext returned one list twice", in.Metric)
			}
		}
	}
}

// TestContextCancelledMidway: a context cancelled while the lists of a
// large instance are being built (in the tree's build or in the
// searches) makes every builder return its error and no lists.
func TestContextCancelledMidway(t *testing.T) {
	in := testinst.Euc(300_000, 1e6, rand.New(rand.NewPCG(35, 36)))
	for _, after := range []time.Duration{time.Millisecond, 30 * time.Millisecond} {
		builders := map[string]func(context.Context) (bool, error){
			"NearestContext": func(ctx context.Context) (bool, error) {
				nb, err := NearestContext(ctx, in, 8)
				return nb != nil, err
			},
			"QuadrantContext": func(ctx context.Context) (bool, error) {
				nb, err := QuadrantContext(ctx, in, 8)
				return nb != nil, err
			},
			"NearestQuadrantContext": func(ctx context.Context) (bool, error) {
				a, b, err := NearestQuadrantContext(ctx, in, 8)
				return a != nil || b != nil, err
			},
		}
		for name, build := range builders {
			ctx, cancel := context.WithCancel(context.Background())
			stop := time.AfterFunc(after, cancel)
			got, err := build(ctx)
			stop.Stop()
			cancel()
			if !errors.Is(err, context.Canceled) || got {
				t.Errorf("%s cancelled after %v: lists %v, error %v", name, after, got, err)
			}
		}
	}
}

// TestKDTreeShape: every node's box is the tight box of its points and
// minID their smallest index, children split their parent's points, and
// the leaves cover the points in order.
func TestKDTreeShape(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 38))
	for _, in := range []*problem.Instance{clustered(5000, problem.Euc2D, rng), withCopies(1, 10, problem.Euc2D, rng), withCopies(9, 1, problem.Euc2D, rng)} {
		tr := newKDTree(in)
		seen := make([]bool, in.N)
		for _, p := range tr.pts {
			if seen[p.id] || p.x != in.X[p.id] || p.y != in.Y[p.id] {
				t.Fatalf("%s: point %v repeated or moved", in.Name, p)
			}
			seen[p.id] = true
		}
		next := int32(0)
		for _, l := range tr.leaves {
			nd := tr.nodes[l]
			if nd.right != 0 || nd.lo != next || nd.hi-nd.lo > kdLeaf || nd.hi <= nd.lo {
				t.Fatalf("%s: leaf %d covers %d..%d after %d", in.Name, l, nd.lo, nd.hi, next)
			}
			next = nd.hi
		}
		if int(next) != in.N {
			t.Fatalf("%s: leaves cover %d of %d points", in.Name, next, in.N)
		}
		for i, nd := range tr.nodes {
			ps := tr.pts[nd.lo:nd.hi]
			minID := slices.MinFunc(ps, func(a, b kdPoint) int { return cmp.Compare(a.id, b.id) }).id
			for _, p := range ps {
				if p.x < nd.minX || p.x > nd.maxX || p.y < nd.minY || p.y > nd.maxY {
					t.Fatalf("%s: node %d's box misses %v", in.Name, i, p)
				}
			}
			if nd.minID != minID {
				t.Fatalf("%s: node %d minID %d, want %d", in.Name, i, nd.minID, minID)
			}
			if nd.right == 0 {
				continue
			}
			l, r := tr.nodes[i+1], tr.nodes[nd.right]
			if l.lo != nd.lo || l.hi != r.lo || r.hi != nd.hi || l.parent != int32(i) || r.parent != int32(i) {
				t.Fatalf("%s: node %d's children do not split it", in.Name, i)
			}
		}
	}
}
