package cpu

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/tour"
)

// optimisedTour returns a local optimum of the auto move set on n uniform
// cities, and the instance's distances.
func optimisedTour(t *testing.T, n int, seed uint64) ([]int32, *tour.Dist, *solver.Instance) {
	t.Helper()
	in := uniformInstance(n, seed)
	nb := neighbor.Nearest(in, 8)
	r := newRNG(seed, 0)
	d := tour.NewDist(in)
	s := newLS(d, nb.List, nb.K, r.randomTour(n))
	s.orOpt, s.threeOpt, s.r = true, true, r
	s.pushAll()
	s.optimize(func() bool { return false })
	return slices.Clone(s.tour), d, in
}

// doubleBridge returns t with the segments of la and lb cities after
// position i swapped (A B C D → A C B D).
func doubleBridge(t []int32, i, la, lb int) []int32 {
	n := len(t)
	out := slices.Clone(t)
	w := make([]int32, 0, la+lb)
	for k := 0; k < la+lb; k++ {
		w = append(w, t[(i+1+k)%n])
	}
	w = append(w[la:], w[:la]...)
	for k, c := range w {
		out[(i+1+k)%n] = c
	}
	return out
}

// edgeSet returns the undirected edges of t.
func edgeSet(t []int32) map[[2]int32]bool {
	m := make(map[[2]int32]bool, len(t))
	for i, c := range t {
		e := [2]int32{c, t[(i+1)%len(t)]}
		if e[0] > e[1] {
			e[0], e[1] = e[1], e[0]
		}
		m[e] = true
	}
	return m
}

// checkChild checks that child is a tour of length l, exactly, made of
// edges of a or b only, with every edge they share and never longer than
// a.
func checkChild(t *testing.T, d *tour.Dist, a, b, child []int32, l int64, what string) {
	t.Helper()
	if err := solver.ValidateTour(toInt(child), len(a)); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if got := d.Length(child); got != l {
		t.Fatalf("%s: reported length %d, exact %d", what, l, got)
	}
	if la := d.Length(a); l > la {
		t.Fatalf("%s: child %d longer than A %d", what, l, la)
	}
	ea, eb, ec := edgeSet(a), edgeSet(b), edgeSet(child)
	for e := range ec {
		if !ea[e] && !eb[e] {
			t.Fatalf("%s: child edge %v in neither parent", what, e)
		}
	}
	for e := range ea {
		if eb[e] && !ec[e] {
			t.Fatalf("%s: shared edge %v missing from the child", what, e)
		}
	}
}

// sameCycle reports whether x and y are the same cycle (either direction).
func sameCycle(x, y []int32) bool {
	ex, ey := edgeSet(x), edgeSet(y)
	if len(ex) != len(ey) {
		return false
	}
	for e := range ex {
		if !ey[e] {
			return false
		}
	}
	return true
}

// TestGPXUndoesKick: A is an optimised tour B with one double bridge;
// the child of A and B is B, and the child of B and A is B.
func TestGPXUndoesKick(t *testing.T) {
	var g gpx
	for seed := uint64(1); seed <= 4; seed++ {
		opt, d, _ := optimisedTour(t, 600, seed)
		lo := d.Length(opt)
		for _, k := range [][3]int{{10, 5, 7}, {300, 30, 30}, {590, 4, 9}, {100, 200, 150}} {
			a := doubleBridge(opt, k[0], k[1], k[2])
			la := d.Length(a)
			if la <= lo {
				continue
			}
			c, l := g.cross(d, a, la, opt, nil)
			checkChild(t, d, a, opt, c, l, "gpx(kicked, opt)")
			if l != lo || !sameCycle(c, opt) {
				t.Fatalf("seed %d kick %v: child %d, want the optimised tour %d (A %d; %d components, %d feasible, %d swapped)",
					seed, k, l, lo, la, g.comps, g.feasible, g.swapped)
			}
			c, l = g.cross(d, opt, lo, a, nil)
			if l != lo || !sameCycle(c, opt) {
				t.Fatalf("seed %d kick %v: gpx(opt, kicked) = %d, want %d unchanged", seed, k, l, lo)
			}
		}
	}
}

// TestGPXCombines: two tours, each an optimised tour with a different
// far-apart kick undone (each keeps the other's), combine into a tour
// shorter than both: the optimised one.
func TestGPXCombines(t *testing.T) {
	var g gpx
	tried := 0
	for seed := uint64(1); seed <= 4; seed++ {
		opt, d, _ := optimisedTour(t, 1000, seed)
		lo := d.Length(opt)
		anc := doubleBridge(doubleBridge(opt, 50, 12, 9), 600, 20, 25) // the common ancestor
		a := doubleBridge(opt, 600, 20, 25)                            // the first kick improved away
		b := doubleBridge(opt, 50, 12, 9)                              // the second
		la, lb := d.Length(a), d.Length(b)
		if la <= lo || lb <= lo || d.Length(anc) <= max(la, lb) {
			continue
		}
		tried++
		c, l := g.cross(d, a, la, b, nil)
		checkChild(t, d, a, b, c, l, "gpx(a, b)")
		if l >= min(la, lb) || l != lo {
			t.Fatalf("seed %d: child %d, parents %d and %d, want %d", seed, l, la, lb, lo)
		}
		if g.swapped != 1 || g.comps != 2 {
			t.Errorf("seed %d: %d components, %d swapped; want 2 and 1", seed, g.comps, g.swapped)
		}
	}
	if tried == 0 {
		t.Fatal("no seed gave kicks that lengthen the tour")
	}
}

