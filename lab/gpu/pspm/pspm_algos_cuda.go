//go:build cuda

package pspm

import (
	"context"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"
)

// The annealers' bodies (pspm_algos.go registers them).
var (
	pspmImpl = device.Impl{
		Multi: func(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, s chan solver.Snapshot, sel []device.DevSlot) (solver.Result, error) {
			return solvePSPM(ctx, e, in, p, s, pspmShape{}, sel, pspmHooks{})
		},
		Tune: func(t *device.Tuning, in *solver.Instance) { pspmTuneBlocks(t, in, AlgoPSPM, 32) },
	}
	sspmImpl = device.Impl{
		Multi: func(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, s chan solver.Snapshot, sel []device.DevSlot) (solver.Result, error) {
			return solvePSPM(ctx, e, in, p, s, pspmShape{oneSearch: true}, sel, pspmHooks{})
		},
	}
	pssmImpl = device.Impl{
		Multi: func(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, s chan solver.Snapshot, sel []device.DevSlot) (solver.Result, error) {
			return solvePSPM(ctx, e, in, p, s, pspmShape{oneMove: true}, sel, pspmHooks{})
		},
		Tune: func(t *device.Tuning, in *solver.Instance) { pspmTuneBlocks(t, in, AlgoPSSM, 1) },
	}
)
