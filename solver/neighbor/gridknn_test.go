package neighbor

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tsplab/tsplab/internal/testinst"
	"github.com/tsplab/tsplab/solver/problem"
)

// TestGridNearestMeetsDefinition: on uniform instances (the grid's own
// case), ones full of coincident cities, thin strips and clustered ones
// (which fall back to the k-d tree), in every metric the plane search
// handles, GridNearestContext returns exactly the brute-force definition
// of Nearest.
func TestGridNearestMeetsDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	var ins []*problem.Instance
	for _, n := range []int{2, 3, 9, 40, 700, 3000} {
		ins = append(ins, testinst.Euc(n, 1e6, rng))
	}
	for _, m := range []problem.Metric{problem.Euc2D, problem.Ceil2D, problem.Att} {
		ins = append(ins, withCopies(1500, 300, m, rng), clustered(2000, m, rng))
	}
	strip := testinst.Euc(2000, 1e6, rng)
	for i := range strip.Y {
		strip.Y[i] = float64(i % 3)
	}
	ins = append(ins, strip)
	for x, in := range ins {
		for _, k := range []int{1, 5 + x%4, 10} {
			nb, err := GridNearestContext(context.Background(), in, k)
			if err != nil {
				t.Fatal(err)
			}
			want := wantNearest(in, min(k, in.N-1))
			if nb.K != min(k, in.N-1) || !slices.Equal(nb.List, want) {
				t.Fatalf("%s %s n=%d k=%d: grid lists differ from the definition at %d", in.Name, in.Metric, in.N, k, firstDiff(nb.List, want))
			}
		}
	}
}

// TestGridEven: a uniform instance keeps the grid, one whose cities
// crowd into a few cells does not.
func TestGridEven(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 44))
	if g := newCityGrid(testinst.Euc(5000, 1e6, rng)); !g.even() {
		t.Fatal("uniform instance: grid not even")
	}
	in := testinst.Euc(5000, 1e6, rng)
	for i := 100; i < in.N; i++ {
		in.X[i], in.Y[i] = 5e5+float64(i%7), 5e5+float64(i%5)
	}
	if g := newCityGrid(in); g.even() {
		t.Fatal("cities piled on one spot: grid even")
	}
}

// TestGridNearestCancelled: a cancelled context ends the search with its
// error and no lists.
func TestGridNearestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	in := testinst.Euc(20000, 1e6, rand.New(rand.NewPCG(45, 46)))
	nb, err := GridNearestContext(ctx, in, 6)
	if !errors.Is(err, context.Canceled) || nb != nil {
		t.Fatalf("cancelled: lists %v, error %v", nb != nil, err)
	}
}
