package population_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/enginetest"
	"github.com/tsplab/tsplab/solver/gen"
)

// budget ends a run by rounds of short local searches, not by time.
func budget(seed uint64) solver.Params {
	return solver.Params{Seed: seed, Workers: 2, Extra: map[string]string{"kicks": "40", "rounds": "6", "pool": "4"}}
}

func TestContract(t *testing.T) {
	e, err := solver.Lookup("pop", solver.BackendCPU)
	if err != nil {
		t.Fatal(err)
	}
	enginetest.Run(t, e, enginetest.Config{
		Budget: func(solver.Engine) solver.Params { return budget(1) },
		Open:   func(solver.Engine) solver.Params { return solver.Params{Workers: 2} },
	})
}

// A run by a kicks budget is the same run twice, and its note names the
// pool.
func TestDeterministicByBudget(t *testing.T) {
	in, err := gen.Generate("uniform", 300, 4)
	if err != nil {
		t.Fatal(err)
	}
	e, _ := solver.Lookup("pop", solver.BackendCPU)
	var tours [][]int
	for k := 0; k < 2; k++ {
		res, err := e.Solve(context.Background(), in, budget(7), nil)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(res.Note, "pool 4 of 4") || !strings.Contains(res.Note, "crossovers") {
			t.Errorf("note %q does not describe the pool", res.Note)
		}
		tours = append(tours, res.Tour)
	}
	if !slices.Equal(tours[0], tours[1]) {
		t.Fatal("the same seed and budget gave two tours")
	}
}
