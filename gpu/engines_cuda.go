//go:build cuda

package gpu

import (
	"context"
	"github.com/tsplab/tsplab/solver"
)

// available reports whether a CUDA device can run the kernels: nil, or an
// error wrapping ErrNoDriver or ErrNoDevice that says what is missing.
// While the context opens in the background (openAhead) the driver's
// answer stands; once it is open, an error opening it or a lost context.
func available() error {
	if err := openAhead(); err != nil || !devOpened.Load() {
		return err
	}
	d, err := getDevice()
	if err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.lost
}

// solvers pairs every row of the algorithm table with its implementation.
var solvers = map[string]solveFunc{
	AlgoTwoOptILS:   twoOptILS,
	AlgoThreeOptILS: solveThreeOptILS,
	AlgoSwapClimb:   solveSwapClimb,
	AlgoOrILS:       solveOrILS,
	AlgoTourLS:      solveTourLS,
}

// multiSolvers are the engines that split their searches over the
// selected GPU contexts (OptGPUs).
var multiSolvers = map[string]multiSolveFunc{
	AlgoPSPM: func(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, s chan solver.Snapshot, sel []devSlot) (solver.Result, error) {
		return solvePSPM(ctx, e, in, p, s, pspmShape{}, sel)
	},
	AlgoSSPM: func(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, s chan solver.Snapshot, sel []devSlot) (solver.Result, error) {
		return solvePSPM(ctx, e, in, p, s, pspmShape{oneSearch: true}, sel)
	},
	AlgoPSSM: func(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, s chan solver.Snapshot, sel []devSlot) (solver.Result, error) {
		return solvePSPM(ctx, e, in, p, s, pspmShape{oneMove: true}, sel)
	},
	AlgoTwoOptClimb: twoOptClimbOn,
}

// aidedSolvers are the engines that take a solver.Aid (GPU auto composes
// CPU auto with it).
var aidedSolvers = map[string]aidedSolveFunc{
	AlgoAuto: solveAuto,
}
