//go:build !cuda

package blockils

import (
	"context"
	"fmt"

	"github.com/tsplab/tsplab/gpu/device"

	"github.com/tsplab/tsplab/solver"
)

// SolveBatch solves many small instances at once on the GPU; without CUDA
// it returns ErrNotBuilt.
func SolveBatch(ctx context.Context, ins []*solver.Instance, p solver.Params) ([]solver.Result, error) {
	return nil, device.ErrNotBuilt
}

// OpenTourPool is solver.OpenTourPool on the GPU; without CUDA it returns
// an error wrapping solver.ErrNoTourPool and ErrNotBuilt.
func OpenTourPool(in *solver.Instance, seed uint64) (solver.TourPool, error) {
	return nil, fmt.Errorf("%w: %w", solver.ErrNoTourPool, device.ErrNotBuilt)
}
