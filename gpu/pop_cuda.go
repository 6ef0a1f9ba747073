//go:build cuda

package gpu

import (
	"context"
	"time"

	"github.com/tsplab/tsplab/gpu/ascent"
	"github.com/tsplab/tsplab/gpu/blockils"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/cpu/population"
)

// solvePop is the GPU pop engine: CPU pop with its ascent on the GPU and the GPU's block search on copies of its
// pool's members, their gains offered to the pool.
func solvePop(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot, aid solver.Aid) (solver.Result, error) {
	start := time.Now()
	cpuAid := solver.Aid{Device: ascent.BoundDevice, Ascents: aid.Ascents, Pool: blockils.OpenTourPool, FirstTour: aid.FirstTour}
	r, err := population.Solve(ctx, in, popParams(p), snaps, cpuAid)
	if err != nil {
		return solver.Result{}, err
	}
	gpu := ""
	if r.Stats.PoolSearched {
		gpu = "; the GPU's block search on the pool's tours"
	}
	res, err := solver.Finish(in, e, p, solver.Outcome{Tour: r.Tour, Moves: r.Moves, Steps: r.Steps, Start: start, Stopped: r.Stopped,
		Device: r.Device + gpu})
	res.Stats = r.Stats
	res.Account = r.Account
	return res, err
}
