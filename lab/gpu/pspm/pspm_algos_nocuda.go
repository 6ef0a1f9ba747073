//go:build !cuda

package pspm

import "github.com/tsplab/tsplab/gpu/device"

// The annealers have no bodies without CUDA: they are listed, not run.
var pspmImpl, sspmImpl, pssmImpl device.Impl
