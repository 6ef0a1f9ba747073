//go:build cuda

package gpu

import (
	"context"
	"fmt"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// available reports whether a CUDA device can run the kernels: nil, or an
// error wrapping ErrNoDriver or ErrNoDevice that says what is missing.
func available() error {
	_, err := getDevice()
	return err
}

// solvers pairs every row of the algorithm table with its implementation.
var solvers = map[string]solveFunc{
	AlgoPSPM: func(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, s chan solver.Snapshot) (solver.Result, error) {
		return solvePSPM(ctx, e, in, p, s, p.Blocks, p.Threads)
	},
	AlgoSSPM: func(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, s chan solver.Snapshot) (solver.Result, error) {
		return solvePSPM(ctx, e, in, p, s, 1, p.Threads)
	},
	AlgoPSSM: func(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, s chan solver.Snapshot) (solver.Result, error) {
		return solvePSPM(ctx, e, in, p, s, p.Blocks, 1)
	},
	AlgoTwoOptClimb: twoOptClimb,
	AlgoTwoOptILS: func(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, s chan solver.Snapshot) (solver.Result, error) {
		return twoOptILS(ctx, e, in, p, s, false)
	},
	AlgoThreeOptILS: solveThreeOptILS,
	AlgoSwapClimb:   solveSwapClimb,
	AlgoAuto:        solveAuto,
}

// autoGPUDescentMinN is the size from which GPU auto starts with the GPU's
// whole-neighbourhood 2-opt descent (pla85900, 20 s on the H100 host:
// 1.16% with it against 1.27% for CPU auto alone).
const autoGPUDescentMinN = 10000

// solveAuto is the GPU auto engine: the GPU's whole-neighbourhood 2-opt
// descends from a greedy tour (many moves per pass, where it beats the
// CPU most, on large n), then the CPU auto engine, when registered, spends
// the rest of the time from that tour; without it, GPU 2opt-ils does.
func solveAuto(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot) (solver.Result, error) {
	start := time.Now()
	if p.TimeLimit <= 0 {
		p.TimeLimit = solver.DefaultTimeLimit
	}
	cpu, err := solver.Lookup(AlgoAuto, solver.BackendCPU)
	if err != nil || cpu.Available() != nil {
		r, err := twoOptILS(ctx, e, in, p, snaps, false)
		r.Algorithm = AlgoAuto
		return r, err
	}
	q := p
	if in.N < autoGPUDescentMinN {
		// Measured on the H100 host (docs/PERF.md, "GPU auto"): below this
		// size the GPU descent gives the CPU search nothing it does not
		// reach itself in milliseconds, and starting from the descent's
		// tour ended worse (pr2392, 20 s: 0.46% against 0.27%).
		q.Backend = solver.BackendCPU
		r, err := cpu.Solve(ctx, in, q, snaps)
		if err != nil {
			return solver.Result{}, err
		}
		return solver.Finish(in, e, p, r.Tour, r.Moves, r.Steps, start, r.Stopped, r.Device+" (GPU auto: CPU search below "+fmt.Sprint(autoGPUDescentMinN)+" cities)")
	}
	r1, err := twoOptILS(ctx, e, in, q, nil, true)
	if err != nil {
		return solver.Result{}, err
	}
	q.Start = r1.Tour
	q.Backend = solver.BackendCPU
	q.TimeLimit = p.TimeLimit - time.Since(start)
	if q.TimeLimit <= 0 || ctx.Err() != nil {
		return solver.Finish(in, e, p, r1.Tour, r1.Moves, r1.Steps, start, true, r1.Device)
	}
	r2, err := cpu.Solve(ctx, in, q, snaps)
	if err != nil {
		return solver.Result{}, err
	}
	t := r2.Tour
	if r1.Length < r2.Length {
		t = r1.Tour
	}
	return solver.Finish(in, e, p, t, r1.Moves+r2.Moves, r1.Steps+r2.Steps, start, r2.Stopped, r1.Device+" + "+r2.Device)
}
