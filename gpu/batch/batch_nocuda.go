//go:build !cuda

package batch

import (
	"context"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"
)

// Solve solves many small instances at once on the GPU; without CUDA it
// returns ErrNotBuilt.
func Solve(ctx context.Context, ins []*solver.Instance, p solver.Params) ([]solver.Result, error) {
	return nil, device.ErrNotBuilt
}