// TestGPXRandomPairs: random tours, and pairs of tours of two iterated
// local searches from one start, give valid children that are never
// longer than A, made of the parents' edges, and never need the
// fallback (the check after the walk).
func TestGPXRandomPairs(t *testing.T) {
	var g gpx
	rnd := rand.New(rand.NewPCG(3, 4))
	fell := 0
	for it := range 400 {
		n := 5 + rnd.IntN(60)
		if it%20 == 0 {
			n = 500 + rnd.IntN(500)
		}
		in := uniformInstance(n, uint64(it))
		d := tour.NewDist(in)
		r := newRNG(uint64(it), 1)
		a, b := r.randomTour(n), r.randomTour(n)
		if it%2 == 1 { // a close pair: b is a with a few kicks
			b = slices.Clone(a)
			for range 1 + rnd.IntN(4) {
				b = doubleBridge(b, rnd.IntN(n), 1+rnd.IntN(n/4), 1+rnd.IntN(n/4))
			}
		}
		la := d.Length(a)
		c, l := g.cross(d, a, la, b, nil)
		checkChild(t, d, a, b, c, l, "random pair")
		if g.swapped > 0 && l == la && &c[0] == &a[0] {
			fell++
		}
	}
	if fell > 0 {
		t.Fatalf("%d crossovers fell back to A", fell)
	}
	// two searches from one optimised tour, their kicks far apart or not
	opt, d, in := optimisedTour(t, 2000, 9)
	nb := neighbor.Nearest(in, 8)
	var ws [4]*ls
	for i := range ws {
		s := newLS(d, nb.List, nb.K, opt)
		s.orOpt, s.threeOpt, s.or3, s.r = true, true, true, newRNG(9, uint64(i))
		s.record = true
		ws[i] = s
	}
	for round := range 6 {
		for _, s := range ws {
			for range 3000 {
				s.journal, s.saved = s.journal[:0], s.saved[:0]
				old := s.length
				s.kick(30)
				s.optimize(func() bool { return false })
				if s.length > old {
					s.undo()
					s.length = old
				}
			}
		}
		order := slices.Clone(ws[:])
		slices.SortFunc(order, func(x, y *ls) int { return int(x.length - y.length) })
		child := slices.Clone(order[0].tour)
		cl := order[0].length
		for _, s := range order[1:] {
			c, l := g.cross(d, child, cl, s.tour, nil)
			checkChild(t, d, child, s.tour, c, l, "search pair")
			if g.swapped > 0 && l == cl {
				t.Fatalf("round %d: %d components swapped but the crossover fell back", round, g.swapped)
			}
			child, cl = slices.Clone(c), l
		}
		best := ws[0].length
		for _, s := range ws {
			best = min(best, s.length)
		}
		if cl > best {
			t.Fatalf("round %d: folded child %d longer than the best search %d", round, cl, best)
		}
		if round%2 == 1 { // every other round all searches go on from the child
			for _, s := range ws {
				s.set(child)
			}
		}
		t.Logf("round %d: searches %d %d %d %d, child %d", round, ws[0].length, ws[1].length, ws[2].length, ws[3].length, cl)
	}
}

// TestGPXFixedEdges: a fixed edge that one parent lacks makes the
// crossover return A; fixed edges both keep stay in the child.
func TestGPXFixedEdges(t *testing.T) {
	var g gpx
	opt, d, _ := optimisedTour(t, 300, 5)
	a := doubleBridge(opt, 100, 10, 10)
	la := d.Length(a)
	shared := [][2]int{{int(opt[0]), int(opt[1])}, {int(opt[200]), int(opt[201])}}
	c, l := g.cross(d, a, la, opt, shared)
	checkChild(t, d, a, opt, c, l, "fixed shared")
	if l >= la {
		t.Fatalf("child %d not shorter than A %d", l, la)
	}
	notInA := [][2]int{{int(opt[100]), int(opt[101])}} // cut by the kick
	if c, l := g.cross(d, a, la, opt, notInA); l != la || &c[0] != &a[0] {
		t.Fatalf("a fixed edge missing from A: got a child of %d, want A", l)
	}
}

// BenchmarkGPX4461 crosses two tours of 4,461 uniform cities that
// differ in a few dozen kicks, as the workers' tours of an exchange do.
func BenchmarkGPX4461(b *testing.B) {
	t := &testing.T{}
	opt, d, _ := optimisedTour(t, 4461, 1)
	rnd := rand.New(rand.NewPCG(1, 2))
	a := slices.Clone(opt)
	for range 40 {
		a = doubleBridge(a, rnd.IntN(len(a)), 1+rnd.IntN(30), 1+rnd.IntN(30))
	}
	var g gpx
	la := d.Length(a)
	b.ResetTimer()
	for range b.N {
		g.cross(d, a, la, opt, nil)
	}
}

// TestAutoShareGPX runs auto with the crossover exchange, every worker
// taking the child, on an instance with fixed edges: the tour keeps them,
// and the same seed repeats the run (the fold is deterministic).
func TestAutoShareGPX(t *testing.T) {
	in := uniformInstance(700, 13)
	for i := 0; i+1 < 700; i += 50 {
		in.FixedEdges = append(in.FixedEdges, [2]int{i, i + 1})
	}
	p := solver.Params{Seed: 2, Workers: 4, Extra: map[string]string{OptKicks: "1500", OptSync: "100", OptShare: "gpx"}}
	a := solve(t, "auto", in, p, nil)
	if err := in.CheckFixedEdges(a.Tour); err != nil {
		t.Fatal(err)
	}
	b := solve(t, "auto", in, p, nil)
	if a.Length != b.Length {
		t.Fatalf("seed 2 gave %d, then %d", a.Length, b.Length)
	}
}
