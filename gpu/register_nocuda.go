//go:build !cuda

package gpu

import "github.com/tsplab/tsplab/gpu/device"

// GPU auto and GPU pop have no bodies without CUDA: they are listed, not
// run.
var autoImpl, popImpl device.Impl
