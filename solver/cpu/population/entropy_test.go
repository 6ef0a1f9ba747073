package population

import (
	"math/rand/v2"
	"testing"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/cpu/recomb"
	"github.com/tsplab/tsplab/solver/gen"
	"github.com/tsplab/tsplab/solver/neighbor"
)

// edgeCounts counts the edges of tours the plain way.
func edgeCounts(tours [][]int32) map[[2]int32]int32 {
	m := map[[2]int32]int32{}
	for _, t := range tours {
		for i, c := range t {
			d := t[(i+1)%len(t)]
			if c > d {
				c, d = d, c
			}
			m[[2]int32{c, d}]++
		}
	}
	return m
}

// TestEdgeFreqFollowsChildren: the counts match the population's edges
// after EAX children replace members through their Change, and the
// judge ranks a child that keeps the entropy above one that loses it.
func TestEdgeFreqFollowsChildren(t *testing.T) {
	in, err := gen.Generate("uniform", 300, 9)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(9, 9))
	tours := make([][]int32, 6)
	lens := make([]int64, len(tours))
	for i := range tours {
		tours[i] = perm(in.N, r)
		lens[i] = tourLen(in, tours[i])
	}
	f := newEdgeFreq(in.N, tours)
	nb := neighbor.Nearest(in, 8)
	e := &recomb.EAX{NB: nb.List, K: nb.K, Judge: f}
	check := func(when string) {
		t.Helper()
		want := edgeCounts(tours)
		for k, c := range want {
			if got := f.count(k[0], k[1]); got != c || f.count(k[1], k[0]) != c {
				t.Fatalf("%s: edge %v counted %d, %d tours have it", when, k, got, c)
			}
		}
		for x := range f.at {
			for _, ec := range f.at[x] {
				k := [2]int32{int32(x), ec.to}
				if k[0] > k[1] {
					k[0], k[1] = k[1], k[0]
				}
				if want[k] != ec.n {
					t.Fatalf("%s: edge %v counted %d, %d tours have it", when, k, ec.n, want[k])
				}
			}
		}
	}
	check("start")
	out := make([]int32, in.N)
	taken := 0
	for g := range 30 {
		a, b := g%len(tours), (g+1)%len(tours)
		st := e.Improve(in, tours[a], tours[b], lens[a], uint64(g), out)
		if st.Taken == 0 {
			continue
		}
		taken++
		gone, come := e.Change()
		f.change(gone, come)
		tours[a] = append([]int32(nil), out...)
		lens[a] = st.Length
		check("after a child")
	}
	if taken == 0 {
		t.Fatal("no child of 30 pairs of random tours")
	}
}

// TestEntropyScore: of two children of the same gain, the one that trades
// a common edge for a new one ranks above the one that trades a rare edge
// for a common one, and both are taken.
func TestEntropyScore(t *testing.T) {
	a := []int32{0, 1, 2, 3, 4, 5}
	b := []int32{0, 2, 1, 3, 4, 5}
	f := newEdgeFreq(6, [][]int32{a, a, a, a, b})
	common, rare, fresh := [2]int32{0, 1}, [2]int32{0, 2}, [2]int32{0, 3}
	if f.count(0, 1) != 4 || f.count(2, 0) != 1 || f.count(0, 3) != 0 {
		t.Fatalf("counts %d %d %d, want 4 1 0", f.count(0, 1), f.count(2, 0), f.count(0, 3))
	}
	keep := f.Score(-10, [][2]int32{common}, [][2]int32{fresh})
	lose := f.Score(-10, [][2]int32{rare}, [][2]int32{common})
	if !(keep > lose) || lose <= 0 {
		t.Errorf("common for new scored %g, rare for common %g", keep, lose)
	}
	// of two that lose entropy, the larger gain per entropy lost ranks first
	if big, small := f.Score(-20, [][2]int32{rare}, [][2]int32{common}), lose; !(big > small) {
		t.Errorf("gain 20 scored %g, gain 10 %g", big, small)
	}
}

func tourLen(in *solver.Instance, t []int32) int64 {
	var l int64
	for i, c := range t {
		l += in.Dist(int(c), int(t[(i+1)%len(t)]))
	}
	return l
}
