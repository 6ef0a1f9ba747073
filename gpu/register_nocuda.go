//go:build !cuda

package gpu

import "github.com/tsplab/tsplab/gpu/device"

// Without CUDA GPU auto and pop are listed, not run.
var autoImpl, popImpl device.Impl
