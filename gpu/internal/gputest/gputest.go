package gputest

import (
	"math/rand/v2"
	"strconv"

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

// Takes returns p without the options the GPU engine algo does not take:
// the tests' quick annealing settings given to engines of every kind.
func Takes(algo string, p solver.Params) solver.Params {
	set := solver.OptionsFor(algo, solver.BackendGPU)
	q := p
	q.Extra = map[string]string{}
	for k, v := range p.Extra {
		if _, ok := set.Lookup(k); ok {
			q.Extra[k] = v
		}
	}
	return q
}

// OptInt is the int option name of a result's Params (0: not reported).
func OptInt(p solver.Params, name string) int {
	v, _ := strconv.Atoi(p.Extra[name])
	return v
}

// Ext returns Params with the options given as name, value pairs.
func Ext(kv ...string) solver.Params {
	p := solver.Params{Extra: map[string]string{}}
	for i := 0; i+1 < len(kv); i += 2 {
		p.Extra[kv[i]] = kv[i+1]
	}
	return p
}
