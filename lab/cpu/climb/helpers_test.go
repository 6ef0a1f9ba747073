package climb

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
