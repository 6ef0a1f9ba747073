// Package lab is the wing of TSP Lab that reproduces five papers: their
// engines register here, and `tsp bench`'s reproduction suites
// (lab/repro) run them on the papers' protocols. The engines are
// registered in the one engine registry, so the app and the CLI list and
// run them as any other; Has tells them apart from the product's (auto,
// pop and the GPU engines auto uses), which register with solver.Register.
//
//   - Lam et al., parallel simulated annealing: sa, sspm, pssm, pspm
//     (solver/cpu/anneal; gpu/pspm), suite lam.
//   - O'Neil & Burtscher, random-restart 2-opt: 2opt-climb
//     (solver/cpu/climb; gpu/climb), suite oneil.
//   - Rocki & Suda, 2-opt in iterated local search: 2opt-ils
//     (solver/cpu/ils; gpu/climb), suite rocki.
//   - Delévacq et al., 3-opt iterated local search: 3opt-ils
//     (solver/cpu/ils; gpu/ils), suite delevacq.
//   - Luong et al., pair exchange and its tabu search: swap-climb
//     (solver/cpu/climb; gpu/climb), suite luong.
//
// The papers' engine code stays in the engine families' packages, beside
// the internal run control and test helpers it shares with the product's
// engines (solver/cpu/internal, gpu/internal).
package lab

import (
	"sync"

	"github.com/tsplab/tsplab/solver"
)

var (
	mu      sync.RWMutex
	engines = map[[2]string]bool{}
)

// Register adds e to the engine registry (solver.Register) as one of the
// lab's engines, and returns it.
func Register(e solver.Engine) solver.Engine {
	mu.Lock()
	engines[[2]string{e.Name(), e.Backend()}] = true
	mu.Unlock()
	solver.Register(e)
	return e
}

// Has reports whether e is one of the lab's engines.
func Has(e solver.Engine) bool {
	mu.RLock()
	defer mu.RUnlock()
	return engines[[2]string{e.Name(), e.Backend()}]
}
