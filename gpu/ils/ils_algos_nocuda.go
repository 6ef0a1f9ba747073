//go:build !cuda

package ils

import "github.com/tsplab/tsplab/gpu/device"

// The engines of this package have no bodies without CUDA: they are
// listed, not run.
var orILSImpl, tourLSImpl, threeOptImpl device.Impl
