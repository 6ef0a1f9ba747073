// Package lab registers the engines of the papers TSP Lab reproduces (Lam
// et al.: sa, sspm, pssm, pspm; O'Neil & Burtscher: 2opt-climb; Rocki &
// Suda: 2opt-ils; Delévacq et al.: 3opt-ils; Luong et al.: swap-climb; on
// both backends) with their options in the one engine registry, where
// front ends list and run them as any other, and tells them from the
// product's (Has). Their code lives in the sub-packages, by backend:
// lab/cpu/anneal and lab/cpu/climb (registered by importing solver/cpu),
// lab/gpu/pspm and lab/gpu/climb (registered by importing gpu).
package lab

import (
	"sync"

	"github.com/tsplab/tsplab/solver"
)

// engines holds the lab's engines by {name, backend}.
var engines sync.Map

// Register adds e to the registry as a lab engine, with its options.
func Register(e solver.Engine, options solver.Declarer) solver.Engine {
	engines.Store([2]string{e.Name(), e.Backend()}, true)
	solver.Register(e)
	solver.Declare(e.Name(), e.Backend(), options)
	return e
}

// Has reports whether e is one of the lab's engines.
func Has(e solver.Engine) bool {
	_, ok := engines.Load([2]string{e.Name(), e.Backend()})
	return ok
}
