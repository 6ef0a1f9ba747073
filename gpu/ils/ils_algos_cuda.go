//go:build cuda

package ils

import (
	"strconv"

	"github.com/tsplab/tsplab/gpu/device"

	"github.com/tsplab/tsplab/solver"
)

func init() {
	device.Implement(AlgoOrILS, device.Impl{Solve: solveOrILS})
	device.Implement(AlgoTourLS, device.Impl{Solve: solveTourLS})
	device.Implement(AlgoThreeOptILS, device.Impl{Solve: solveThreeOptILS, Tune: func(t *device.Tuning, _ *solver.Instance) {
		t.Set("blocks", strconv.Itoa(4*t.R.Dev.Info.Multiprocs), 0)
	}})
}
