//go:build cuda

package pspm

import (
	"context"

	"github.com/tsplab/tsplab/gpu/device"

	"github.com/tsplab/tsplab/solver"
)

func init() {
	device.Implement(AlgoPSPM, device.Impl{
		Multi: func(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, s chan solver.Snapshot, sel []device.DevSlot) (solver.Result, error) {
			return solvePSPM(ctx, e, in, p, s, pspmShape{}, sel)
		},
		Tune: func(t *device.Tuning, in *solver.Instance) { pspmTuneBlocks(t, in, AlgoPSPM, 32) },
	})
	device.Implement(AlgoSSPM, device.Impl{
		Multi: func(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, s chan solver.Snapshot, sel []device.DevSlot) (solver.Result, error) {
			return solvePSPM(ctx, e, in, p, s, pspmShape{oneSearch: true}, sel)
		},
	})
	device.Implement(AlgoPSSM, device.Impl{
		Multi: func(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, s chan solver.Snapshot, sel []device.DevSlot) (solver.Result, error) {
			return solvePSPM(ctx, e, in, p, s, pspmShape{oneMove: true}, sel)
		},
		Tune: func(t *device.Tuning, in *solver.Instance) { pspmTuneBlocks(t, in, AlgoPSSM, 1) },
	})
}
