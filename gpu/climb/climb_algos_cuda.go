//go:build cuda

package climb

import (
	"strconv"
	"time"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"
)

func init() {
	device.Implement(AlgoTwoOptClimb, device.Impl{Multi: twoOptClimbOn, Limit: climbLimit, Tune: func(t *device.Tuning, _ *solver.Instance) { climbBlocks(t) }})
	device.Implement(AlgoTwoOptILS, device.Impl{Solve: TwoOptILS, Limit: device.AlwaysDefault})
	device.Implement(AlgoSwapClimb, device.Impl{Solve: solveSwapClimb, Limit: swapLimit, Tune: func(t *device.Tuning, _ *solver.Instance) {
		t.Set("blocks", strconv.Itoa(int(min(max(int64(1<<19)/swapMoves(t.N), 1), 4096))), 0)
	}})
}

// climbLimit is 2opt-climb's default time limit (device.Impl.Limit):
// none with a restarts budget (the batch climber, which twoOptClimb picks
// on the device, keeps the default under one too).
func climbLimit(in *solver.Instance, p solver.Params) time.Duration {
	if cfg, err := ClimbSpec.Parse(in, p); err == nil && cfg.Restarts != 0 {
		return 0
	}
	return solver.DefaultTimeLimit
}

// swapLimit is swap-climb's default time limit (device.Impl.Limit): none
// for a tabu search, whose iterations end it.
func swapLimit(in *solver.Instance, p solver.Params) time.Duration {
	if cfg, err := SwapSpec.Parse(in, p); err == nil && cfg.Tabu > 0 {
		return 0
	}
	return solver.DefaultTimeLimit
}
