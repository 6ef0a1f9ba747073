package ils

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tsplab/tsplab/internal/testinst"
	"github.com/tsplab/tsplab/solver"
)

// uniformInstance returns n cities uniform in a 1000×1000 square (EUC_2D).
func uniformInstance(n int, seed uint64) *solver.Instance {
	return testinst.IntEuc(n, 1000, rand.New(rand.NewPCG(seed, 7)))
}

// circleInstance puts n cities on a circle of the given radius, in a
// shuffled order; the optimum is the tour around the circle.
func circleInstance(n int, radius float64, seed uint64) (*solver.Instance, int64) {
	r := rand.New(rand.NewPCG(seed, 9))
	perm := r.Perm(n)
	x, y := make([]float64, n), make([]float64, n)
	for i := 0; i < n; i++ {
		a := 2 * math.Pi * float64(i) / float64(n)
		x[perm[i]], y[perm[i]] = radius*math.Cos(a), radius*math.Sin(a)
	}
	in := solver.NewCoordInstance("circle", solver.Euc2D, x, y, nil)
	around := make([]int, n)
	for i := range around {
		around[i] = perm[i]
	}
	return in, solver.TourLength(in, around)
}

// gridInstance returns a rows×cols unit grid (EUC_2D, shuffled); with an
// even number of points its optimum is rows·cols.
func gridInstance(rows, cols int, seed uint64) *solver.Instance {
	n := rows * cols
	r := rand.New(rand.NewPCG(seed, 11))
	perm := r.Perm(n)
	x, y := make([]float64, n), make([]float64, n)
	for i := 0; i < n; i++ {
		x[perm[i]], y[perm[i]] = float64(i%cols), float64(i/cols)
	}
	return solver.NewCoordInstance("grid", solver.Euc2D, x, y, nil)
}

// withOpts returns p with the settings, "name=value" as --opt takes them:
// for the tests of the options' texts, and for engines of other packages,
// whose configs this one cannot build.
func withOpts(p solver.Params, settings ...string) solver.Params {
	for _, s := range settings {
		if err := p.Set(s); err != nil {
			panic(err)
		}
	}
	return p
}

// planned gives o the plan of a run of e on in with w workers and the
// options p sets, as Solve does, and returns the plan.
func planned(e ilsEngine, o *ilsOptions, in *solver.Instance, p solver.Params, w int) ilsPlan {
	given := e.given(in, p)
	pl := e.decide(e.facts(*o, in, given, w, p.TimeLimit))
	pl.apply(o, given)
	return pl
}

// given is what a run of e on in with p takes as the options the user
// gave (prepare): every one with settings made in code (Params.Config).
func (e ilsEngine) given(in *solver.Instance, p solver.Params) func(string) bool {
	c, err := e.prepare(in, p, true)
	if err != nil {
		panic(err)
	}
	return c.given
}

// autoWith is the auto engine with the plan limits lim in place of
// defaultLimits.
func autoWith(t testing.TB, lim planLimits) ilsEngine {
	t.Helper()
	eng, err := solver.Lookup("auto", solver.BackendCPU)
	if err != nil {
		t.Fatal(err)
	}
	e := eng.(ilsEngine)
	e.limits = &lim
	return e
}

// config is the options a run of e on in with p takes (prepare), for the
// tests that read them.
func (e ilsEngine) config(in *solver.Instance, p solver.Params) (ilsOptions, error) {
	c, err := e.prepare(in, p, true)
	return c.o, err
}
