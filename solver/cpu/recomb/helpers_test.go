package recomb

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/gen"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/problem"
	"github.com/tsplab/tsplab/solver/tour"
)

// instance generates a uniform instance or fails the test.
func instance(tb testing.TB, n int, seed uint64) *problem.Instance {
	tb.Helper()
	in, err := gen.Generate("uniform", n, seed)
	if err != nil {
		tb.Fatal(err)
	}
	return in
}

// randomTour is a random permutation of 0..n-1.
func randomTour(n int, r *rand.Rand) []int32 {
	t := make([]int32, n)
	for i := range t {
		t[i] = int32(i)
	}
	r.Shuffle(n, func(i, j int) { t[i], t[j] = t[j], t[i] })
	return t
}

func length(in *problem.Instance, t []int32) int64 {
	var s int64
	for i := range t {
		s += in.Dist(int(t[i]), int(t[(i+1)%len(t)]))
	}
	return s
}

// twoOpt improves t in place by first-improvement 2-opt over 8 nearest
// candidates until no move gains: a plain local optimum for parents.
func twoOpt(in *problem.Instance, t []int32, nb *neighbor.Lists) {
	n := len(t)
	pos := make([]int32, n)
	for i, c := range t {
		pos[c] = int32(i)
	}
	succ := func(c int32) int32 { return t[(int(pos[c])+1)%n] }
	reverse := func(i, j int) { // positions i..j, cyclic
		l := (j-i+n)%n + 1
		if 2*l > n { // the other side: the same cycle, mirrored
			i, j, l = (j+1)%n, (i+n-1)%n, n-l
		}
		for k := 0; k < l/2; k++ {
			a, b := (i+k)%n, (j-k+n)%n
			t[a], t[b] = t[b], t[a]
			pos[t[a]], pos[t[b]] = int32(a), int32(b)
		}
	}
	for improved := true; improved; {
		improved = false
		for a := int32(0); a < int32(n); a++ {
			b := succ(a)
			dab := in.Dist(int(a), int(b))
			for _, c := range nb.Of(int(a)) {
				dac := in.Dist(int(a), int(c))
				if dac >= dab {
					break
				}
				d := succ(c)
				if c == b || d == a {
					continue
				}
				if g := dab + in.Dist(int(c), int(d)) - dac - in.Dist(int(b), int(d)); g > 0 {
					// a b ... c d -> a c ... b d
					reverse(int(pos[b]), int(pos[c]))
					improved = true
					b = succ(a)
					dab = in.Dist(int(a), int(b))
				}
			}
		}
	}
}

// edgeSet is the undirected edges of the tours.
func edgeSet(ts ...[]int32) map[[2]int32]bool {
	s := map[[2]int32]bool{}
	for _, t := range ts {
		for i := range t {
			s[key(t[i], t[(i+1)%len(t)])] = true
		}
	}
	return s
}

func key(a, b int32) [2]int32 {
	if a > b {
		a, b = b, a
	}
	return [2]int32{a, b}
}

// checkChild asserts what every crossover must give: a permutation,
// edges of the parents only, every shared edge kept, the reported length
// exact and no longer than the shorter parent.
func checkChild(t *testing.T, in *problem.Instance, a, b, child []int32, st Stats) {
	t.Helper()
	ci := make([]int, len(child))
	for i, c := range child {
		ci[i] = int(c)
	}
	if err := problem.ValidateTour(ci, in.N); err != nil {
		t.Fatalf("child: %v", err)
	}
	union := edgeSet(a, b)
	for e := range edgeSet(child) {
		if !union[e] {
			t.Fatalf("child edge %d-%d is in neither parent", e[0], e[1])
		}
	}
	eb := edgeSet(b)
	ec := edgeSet(child)
	for e := range edgeSet(a) {
		if eb[e] && !ec[e] {
			t.Fatalf("shared edge %d-%d lost", e[0], e[1])
		}
	}
	la, lb, lc := length(in, a), length(in, b), length(in, child)
	if lc != st.Length {
		t.Fatalf("child length %d, reported %d", lc, st.Length)
	}
	if lc > min(la, lb) {
		t.Fatalf("child %d longer than the shorter parent (%d, %d)", lc, la, lb)
	}
	if st.Gain != min(la, lb)-lc {
		t.Fatalf("gain %d, want %d", st.Gain, min(la, lb)-lc)
	}
}

// perturb applies k random double bridges of short segments to t.
func perturb(t []int32, k int, r *rand.Rand) {
	n := len(t)
	for ; k > 0; k-- {
		i := r.IntN(n)
		l1, l2 := 1+r.IntN(20), 1+r.IntN(20)
		if l1+l2+2 >= n {
			continue
		}
		tour.SwapAdjacent(t, i, l1, l2)
	}
}

// fixedRandomTour is a random tour of in with its fixed edges put in.
func fixedRandomTour(in *problem.Instance, r *rand.Rand) []int32 {
	t := construct.KeepFixed(in, construct.Random(in.N, r))
	o := make([]int32, len(t))
	for i, c := range t {
		o[i] = int32(c)
	}
	return o
}

// optimaPair returns an instance of n cities (seed) and two 2-opt optima
// of it that differ where k random double bridges of a shared 2-opt
// optimum of its space-filling curve differ, as the members of a
// population do.
func optimaPair(tb testing.TB, n int, seed uint64, k int) (*problem.Instance, []int32, []int32) {
	in := instance(tb, n, seed)
	nb := neighbor.Nearest(in, 8)
	r := rand.New(rand.NewPCG(seed, seed))
	base := make([]int32, in.N)
	for i, c := range construct.SpaceFillingCurve(in) {
		base[i] = int32(c)
	}
	twoOpt(in, base, nb)
	p, q := slices.Clone(base), slices.Clone(base)
	perturb(p, k, r)
	perturb(q, k, r)
	twoOpt(in, p, nb)
	twoOpt(in, q, nb)
	return in, p, q
}
