//go:build !cuda

package gpu

import "github.com/tsplab/tsplab/solver"

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

// multiSolvers is empty without CUDA.
var multiSolvers map[string]multiSolveFunc

// GPUs is ErrNotBuilt without CUDA.
func GPUs() ([]GPU, error) { return nil, ErrNotBuilt }

// selectDevices selects nothing without CUDA (available refuses first).
func selectDevices(solver.Params) ([]devSlot, error) { return nil, nil }
