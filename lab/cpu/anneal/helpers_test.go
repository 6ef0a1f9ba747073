package anneal

import (
	"testing"

	"math/rand/v2"

	"github.com/tsplab/tsplab/internal/testinst"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/enginetest"
)

// uniformInstance returns n cities uniform in a 1000×1000 square (EUC_2D).
func uniformInstance(n int, seed uint64) *solver.Instance {
	return testinst.IntEuc(n, 1000, rand.New(rand.NewPCG(seed, 7)))
}

// solve runs the engine name on in and checks its tour and length.
func solve(t *testing.T, name string, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot) solver.Result {
	t.Helper()
	return enginetest.Solve(t, name, in, p, snaps)
}

// solveWith runs the engine name on in with its settings changed by set
// once read (Params.Config: typed settings in the instance's units, no
// option text), and checks its tour and length.
func solveWith(t *testing.T, name string, in *solver.Instance, p solver.Params, set func(*solver.Anneal)) solver.Result {
	t.Helper()
	p.Config = set
	return solve(t, name, in, p, nil)
}

// withOpts returns p with the settings, "name=value" as --opt takes them.
func withOpts(p solver.Params, settings ...string) solver.Params {
	for _, s := range settings {
		if err := p.Set(s); err != nil {
			panic(err)
		}
	}
	return p
}

// pspmBudget returns pspm parameters that end the run by its schedule,
// not by time, so that runs are deterministic and short.
func pspmBudget(seed uint64, workers int) solver.Params {
	p := solver.Params{Seed: seed, Workers: workers}
	return withOpts(p, "t0=200", "tend=1", "alpha=0.8", "sweeps=4", "k=5", "blocks=3", "threads=4")
}
