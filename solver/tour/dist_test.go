package tour

import (
	"math/rand/v2"
	"testing"

	"github.com/tsplab/tsplab/internal/testinst"
	"github.com/tsplab/tsplab/solver"
)

// TestDistMatchesInstance checks every form of Dist (matrix, EUC_2D and
// CEIL_2D coordinates, the instance's function) against
// solver.Instance.Dist: At, Length and Row.
func TestDistMatchesInstance(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	ins := append(testinst.Mix(60, rng), testinst.Grid(60, 9, solver.Att, rng), testinst.Euc(1500, 1e5, rng),
		testinst.Grid(1500, 400, solver.Ceil2D, rng))
	for _, in := range ins {
		for _, d := range []*Dist{NewDist(in), NewDistMatrixMax(in, 0), LazyDist(in)} {
			if d.N() != in.N {
				t.Fatalf("%s: N %d, want %d", in.Name, d.N(), in.N)
			}
			for range 2000 {
				a, b := rng.IntN(in.N), rng.IntN(in.N)
				if got, want := d.At(int32(a), int32(b)), in.Dist(a, b); got != want {
					t.Fatalf("%s: At(%d, %d) = %d, want %d", in.Name, a, b, got, want)
				}
			}
			tr := construct32(in.N, rng)
			if got, want := d.Length(tr), solver.TourLength(in, to64(tr)); got != want {
				t.Fatalf("%s: Length %d, want %d", in.Name, got, want)
			}
			// Row fills dst from from on with d(c, t[k]) and leaves
			// the entries before from alone.
			c, from := int32(rng.IntN(in.N)), rng.IntN(in.N)
			row := make([]int64, in.N)
			for k := range row {
				row[k] = -7
			}
			d.Row(c, tr, from, row)
			for k, v := range row {
				want := int64(-7)
				if k >= from {
					want = in.Dist(int(c), int(tr[k]))
				}
				if v != want {
					t.Fatalf("%s: Row(%d, from %d)[%d] = %d, want %d", in.Name, c, from, k, v, want)
				}
			}
		}
	}
}

func construct32(n int, rng *rand.Rand) []int32 {
	t := make([]int32, n)
	for i, c := range rng.Perm(n) {
		t[i] = int32(c)
	}
	return t
}

func to64(t []int32) []int {
	o := make([]int, len(t))
	for i, c := range t {
		o[i] = int(c)
	}
	return o
}
