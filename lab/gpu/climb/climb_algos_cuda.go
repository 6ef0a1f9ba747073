//go:build cuda

package climb

import (
	"strconv"
	"time"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"
)

// The bodies of the GPU climbers and 2opt-ils.
var (
	twoOptClimbImpl = device.Impl{Multi: twoOptClimbOn, Limit: climbLimit, Tune: func(t *device.Tuning, _ *solver.Instance) { climbBlocks(t) }}
	twoOptILSImpl   = device.Impl{Multi: device.Independent(TwoOptILS), Limit: device.AlwaysDefault}
	swapClimbImpl   = device.Impl{Multi: device.Independent(solveSwapClimb), Limit: swapLimit, Tune: func(t *device.Tuning, _ *solver.Instance) {
		t.Set("blocks", strconv.Itoa(int(min(max(int64(1<<19)/swapMoves(t.N), 1), 4096))), 0)
	}}
)

// climbLimit is 2opt-climb's default time limit: none with a restarts budget on the fused climber.
func climbLimit(in *solver.Instance, p solver.Params) time.Duration {
	if cfg, err := ClimbSpec.Parse(in, p); err == nil && cfg.Restarts != 0 && fusedFits(in.N) {
		return 0
	}
	return solver.DefaultTimeLimit
}

// fusedFits reports whether the fused climber takes n cities on GPU 0 (true when no run opens).
func fusedFits(n int) bool {
	r, err := device.NewRun()
	if err != nil {
		return true
	}
	defer r.Close()
	return r.Do(func() error { _, err := planClimb(r, n, climbKernelFor(n)); return err }) == nil
}

// swapLimit is swap-climb's default time limit: none for a tabu search.
func swapLimit(in *solver.Instance, p solver.Params) time.Duration {
	if cfg, err := SwapSpec.Parse(in, p); err == nil && cfg.Tabu > 0 {
		return 0
	}
	return solver.DefaultTimeLimit
}
