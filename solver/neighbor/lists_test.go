package neighbor

import (
	"cmp"
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tsplab/tsplab/internal/testinst"
	"github.com/tsplab/tsplab/solver/problem"
)

// bruteNeighbors returns, for city i, the distances of the k nearest.
func bruteDists(in *problem.Instance, i, k int) []int64 {
	var ds []int64
	for j := range in.N {
		if j != i {
			ds = append(ds, in.Dist(i, j))
		}
	}
	slices.Sort(ds)
	return ds[:k]
}

func checkLists(t *testing.T, in *problem.Instance, nb *Lists, k int, exact bool) {
	t.Helper()
	wantK := min(k, in.N-1)
	if nb.K != wantK || len(nb.List) != in.N*wantK {
		t.Fatalf("%s n=%d k=%d: K=%d len=%d, want K=%d", in.Name, in.N, k, nb.K, len(nb.List), wantK)
	}
	for i := range in.N {
		row := nb.Of(i)
		seen := map[int32]bool{}
		var ds []int64
		for _, c := range row {
			if int(c) == i || c < 0 || int(c) >= in.N || seen[c] {
				t.Fatalf("%s: city %d has bad candidate %d in %v", in.Name, i, c, row)
			}
			seen[c] = true
			ds = append(ds, in.Dist(i, int(c)))
		}
		if !slices.IsSorted(ds) {
			t.Fatalf("%s: candidates of %d not ascending: %v", in.Name, i, ds)
		}
		if exact {
			if want := bruteDists(in, i, wantK); !slices.Equal(ds, want) {
				t.Fatalf("%s n=%d: city %d has distances %v, brute force %v", in.Name, in.N, i, ds, want)
			}
		}
	}
}

func TestNearestNeighborsBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, n := range []int{1, 2, 3, 4, 5, 17, 100, 250} {
		ins := testinst.Mix(n, rng)
		ins = append(ins,
			testinst.Grid(n, 5, problem.Ceil2D, rng),
			testinst.Grid(n, 30, problem.Att, rng),
			testinst.Grid(n, 10, problem.Man2D, rng))
		for _, in := range ins {
			for _, k := range []int{0, 1, 3, 8, 500} {
				checkLists(t, in, Nearest(in, k), k, true)
			}
		}
	}
}

func TestQuadrant(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	// Two far clusters: plain neighbours stay inside a cluster, quadrant
	// neighbours must reach across for the cluster's border cities.
	n := 200
	x, y := make([]float64, n), make([]float64, n)
	for i := range n {
		x[i], y[i] = rng.Float64()*10, rng.Float64()*10
		if i%2 == 1 {
			x[i] += 1000
		}
	}
	in := problem.NewCoordInstance("clusters", problem.Euc2D, x, y, nil)
	q := Quadrant(in, 8)
	checkLists(t, in, q, 8, false)
	across := 0
	for i := range n {
		for _, c := range q.Of(i) {
			if (int(c)%2 == 1) != (i%2 == 1) {
				across++
			}
		}
	}
	if across == 0 {
		t.Fatal("quadrant neighbours never cross between clusters")
	}
	plain := Nearest(in, 8)
	for i := range n {
		for _, c := range plain.Of(i) {
			if (int(c)%2 == 1) != (i%2 == 1) {
				t.Fatalf("plain neighbour %d of %d crosses clusters", c, i)
			}
		}
	}
	checkQuadrants(t, in, q, 2)
	// Collinear cities: three quadrants are empty for every city.
	line := make([]float64, 300)
	zero := make([]float64, 300)
	for i := range line {
		line[i] = float64(rng.IntN(1000))
	}
	for _, in := range []*problem.Instance{
		problem.NewCoordInstance("hline", problem.Euc2D, line, zero, nil),
		problem.NewCoordInstance("vline", problem.Euc2D, zero, line, nil),
		testinst.Grid(300, 6, problem.Euc2D, rng),
		testinst.Euc(300, 100, rng),
	} {
		q := Quadrant(in, 12)
		checkLists(t, in, q, 12, false)
		checkQuadrants(t, in, q, 3)
	}
	for _, n := range []int{1, 2, 3, 5, 50} {
		for _, in := range testinst.Mix(n, rng) {
			checkLists(t, in, Quadrant(in, 8), 8, false)
		}
	}
}

