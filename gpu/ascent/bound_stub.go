//go:build !cuda

package ascent

import (
	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver/bound"
)

// BoundDevice opens the GPU for the Held–Karp ascent of solver/bound; in
// a build without CUDA it returns ErrNotBuilt.
func BoundDevice() (bound.Device, error) { return nil, device.ErrNotBuilt }
