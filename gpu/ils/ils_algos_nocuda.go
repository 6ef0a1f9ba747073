//go:build !cuda

package ils

import "github.com/tsplab/tsplab/gpu/device"

// Without CUDA the engines are listed, not run.
var orILSImpl, tourLSImpl, threeOptImpl device.Impl
