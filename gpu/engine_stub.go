//go:build !cuda

package gpu

// BuiltWithCUDA reports whether the CUDA kernels are compiled in.
func BuiltWithCUDA() bool { return false }

// Devices lists the CUDA devices, or says why there are none.
func Devices() ([]DeviceInfo, error) { return nil, ErrNotBuilt }

// available is ErrNotBuilt: the engines are listed (menus show "GPU
// (unavailable: reason)") but cannot run.
func available() error { return ErrNotBuilt }

// solvers is empty without CUDA.
var solvers map[string]solveFunc

// aidedSolvers is empty without CUDA.
var aidedSolvers map[string]aidedSolveFunc
