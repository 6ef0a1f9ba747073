package bound

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/neighbor"
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
			g, err := buildGraph(context.Background(), in, 6, make([]int32, in.N))
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
		g, err := buildGraph(context.Background(), in, 8, t0.parent)
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

// Alpha-nearness: tree edges have α = 0, so every city's tree neighbours
// are among its 5 alpha candidates whenever it has at most 5 of them,
// each row is ranked by α (ties by weight), and the path maximum agrees
// with a walk up the tree.
func TestAlphaCandidates(t *testing.T) {
	in := randomInstance(1500, solver.Euc2D, 4)
	res, err := Compute(context.Background(), in, Options{MaxPeriod: 50})
	if err != nil {
		t.Fatal(err)
	}
	const k = 5
	nb, err := res.AlphaCandidates(k)
	if err != nil {
		t.Fatal(err)
	}
	if nb.K != k || nb.N() != in.N || !nb.Ranked {
		t.Fatalf("lists of %d×%d, ranked %v", nb.N(), nb.K, nb.Ranked)
	}
	par := res.tree.parent
	w := func(i, j int32) int64 { return Precision*in.Dist(int(i), int(j)) + res.Pi[i] + res.Pi[j] }
	pm := newPathMax(par, w)
	unlike := 0 // rows whose rank is not by distance
	adj := make([][]int32, in.N)
	for v, u := range par {
		if u >= 0 {
			adj[v] = append(adj[v], u)
			adj[u] = append(adj[u], int32(v))
		}
	}
	missing := 0
	for i := range in.N {
		row := nb.Of(i)
		byDist := true
		for x := 1; x < k; x++ {
			a, b := int32(i), row[x-1]
			alpha0, w0 := w(a, b)-pm.max(a, b), w(a, b)
			alpha1, w1 := w(a, row[x])-pm.max(a, row[x]), w(a, row[x])
			if alpha0 > alpha1 || alpha0 == alpha1 && w0 > w1 {
				t.Fatalf("city %d: row %v not ranked by alpha (%d, %d before %d, %d)", i, row, alpha0, w0, alpha1, w1)
			}
			byDist = byDist && in.Dist(i, int(b)) <= in.Dist(i, int(row[x]))
		}
		if !byDist {
			unlike++
		}
		if len(adj[i]) > k {
			continue
		}
		for _, j := range adj[i] {
			if !nb.Contains(i, int(j)) {
				missing++ // only when j is not among the quadrant pool
			}
		}
	}
	if missing > in.N/100 {
		t.Errorf("%d tree neighbours missing from the alpha lists", missing)
	}
	if unlike == 0 {
		t.Error("every row is nearest first: the rank by alpha is not exercised")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		a, b := int32(rng.IntN(in.N)), int32(rng.IntN(in.N))
		if a == b {
			continue
		}
		// naive: mark a's ancestors, climb from b
		anc := map[int32]int64{}
		m := int64(-1 << 62)
		for v := a; ; v = par[v] {
			anc[v] = m
			if par[v] < 0 {
				break
			}
			m = max(m, w(v, par[v]))
		}
		m2 := int64(-1 << 62)
		v := b
		for {
			if am, ok := anc[v]; ok {
				m2 = max(m2, am)
				break
			}
			m2 = max(m2, w(v, par[v]))
			v = par[v]
		}
		if got := pm.max(a, b); got != m2 {
			t.Fatalf("path max %d–%d: %d, want %d", a, b, got, m2)
		}
	}
}

// countdown is a context that ends after its Err has been asked left times.
type countdown struct {
	context.Context
	left atomic.Int32
}

func (c *countdown) Err() error {
	if c.left.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

// TestAlphaCandidatesContext: the lists give up with the context's error when it ends before them, while their pool of
// quadrant neighbours is built, or once it is built, and with a context that does not end they are AlphaCandidates'.
func TestAlphaCandidatesContext(t *testing.T) {
	in := randomInstance(3000, solver.Euc2D, 6)
	res, err := Compute(context.Background(), in, Options{MaxPeriod: 50})
	if err != nil {
		t.Fatal(err)
	}
	want, err := res.AlphaCandidates(5)
	if err != nil {
		t.Fatal(err)
	}
	got, err := res.AlphaCandidatesContext(context.Background(), 5)
	if err != nil || !slices.Equal(got.List, want.List) {
		t.Fatalf("with a context that does not end: %v, lists equal %v", err, err == nil && slices.Equal(got.List, want.List))
	}
	// the checks of the pool's own build, after which only the alpha loop checks
	counted := &countdown{Context: context.Background()}
	counted.left.Store(1 << 30)
	if _, err := neighbor.QuadrantContext(counted, in, 16); err != nil {
		t.Fatal(err)
	}
	pool := 1<<30 - counted.left.Load()
	for _, checks := range []int32{0, pool / 2, pool} {
		ctx := &countdown{Context: context.Background()}
		ctx.left.Store(checks)
		if l, err := res.AlphaCandidatesContext(ctx, 5); !errors.Is(err, context.Canceled) || l != nil {
			t.Errorf("a context ending after %d checks: lists %v, error %v", checks, l != nil, err)
		}
	}
}
