//go:build !cuda

package gpu

import "errors"

// ErrNotBuilt is why every GPU engine is unavailable in a build without
// the cuda tag.
var ErrNotBuilt = errors.New("this binary was built without CUDA kernels (build with `make gpu`)")

// BuiltWithCUDA reports whether the CUDA kernels are compiled in.
func BuiltWithCUDA() bool { return false }

// Devices lists the CUDA devices, or says why there are none.
func Devices() ([]DeviceInfo, error) { return nil, ErrNotBuilt }
