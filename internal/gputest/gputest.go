package gputest

import (
	"math/rand/v2"

	"github.com/tsplab/tsplab/internal/testinst"
	"github.com/tsplab/tsplab/solver"
)

// HostInstance is n cities uniform in a 1000×1000 square (EUC_2D).
func HostInstance(n int, seed uint64) *solver.Instance {
	return testinst.IntEuc(n, 1000, rand.New(rand.NewPCG(seed, 1)))
}

// WithOpts returns p with the settings, "name=value" as --opt takes them.
func WithOpts(p solver.Params, settings ...string) solver.Params {
	for _, s := range settings {
		if err := p.Set(s); err != nil {
			panic(err)
		}
	}
	return p
}

// Takes returns p without the options GPU engine algo does not take.
func Takes(algo string, p solver.Params) solver.Params {
	q, _ := p.Split(solver.OptionsFor(algo, solver.BackendGPU).Names())
	return q
}

// Ext returns Params with the options given as name, value pairs.
func Ext(kv ...string) solver.Params {
	var p solver.Params
	for i := 0; i+1 < len(kv); i += 2 {
		p = p.WithExtra(kv[i], kv[i+1])
	}
	return p
}
