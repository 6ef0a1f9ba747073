//go:build !cuda

package gpu

import (
	"context"

	"github.com/tsplab/tsplab/solver"
)

// BuiltWithCUDA reports whether the CUDA kernels are compiled in.
func BuiltWithCUDA() bool { return false }

// Devices lists the CUDA devices, or says why there are none.
func Devices() ([]DeviceInfo, error) { return nil, ErrNotBuilt }

// stubEngine stands for a GPU engine in a build without CUDA, so menus can
// show "GPU (unavailable: reason)".
type stubEngine struct{ base }

var _ solver.Engine = stubEngine{}

// Available returns ErrNotBuilt.
func (stubEngine) Available() error { return ErrNotBuilt }

// Solve returns ErrNotBuilt.
func (stubEngine) Solve(context.Context, *solver.Instance, solver.Params, chan solver.Snapshot) (solver.Result, error) {
	return solver.Result{}, ErrNotBuilt
}

func init() {
	for _, a := range algorithms {
		solver.Register(stubEngine{base{a.name, a.desc}})
	}
}
