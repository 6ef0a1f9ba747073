package ils

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tsplab/tsplab/internal/benchgpu"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/tour"
)

func fiInstance(n int, seed uint64) *solver.Instance {
	rng := rand.New(rand.NewPCG(seed, 3))
	x, y := make([]float64, n), make([]float64, n)
	for i := range x {
		x[i], y[i] = math.Floor(rng.Float64()*5000), math.Floor(rng.Float64()*5000)
	}
	return solver.NewCoordInstance("fi", solver.Euc2D, x, y, nil)
}

// TestFISequentialSearch: the sequential first-improvement ILS returns a
// valid tour, 2-optimal over its candidate lists, never longer than the
// local optimum it starts the kicks from, and more kicks never end worse.
func TestFISequentialSearch(t *testing.T) {
	in := fiInstance(300, 1)
	d := tour.NewDist(in)
	var prev int64 = -1
	for _, kicks := range []int{0, 30, 300} {
		res, err := FISequential(in, 0, 1, benchgpu.Population{Kicks: kicks, Seed: 7})
		tr, l := res.Tour, res.Length
		if err != nil {
			t.Fatal(err)
		}
		if err := solver.ValidateTour(tr, in.N); err != nil {
			t.Fatal(err)
		}
		if l != solver.TourLength(in, tr) {
			t.Fatalf("length %d, exact %d", l, solver.TourLength(in, tr))
		}
		if prev >= 0 && l > prev {
			t.Fatalf("%d kicks end at %d, fewer kicks at %d", kicks, l, prev)
		}
		prev = l
		// no improving 2-opt move joins a city to a candidate closer than
		// its successor
		nb, _ := fiStart(in)
		pos := make([]int, in.N)
		for p, c := range tr {
			pos[c] = p
		}
		succ := func(c int) int { return tr[(pos[c]+1)%in.N] }
		for a := 0; a < in.N; a++ {
			b := succ(a)
			for _, c32 := range nb.Of(a) {
				c := int(c32)
				if c == b || succ(c) == a || d.At(int32(a), int32(c)) >= d.At(int32(a), int32(b)) {
					continue // outside the fixed radius the search looks in
				}
				if d.At(int32(a), int32(c))+d.At(int32(b), int32(succ(c)))-d.At(int32(a), int32(b))-d.At(int32(c), int32(succ(c))) < 0 {
					t.Fatalf("%d kicks: improving 2-opt move (%d,%d) left", kicks, a, c)
				}
			}
		}
	}
	// a population's best is the best of its searches
	r4, _ := FISequential(in, 0, 4, benchgpu.Population{Kicks: 20, Seed: 9})
	l4 := r4.Length
	for s := 0; s < 4; s++ {
		if r, _ := FISequential(in, s, 1, benchgpu.Population{Kicks: 20, Seed: 9}); r.Length < l4 {
			t.Fatalf("search %d found %d, the population of 4 reports %d", s, r.Length, l4)
		}
	}
}
