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
// host (docs/PERF.md, "GPU or-ils"): on usa13509 and d18512 the CPU's
// sixteen global searches reach 1 % in 1.2–1.7 s, or-ils in 4–6 s (its
// windows of consecutive tour positions are thin strips on these tours),
// and or-ils then CPU auto ended worse at 30 s (0.71 % against 0.54 %).
const AutoOrILSMinN = 50000

// autoHandOverMaxN is the largest instance on which GPU auto hands a
// stalled or-ils tour to the CPU auto engine; above it the CPU search
// (sixteen full-size searches, candidate lists over every city) gains less
// in the time left than the GPU windows still do.
const autoHandOverMaxN = 200000

// solveAuto is the GPU auto engine. From AutoOrILSMinN cities: or-ils
// (GPU windows, global 2-opt passes on the CPU) until it stalls, then the
// CPU auto engine from its tour for the rest of the time (up to
// autoHandOverMaxN cities; above, or-ils to the end). Below
// AutoOrILSMinN: the CPU auto engine alone when registered, else GPU
// 2opt-ils.
func solveAuto(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot) (solver.Result, error) {
	start := time.Now()
	if p.TimeLimit <= 0 {
		p.TimeLimit = solver.DefaultTimeLimit
	}
	cpu, err := solver.Lookup(AlgoAuto, solver.BackendCPU)
	hasCPU := err == nil && cpu.Available() == nil
	if in.N >= AutoOrILSMinN {
		ph, err := orILS(ctx, in, p, snaps, start, hasCPU && in.N <= autoHandOverMaxN)
		if err != nil {
			return solver.Result{}, err
		}
		left := p.TimeLimit - time.Since(start)
		if !ph.stalled || left <= 0 || ctx.Err() != nil || (p.Target > 0 && ph.length <= p.Target) {
			return solver.Finish(in, e, p, ph.tour, ph.moves, ph.steps, start, ph.stopped, ph.device)
		}
		q := p
		q.Backend, q.Start, q.TimeLimit = solver.BackendCPU, ph.tour, left
		fwd, wait := shiftSnapshots(snaps, time.Since(start))
		r2, err := cpu.Solve(ctx, in, q, fwd)
		wait()
		if err != nil {
			return solver.Result{}, err
		}
		t := r2.Tour
		if ph.length < r2.Length {
			t = ph.tour
		}
		return solver.Finish(in, e, p, t, ph.moves+r2.Moves, ph.steps+r2.Steps, start, r2.Stopped,
			ph.device+"; then "+r2.Device)
	}
	if !hasCPU {
		r, err := twoOptILS(ctx, e, in, p, snaps, false)
		r.Algorithm = AlgoAuto
		return r, err
	}
	q := p
	q.Backend = solver.BackendCPU
	r, err := cpu.Solve(ctx, in, q, snaps)
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
			// keep the newest: replace an unread snapshot
			select {
			case snaps <- s:
				continue
			default:
			}
			select {
			case <-snaps:
			default:
			}
			select {
			case snaps <- s:
			default:
			}
		}
	}()
	return ch, func() { close(ch); <-done }
}
