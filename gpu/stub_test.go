//go:build !cuda

package gpu

import (
	"context"
	"errors"
	"testing"

	"github.com/tsplab/tsplab/solver"
)

func TestEveryGPUAlgorithmIsRegistered(t *testing.T) {
	for _, a := range algorithms {
		e, err := solver.Lookup(a.name, solver.BackendGPU)
		if err != nil {
			t.Fatal(err)
		}
		if e.Describe() == "" || e.Backend() != solver.BackendGPU {
			t.Fatalf("%s: bad identity", a.name)
		}
		if BuiltWithCUDA() {
			t.Fatal("stub build claims CUDA")
		}
		{
			if !errors.Is(e.Available(), ErrNotBuilt) {
				t.Fatalf("%s: Available = %v, want ErrNotBuilt", a.name, e.Available())
			}
			if _, err := e.Solve(context.Background(), hostInstance(10, 8), solver.Params{}, nil); !errors.Is(err, ErrNotBuilt) {
				t.Fatalf("%s: Solve = %v", a.name, err)
			}
		}
	}
}
