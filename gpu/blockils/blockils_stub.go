//go:build !cuda

package blockils

import (
	"fmt"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"
)

// OpenTourPool without CUDA returns an error wrapping solver.ErrNoTourPool and ErrNotBuilt.
func OpenTourPool(in *solver.Instance, seed uint64) (solver.TourPool, error) {
	return nil, fmt.Errorf("%w: %w", solver.ErrNoTourPool, device.ErrNotBuilt)
}
