//go:build cuda

package gpu

import (
	"context"
	"fmt"
	"runtime"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// available reports whether a CUDA device can run the kernels: nil, or an
// error wrapping ErrNoDriver or ErrNoDevice that says what is missing.
func available() error {
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
	AlgoOrILS:       solveOrILS,
}

// AutoOrILSMinN is the size from which GPU auto starts with the or-ils
// engine (GPU windows from the space-filling curve at once, global passes
// on the CPU) and the CPU auto engine beside it; below it, from
// AutoCompanionMinN cities, the CPU auto engine runs with the windows as
// its companion. Measured on the H100 host (docs/PERF.md, "GPU or-ils and
// the ttq suite", "CPU partition search" and "GPU auto's windows as a
// companion of CPU auto"): on 1,000,000 uniform cities the CPU engine is
// still building its candidate lists and greedy tour after 5 s where
// or-ils is within 3 %; on 100,000 cities its set-up takes well under a
// second, and or-ils beside it on 14 cores (then the CPU engine alone
// from the better tour) ended 0.05 % behind CPU auto at 20 s, while the
// companion leaves the CPU engine all its cores and only adds.
const AutoOrILSMinN = 200000

// solveAuto is the GPU auto engine. From AutoOrILSMinN cities: or-ils
// (GPU windows, global 2-opt and Or-opt passes on the CPU) with the CPU
// auto engine searching beside it to the end, the snapshots and the
// result carrying the better tour of the two. From AutoCompanionMinN to
// AutoOrILSMinN cities: the CPU auto engine with the or-ils windows as its
// companion (solveCompanion). Below, or for coordinates wider than
// or-ils's integer keys take (orSpanOK): the CPU auto engine alone when
// registered, else GPU 2opt-ils.
func solveAuto(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot) (solver.Result, error) {
	start := time.Now()
	if p.TimeLimit <= 0 {
		p.TimeLimit = solver.DefaultTimeLimit
	}
	cpu, err := solver.Lookup(AlgoAuto, solver.BackendCPU)
	hasCPU := err == nil && cpu.Available() == nil
	if in.N >= AutoOrILSMinN && orSpanOK(in) {
		// The CPU auto engine searches beside the GPU from the start (on
		// all cores but two, which the GPU's host thread and the global
		// passes use).
		side := hasCPU
		sideRes := make(chan solver.Result, 1)
		sctx, cancelSide := context.WithCancel(ctx)
		defer cancelSide()
		orSnaps, merged := snaps, func() {}
		if side {
			q := cpuParams(p)
			q.Start = nil
			if q.Workers == 0 {
				q.Workers = max(1, runtime.NumCPU()-2)
			}
			// both searches' snapshots reach snaps, each carrying the
			// best tour of either so far
			var sideSnaps chan solver.Snapshot
			orSnaps, sideSnaps, merged = mergeSnapshots(snaps)
			go func() {
				r, err := cpu.Solve(sctx, in, q, sideSnaps)
				if err != nil {
					r = solver.Result{}
				}
				sideRes <- r
			}()
		}
		ph, err := orILS(ctx, in, windowParams(p), orSnaps, start)
		var sr solver.Result
		if side {
			cancelSide()
			sr = <-sideRes
			merged()
		}
		if err != nil {
			return solver.Result{}, err
		}
		best, bestLen, device := ph.tour, ph.length, ph.device
		if sr.Tour != nil {
			device += " beside " + sr.Device
			if sr.Length < bestLen {
				best, bestLen = sr.Tour, sr.Length
				offerSnapshot(snaps, solver.Snapshot{Tour: best, Length: bestLen, Best: best, BestLength: bestLen, Moves: ph.moves + sr.Moves,
					Step: ph.steps + sr.Steps, Phase: solver.PhaseSearch, Elapsed: time.Since(start), Progress: float64(time.Since(start)) / float64(p.TimeLimit)})
			}
		}
		return solver.Finish(in, e, p, best, ph.moves+sr.Moves, ph.steps+sr.Steps, start, ph.stopped || ctx.Err() != nil, device)
	}
	if !hasCPU {
		r, err := twoOptILS(ctx, e, in, p, snaps, false)
		r.Algorithm = AlgoAuto
		return r, err
	}
	every, err := companionEvery(p)
	if err != nil {
		return solver.Result{}, err
	}
	if useCompanion(in, every) {
		return solveCompanion(ctx, e, cpu, in, p, snaps, start, every)
	}
	why := " below " + fmt.Sprint(AutoCompanionMinN) + " cities"
	if in.N >= AutoCompanionMinN {
		why = ""
	}
	r, err := cpu.Solve(ctx, in, cpuParams(p), snaps)
	if err != nil {
		return solver.Result{}, err
	}
	return solver.Finish(in, e, p, r.Tour, r.Moves, r.Steps, start, r.Stopped, r.Device+" (GPU auto: the CPU search alone"+why+")")
}
