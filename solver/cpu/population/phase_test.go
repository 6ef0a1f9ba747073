package population

import (
	"testing"

	"github.com/tsplab/tsplab/solver"
)

// TestEvolutionAccount: while its descents are built the population's
// account counts them; once it evolves, its size and generation.
func TestEvolutionAccount(t *testing.T) {
	e := evolution{want: 8, epoch: 1}
	e.built.Store(3)
	if a := *e.account(); a != (solver.EAXAccount{Populations: 2, Tours: 8, Descents: 8, Built: 3}) {
		t.Errorf("descending: %+v", a)
	}
	e.gen, e.size = 4, 9
	if a := *e.account(); a != (solver.EAXAccount{Populations: 2, Tours: 9, Generations: 4}) {
		t.Errorf("evolving: %+v", a)
	}
}
