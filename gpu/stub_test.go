//go:build !cuda

package gpu

import (
	"context"
	"errors"
	"testing"

	"github.com/tsplab/tsplab/gpu/batch"
	"github.com/tsplab/tsplab/gpu/blockils"
	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/internal/gputest"
	"github.com/tsplab/tsplab/lab/gpu/pspm"
	"github.com/tsplab/tsplab/solver"
)

// Without CUDA every GPU engine is still registered (menus
// list it with the reason), and every entry point says the kernels are not
// built instead of running or panicking.
func TestStubRegistersEveryAlgorithmUnavailable(t *testing.T) {
	registered := map[string]bool{}
	for _, e := range solver.Engines() {
		if e.Backend() == solver.BackendGPU {
			registered[e.Name()] = true
		}
	}
	if len(registered) != len(allAlgorithms) {
		t.Errorf("%d GPU engines registered, want %d", len(registered), len(allAlgorithms))
	}
	for _, name := range allAlgorithms {
		if !registered[name] {
			t.Errorf("%s: not registered", name)
			continue
		}
		e, err := solver.Lookup(name, solver.BackendGPU)
		if err != nil {
			t.Fatal(err)
		}
		if d := []rune(e.Describe()); len(d) == 0 || len(d) > solver.MaxDescription {
			t.Errorf("%s: description of %d characters", name, len(d))
		}
		if !errors.Is(e.Available(), device.ErrNotBuilt) {
			t.Errorf("%s: Available = %v, want ErrNotBuilt", name, e.Available())
		}
		if _, err := e.Solve(context.Background(), gputest.HostInstance(10, 8), solver.Params{}, nil); !errors.Is(err, device.ErrNotBuilt) {
			t.Errorf("%s: Solve = %v, want ErrNotBuilt", name, err)
		}
	}
	if _, err := device.Devices(); !errors.Is(err, device.ErrNotBuilt) {
		t.Errorf("Devices = %v, want ErrNotBuilt", err)
	}
}

// Asking for the GPU backend in a build without CUDA is an error that
// carries the reason, never a GPU engine that then fails.
func TestStubResolveGPUSaysNotBuilt(t *testing.T) {
	e, _, err := solver.Resolve(pspm.AlgoPSPM, solver.BackendGPU)
	if !errors.Is(err, device.ErrNotBuilt) {
		t.Fatalf("Resolve(pspm, gpu) = %v, %v; want an error wrapping ErrNotBuilt", e, err)
	}
}

// Without CUDA the batch search and the tour pool say the kernels are not
// built.
func TestStubBatchAndPool(t *testing.T) {
	in := solver.NewCoordInstance("sq", solver.Euc2D, []float64{0, 1, 1, 0, 2, 3, 5, 8, 13, 21}, []float64{0, 0, 1, 1, 4, 2, 6, 1, 3, 9}, nil)
	if _, err := batch.Solve(context.Background(), []*solver.Instance{in}, solver.Params{}); !errors.Is(err, device.ErrNotBuilt) {
		t.Errorf("batch.Solve: %v, want ErrNotBuilt", err)
	}
	if _, err := blockils.OpenTourPool(in, 1); !errors.Is(err, device.ErrNotBuilt) || !errors.Is(err, solver.ErrNoTourPool) {
		t.Errorf("OpenTourPool: %v, want ErrNotBuilt and ErrNoTourPool", err)
	}
}
