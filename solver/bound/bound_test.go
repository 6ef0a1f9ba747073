package bound

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/tsplab/tsplab/solver"
)

func randomInstance(n int, m solver.Metric, seed uint64) *solver.Instance {
	rng := rand.New(rand.NewPCG(seed, 7))
	x, y := make([]float64, n), make([]float64, n)
	for i := range n {
		x[i] = float64(rng.IntN(1000))
		y[i] = float64(rng.IntN(1000))
		if i%7 == 3 && i > 0 { // duplicates and shared coordinates
			x[i] = x[i-1]
		}
	}
	return solver.NewCoordInstance("rand", m, x, y, nil)
}

// The k-d tree Borůvka must find the same minimum 1-tree weight as Prim
// on the complete graph, with penalties of either sign.
func TestEvaluateMatchesDensePrim(t *testing.T) {
	for _, m := range []solver.Metric{solver.Euc2D, solver.Ceil2D, solver.Att} {
		for seed := range uint64(6) {
			in := randomInstance(300+int(seed)*97, m, seed)
			rng := rand.New(rand.NewPCG(seed, 1))
			pi := make([]int64, in.N)
			if seed > 0 {
				for i := range pi {
					pi[i] = rng.Int64N(20000*int64(seed)) - 10000*int64(seed)
				}
			}
			kd := newKDTree(in)
			g, err := buildGraph(in, 6, make([]int32, in.N))
			if err != nil {
				t.Fatal(err)
			}
			fast, err := evaluate(context.Background(), in, kd, g, pi)
			if err != nil {
				t.Fatal(err)
			}
			slow, err := evaluate(context.Background(), in, nil, nil, pi)
			if err != nil {
				t.Fatal(err)
			}
			if fast.weight != slow.weight {
				t.Errorf("%s seed %d: k-d Borůvka 1-tree %d, dense Prim %d", m, seed, fast.weight, slow.weight)
			}
		}
	}
}

// Borůvka on all cores and Prim must agree on the candidate graph's
// minimum 1-tree.
func TestSparseBoruvkaMatchesPrim(t *testing.T) {
	for seed := range uint64(8) {
		in := randomInstance(2000+int(seed)*301, solver.Euc2D, seed)
		kd := newKDTree(in)
		zero := make([]int64, in.N)
		t0, err := evaluate(context.Background(), in, kd, nil, zero)
		if err != nil {
			t.Fatal(err)
		}
		g, err := buildGraph(in, 8, t0.parent)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(seed, 3))
		pi := make([]int64, in.N)
		for i := range pi {
			if seed > 0 {
				pi[i] = rng.Int64N(4000) - 2000
			}
		}
		prim := newSparseTree(g).run(pi)
		bor, ok := newSparseBoruvka(g).run(pi)
		if !ok {
			t.Fatal("weights did not fit the packed keys")
		}
		if prim != bor {
			t.Errorf("seed %d: Prim %d, Borůvka %d", seed, prim, bor)
		}
	}
}
