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
// engine; below it the CPU auto engine runs alone. Measured on the H100
// host (docs/PERF.md, "GPU or-ils and the ttq suite"): on usa13509 and
// d18512 the CPU's sixteen global searches reach 1 % in 1.2–1.7 s, or-ils
// in 4–6 s (its windows of consecutive tour positions are thin strips on
// these tours); on pla85900 or-ils with CPU auto beside it ended at 1.04 %
// after 60 s against 1.00 % for CPU auto alone; on 100,000 uniform cities
// at 1.15 % against 1.29 %, on 1,000,000 at 1.9 % against 11.4 %. With
// the CPU auto engine's partition search (from 15,000 cities) both sides
// gained: on 100,000 uniform cities GPU auto (or-ils beside the partition
// search, then the partition search) ended at 1.01 %, CPU auto at 1.04 %;
// below AutoOrILSMinN GPU auto is the CPU auto engine, so equal to it.
const AutoOrILSMinN = 100000

// autoHandOverMaxN is the largest instance on which GPU auto hands a
// stalled or-ils tour to the CPU auto engine (which starts its set-up
// again, candidate lists over every city); above it or-ils and the CPU
// auto engine beside it both run to the end and the better tour is kept.
// The CPU side is there since the partition search: on 1,000,000 uniform
// cities CPU auto alone reached 1.40 % at 30 s where or-ils had 2.09 %
// (docs/PERF.md, "CPU partition search").
const autoHandOverMaxN = 200000

// solveAuto is the GPU auto engine. From AutoOrILSMinN cities: or-ils
// (GPU windows, global 2-opt and Or-opt passes on the CPU) with the CPU
// auto engine searching beside it, the snapshots carrying the better
// tour of the two; up to autoHandOverMaxN cities, when or-ils stalls,
// the CPU auto engine goes on from the better tour for the rest of the
// time (above it, both to the end). From AutoCompanionMinN to
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
		// passes use); up to autoHandOverMaxN cities, when or-ils stalls,
		// the better of the two tours goes on in the CPU auto engine.
		side := hasCPU
		handOver := side && in.N <= autoHandOverMaxN
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
		ph, err := orILS(ctx, in, p, orSnaps, start, handOver)
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
		moves, steps := ph.moves+sr.Moves, ph.steps+sr.Steps
		if sr.Tour != nil {
			device += " beside " + sr.Device
			if sr.Length < bestLen {
				best, bestLen = sr.Tour, sr.Length
				offerSnapshot(snaps, solver.Snapshot{Tour: best, Length: bestLen, Best: best, BestLength: bestLen, Moves: moves, Step: steps,
					Phase: solver.PhaseSearch, Elapsed: time.Since(start), Progress: float64(time.Since(start)) / float64(p.TimeLimit)})
			}
		}
		left := p.TimeLimit - time.Since(start)
		if !ph.stalled || left <= 0 || ctx.Err() != nil || (p.Target > 0 && bestLen <= p.Target) {
			return solver.Finish(in, e, p, best, moves, steps, start, ph.stopped || left <= 0 || ctx.Err() != nil, device)
		}
		q := cpuParams(p)
		q.Start, q.TimeLimit = best, left
		fwd, wait := shiftSnapshots(snaps, time.Since(start))
		r2, err := cpu.Solve(ctx, in, q, fwd)
		wait()
		if err != nil {
			return solver.Result{}, err
		}
		t := r2.Tour
		if bestLen < r2.Length {
			t = best
		}
		return solver.Finish(in, e, p, t, moves+r2.Moves, steps+r2.Steps, start, r2.Stopped, device+"; then "+r2.Device)
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
	r, err := cpu.Solve(ctx, in, cpuParams(p), snaps)
	if err != nil {
		return solver.Result{}, err
	}
	return solver.Finish(in, e, p, r.Tour, r.Moves, r.Steps, start, r.Stopped, r.Device+" (GPU auto: CPU search below "+fmt.Sprint(AutoOrILSMinN)+" cities)")
}

// shiftSnapshots returns a channel whose snapshots reach snaps with
// offset added to Elapsed (a later phase's snapshots count from the run's
// start), and a function that closes it and waits until the last one is
// forwarded. A nil snaps gives a nil channel.
func shiftSnapshots(snaps chan solver.Snapshot, offset time.Duration) (chan solver.Snapshot, func()) {
	if snaps == nil {
		return nil, func() {}
	}
	ch := solver.Latest()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for s := range ch {
			s.Elapsed += offset
			offerSnapshot(snaps, s)
		}
	}()
	return ch, func() { close(ch); <-done }
}
