package localsearch

import (
	"math/rand/v2"

	"github.com/tsplab/tsplab/internal/runctl"
	"github.com/tsplab/tsplab/internal/testinst"
	"github.com/tsplab/tsplab/solver"
)

// uniformInstance returns n cities uniform in a 1000×1000 square (EUC_2D).
func uniformInstance(n int, seed uint64) *solver.Instance {
	return testinst.IntEuc(n, 1000, rand.New(rand.NewPCG(seed, 7)))
}

// newRNG returns stream number stream of seed.
func newRNG(seed, stream uint64) *runctl.Rand { return runctl.NewRand(seed, stream) }

func to32(t []int) []int32 {
	o := make([]int32, len(t))
	for i, c := range t {
		o[i] = int32(c)
	}
	return o
}

func toInt(t []int32) []int {
	o := make([]int, len(t))
	for i, c := range t {
		o[i] = int(c)
	}
	return o
}
