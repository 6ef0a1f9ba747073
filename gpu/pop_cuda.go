//go:build cuda

package gpu

import (
	"context"
	"time"

	"github.com/tsplab/tsplab/gpu/ascent"
	"github.com/tsplab/tsplab/gpu/blockils"
	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/cpu/population"
)

// solvePop is the GPU pop engine: the CPU pop engine (a Go call,
// population.Solve) with its Held–Karp ascent on the GPU and the GPU's
// block search (OpenTourPool, gpu/blockils/blockils.cu) on copies of its
// pool's members beside its workers, their gains offered to its pool;
// the block search shares its tours out between the GPU contexts sel
// (blockils.OpenTourPoolOn), the ascent runs on device 0.
func solvePop(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot, aid solver.Aid, sel []device.DevSlot) (solver.Result, error) {
	start := time.Now()
	cpuAid := solver.Aid{Device: ascent.BoundDevice, Ascents: aid.Ascents, Pool: blockils.OpenTourPoolOn(sel), FirstTour: aid.FirstTour}
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
	poolContexts(&res, sel, r.Stats.PoolSearched)
	return res, err
}

// poolContexts says in res's account on how many of the selected GPU
// contexts sel the block search ran: all of them when the population
// searched its tours there (pooled), else on device 0 alone.
func poolContexts(res *solver.Result, sel []device.DevSlot, pooled bool) {
	if len(sel) <= 1 {
		return
	}
	g := res.Account.GPUPart()
	if !pooled {
		g.Contexts, g.Selected = 1, len(sel)
		return
	}
	g.Contexts, res.Settings.GPUs = len(sel), device.GpusText(sel)
}