// checkQuadrants verifies that every city's list holds, for each
// quadrant, the distances of the per nearest cities of that quadrant
// (fewer when the quadrant has fewer).
func checkQuadrants(t *testing.T, in *problem.Instance, q *Lists, per int) {
	t.Helper()
	x, y := in.X, in.Y
	for i := range in.N {
		for quad := range 4 {
			var ds []int64
			for j := range in.N {
				if j != i && quadrant(x[j]-x[i], y[j]-y[i]) == quad {
					ds = append(ds, in.Dist(i, j))
				}
			}
			slices.Sort(ds)
			var got []int64
			for _, c := range q.Of(i) {
				if quadrant(x[c]-x[i], y[c]-y[i]) == quad {
					got = append(got, in.Dist(i, int(c)))
				}
			}
			need := ds[:min(per, len(ds))]
			if len(got) < len(need) || !slices.Equal(got[:len(need)], need) {
				t.Fatalf("%s city %d quadrant %d: got %v, nearest %v", in.Name, i, quad, got, need)
			}
		}
	}
}

func TestDegenerateLists(t *testing.T) {
	// All cities on one point, and all on one vertical line.
	for _, n := range []int{1, 2, 3, 4, 50, 3000} {
		point, column := testinst.Degenerate(n)
		for _, in := range []*problem.Instance{point, column} {
			checkLists(t, in, Nearest(in, 10), 10, n <= 200)
			checkLists(t, in, Quadrant(in, 8), 8, false)
		}
	}
}

func TestContextCancelled(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, in := range []*problem.Instance{testinst.Euc(5000, 1000, rng), testinst.Explicit(300, rng)} {
		if nb, err := NearestContext(ctx, in, 8); err == nil || nb != nil {
			t.Errorf("%s: NearestContext on a cancelled context: %v, %v", in.Name, nb, err)
		}
		if nb, err := QuadrantContext(ctx, in, 8); err == nil || nb != nil {
			t.Errorf("%s: QuadrantContext on a cancelled context: %v, %v", in.Name, nb, err)
		}
		nb, err := NearestContext(context.Background(), in, 8)
		if err != nil {
			t.Fatal(err)
		}
		checkLists(t, in, nb, 8, true)
	}
}

// TestClosed checks Closed's rows against every city's per nearest in
// each closed quadrant (ties by index, as the lists break them), on
// instances where many cities share an axis with others.
func TestClosed(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	line := make([]float64, 200)
	zero := make([]float64, 200)
	for i := range line {
		line[i] = float64(rng.IntN(500))
	}
	for _, in := range []*problem.Instance{
		problem.NewCoordInstance("hline", problem.Euc2D, line, zero, nil),
		testinst.Grid(400, 6, problem.Euc2D, rng),
		testinst.Grid(400, 30, problem.Ceil2D, rng),
		testinst.Euc(400, 100, rng),
	} {
		for _, per := range []int{1, 2, 3} {
			nb, err := Closed(context.Background(), in, per)
			if err != nil {
				t.Fatal(err)
			}
			if nb.K != 4*per || len(nb.List) != in.N*nb.K {
				t.Fatalf("%s per %d: K %d, %d entries", in.Name, per, nb.K, len(nb.List))
			}
			for i := range in.N {
				want := bruteClosed(in, i, per)
				row := nb.Of(i)
				got := slices.Compact(slices.Clone(row))
				if len(got) != len(want) || row[len(row)-1] != got[len(got)-1] {
					t.Fatalf("%s per %d city %d: row %v, want the cities %v", in.Name, per, i, row, want)
				}
				for j, c := range got {
					if !slices.Contains(want, c) || j > 0 && in.Dist(i, int(got[j-1])) > in.Dist(i, int(c)) {
						t.Fatalf("%s per %d city %d: row %v, want the cities %v nearest first", in.Name, per, i, row, want)
					}
				}
			}
		}
	}
}

// bruteClosed is city i's per nearest cities in each closed quadrant,
// nearer first by squared distance and then index, each city once.
func bruteClosed(in *problem.Instance, i, per int) []int32 {
	var out []int32
	for q := range 4 {
		var cs []int32
		for j := range int32(in.N) {
			dx, dy := in.X[j]-in.X[i], in.Y[j]-in.Y[i]
			if int(j) != i && (q&1 == 0 && dx >= 0 || q&1 == 1 && dx <= 0) && (q&2 == 0 && dy >= 0 || q&2 == 2 && dy <= 0) {
				cs = append(cs, j)
			}
		}
		d2 := func(j int32) float64 {
			dx, dy := in.X[j]-in.X[i], in.Y[j]-in.Y[i]
			return dx*dx + dy*dy
		}
		slices.SortFunc(cs, func(a, b int32) int { return cmp.Or(cmp.Compare(d2(a), d2(b)), cmp.Compare(a, b)) })
		for _, c := range cs[:min(per, len(cs))] {
			if !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	return out
}
