//go:build cuda

package climb

import (
	"strconv"

	"github.com/tsplab/tsplab/gpu/device"

	"github.com/tsplab/tsplab/solver"
)

func init() {
	device.Implement(AlgoTwoOptClimb, device.Impl{Multi: twoOptClimbOn, Tune: func(t *device.Tuning, _ *solver.Instance) { climbBlocks(t) }})
	device.Implement(AlgoTwoOptILS, device.Impl{Solve: TwoOptILS})
	device.Implement(AlgoSwapClimb, device.Impl{Solve: solveSwapClimb, Tune: func(t *device.Tuning, _ *solver.Instance) {
		t.Set("blocks", strconv.Itoa(int(min(max(int64(1<<19)/swapMoves(t.N), 1), 4096))), 0)
	}})
}
