//go:build !cuda

package gpu

import (
	"context"
	"errors"
	"testing"

	"github.com/tsplab/tsplab/solver"
)

// Without CUDA every row of the algorithm table is still registered (menus
// list it with the reason), and every entry point says the kernels are not
// built instead of running or panicking.
func TestStubRegistersEveryAlgorithmUnavailable(t *testing.T) {
	registered := map[string]bool{}
	for _, e := range solver.Engines() {
		if e.Backend() == solver.BackendGPU {
			registered[e.Name()] = true
		}
	}
	if len(registered) != len(algorithms) {
		t.Errorf("%d GPU engines registered, the table has %d rows", len(registered), len(algorithms))
	}
	for _, a := range algorithms {
		if !registered[a.name] {
			t.Errorf("%s: in the table but not registered", a.name)
			continue
		}
		e, err := solver.Lookup(a.name, solver.BackendGPU)
		if err != nil {
			t.Fatal(err)
		}
		if e.Describe() != a.desc {
			t.Errorf("%s: Describe = %q, want the table's %q", a.name, e.Describe(), a.desc)
		}
		if !errors.Is(e.Available(), ErrNotBuilt) {
			t.Errorf("%s: Available = %v, want ErrNotBuilt", a.name, e.Available())
		}
		if _, err := e.Solve(context.Background(), hostInstance(10, 8), solver.Params{}, nil); !errors.Is(err, ErrNotBuilt) {
			t.Errorf("%s: Solve = %v, want ErrNotBuilt", a.name, err)
		}
	}
	if _, err := Devices(); !errors.Is(err, ErrNotBuilt) {
		t.Errorf("Devices = %v, want ErrNotBuilt", err)
	}
}

// Asking for the GPU backend in a build without CUDA is an error that
// carries the reason, never a GPU engine that then fails.
func TestStubResolveGPUSaysNotBuilt(t *testing.T) {
	e, _, err := solver.Resolve(AlgoPSPM, solver.BackendGPU)
	if !errors.Is(err, ErrNotBuilt) {
		t.Fatalf("Resolve(pspm, gpu) = %v, %v; want an error wrapping ErrNotBuilt", e, err)
	}
}

// Without CUDA the batch search and the tour pool say the kernels are not
// built.
func TestStubBatchAndPool(t *testing.T) {
	in := solver.NewCoordInstance("sq", solver.Euc2D, []float64{0, 1, 1, 0, 2, 3, 5, 8, 13, 21}, []float64{0, 0, 1, 1, 4, 2, 6, 1, 3, 9}, nil)
	if _, err := SolveBatch(context.Background(), []*solver.Instance{in}, solver.Params{}); !errors.Is(err, ErrNotBuilt) {
		t.Errorf("SolveBatch: %v, want ErrNotBuilt", err)
	}
	if _, err := OpenTourPool(in, 1); !errors.Is(err, ErrNotBuilt) || !errors.Is(err, solver.ErrNoTourPool) {
		t.Errorf("OpenTourPool: %v, want ErrNotBuilt and ErrNoTourPool", err)
	}
}
