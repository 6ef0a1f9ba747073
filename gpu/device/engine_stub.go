//go:build !cuda

package device

import (
	"context"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// Impl is empty without CUDA: the engines are listed but never run.
type Impl struct{}

// BuiltWithCUDA reports whether the CUDA kernels are compiled in.
func BuiltWithCUDA() bool { return false }

// Devices lists the CUDA devices, or says why there are none.
func Devices() ([]DeviceInfo, error) { return nil, ErrNotBuilt }

// Available is ErrNotBuilt: the engines are listed as unavailable.
func Available() error { return ErrNotBuilt }

// GPUs is ErrNotBuilt without CUDA.
func GPUs() ([]GPU, error) { return nil, ErrNotBuilt }

// DefaultLimit is 0 without CUDA: the engine does not run.
func (engine) DefaultLimit(*solver.Instance, solver.Params) time.Duration { return 0 }

// FirstGPUOnly is false without CUDA: no engine runs.
func FirstGPUOnly(solver.Engine) bool { return false }

// SolveAided returns ErrNotBuilt without CUDA.
func (e engine) SolveAided(ctx context.Context, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot, aid solver.Aid) (solver.Result, error) {
	return solver.Result{}, Available()
}
