package bound

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tsplab/tsplab/solver"
)

// TestSparseAlpha: the sparse ascent's lists hold k other cities a row,
// nearest first, and every edge of the spanning tree they were read from
// (alpha 0) in one of its ends' lists; its ascent raises the penalty-free
// tree's weight; a cancelled context ends it with its error.
func TestSparseAlpha(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	n, k := 2000, 8
	x, y := make([]float64, n), make([]float64, n)
	for i := range n {
		x[i], y[i] = rng.Float64()*1e6, rng.Float64()*1e6
	}
	in := solver.NewCoordInstance("u2000", solver.Euc2D, x, y, nil)
	tour := make([]int32, n)
	for i, c := range rng.Perm(n) {
		tour[i] = int32(c)
	}
	l, res, err := SparseAlpha(context.Background(), in, tour, k, Options{MaxPeriod: 50})
	if err != nil {
		t.Fatal(err)
	}
	if l.K != k || len(l.List) != n*k || res.Iterations < 2 || res.tree == nil {
		t.Fatalf("%d lists of %d after %d iterations", len(l.List)/max(l.K, 1), l.K, res.Iterations)
	}
	// the ascent's estimate lies above the penalty-free tree of its graph
	g, err := buildGraph(context.Background(), in, DefaultNeighbors, res.tree.parent)
	if err != nil {
		t.Fatal(err)
	}
	if w0 := newSparseTree(g).run(make([]int64, n)); res.Estimate*Precision <= float64(w0) {
		t.Errorf("estimate %.2f not above the penalty-free 1-tree's %.2f", res.Estimate, float64(w0)/Precision)
	}
	for i := range n {
		row := l.Of(i)
		for j, c := range row {
			if int(c) == i || slices.Contains(row[:j], c) {
				t.Fatalf("city %d: bad row %v", i, row)
			}
			if j > 0 && in.Dist(i, int(row[j-1])) > in.Dist(i, int(c)) {
				t.Fatalf("city %d: row %v not nearest first", i, row)
			}
		}
		if p := res.tree.parent[i]; p >= 0 && !slices.Contains(row, p) && !slices.Contains(l.Of(int(p)), int32(i)) {
			t.Errorf("tree edge %d–%d in neither end's list", i, p)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := SparseAlpha(ctx, in, tour, k, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
