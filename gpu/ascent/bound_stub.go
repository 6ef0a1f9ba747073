//go:build !cuda

package ascent

import (
	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver/bound"
)

// BoundDevice returns ErrNotBuilt in a build without CUDA.
func BoundDevice() (bound.Device, error) { return nil, device.ErrNotBuilt }
