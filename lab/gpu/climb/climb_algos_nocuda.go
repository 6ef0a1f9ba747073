//go:build !cuda

package climb

import "github.com/tsplab/tsplab/gpu/device"

// The climbers have no bodies without CUDA: they are listed, not run.
var twoOptClimbImpl, twoOptILSImpl, swapClimbImpl device.Impl
