//go:build cuda

package gpu

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/bound"
	"github.com/tsplab/tsplab/solver/construct"
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

// solveAuto is the GPU auto engine: the CPU auto engine on every core,
// and for coordinates or-ils's integer keys take (orSpanOK) and no fixed
// edges, from AutoOrILSMinN cities or-ils before the engine's first tour,
// and from AutoCompanionMinN the or-ils windows as the engine's companion
// when OptCompanion asks for them (solveCompanion). Without the CPU
// engine: or-ils from AutoOrILSMinN cities, GPU 2opt-ils below.
func solveAuto(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot) (solver.Result, error) {
	start := time.Now()
	if p.TimeLimit <= 0 {
		p.TimeLimit = solver.DefaultTimeLimit
	}
	cpu, err := solver.Lookup(AlgoAuto, solver.BackendCPU)
	hasCPU := err == nil && cpu.Available() == nil
	every, err := companionEvery(p)
	if err != nil {
		return solver.Result{}, err
	}
	if in.N >= AutoOrILSMinN && orSpanOK(in) {
		if !hasCPU {
			ph, err := orILS(ctx, in, windowParams(p), snaps, start)
			if err != nil {
				return solver.Result{}, err
			}
			return solver.Finish(in, e, p, solver.Outcome{Tour: ph.tour, Moves: ph.moves, Steps: ph.steps, Start: start, Stopped: ph.stopped || ctx.Err() != nil, Device: ph.device})
		}
		if len(in.FixedEdges) == 0 {
			return solveCompanion(ctx, e, cpu, in, p, snaps, start, every, true)
		}
	}
	if !hasCPU {
		r, err := twoOptILS(ctx, e, in, p, snaps, false)
		r.Algorithm = AlgoAuto
		return r, err
	}
	if useCompanion(in, every) {
		return solveCompanion(ctx, e, cpu, in, p, snaps, start, every, false)
	}
	why := " below " + fmt.Sprint(AutoCompanionMinN) + " cities"
	if in.N >= AutoCompanionMinN {
		why = "; --opt " + OptCompanion + "=S adds the GPU windows"
	}
	what := "the CPU search alone" // no GPU windows beside it
	q := cpuParams(p)
	note := alphaStart(ctx, in, p, &q, start)
	// the ascent behind the engine's alpha-nearness lists, where it takes
	// them, on the GPU
	r, err := cpu.Solve(bound.WithDevice(ctx, BoundDevice), in, q, snaps)
	if err != nil {
		return solver.Result{}, err
	}
	if strings.Contains(r.Device, "ascent iterations on the GPU") {
		what = "the CPU search on alpha-nearness lists of an ascent on the GPU"
	}
	return solver.Finish(in, e, p, solver.Outcome{Tour: r.Tour, Moves: r.Moves, Steps: r.Steps, Start: start, Stopped: r.Stopped, Device: r.Device + " (GPU auto: " + what + note + why + ")"})
}

// alphaStart gives the CPU auto engine's parameters q the greedy tour on
// alpha-nearness lists of a Held–Karp ascent on the GPU as their start,
// from AutoAlphaStartMinN to AutoOrILSMinN cities (OptAlphaStart), and
// the rest of the time limit from start. It returns the device line's
// note, "" where it did not: on any failure (or no time for the ascent)
// the engine builds its own start tour as without it.
func alphaStart(ctx context.Context, in *solver.Instance, p solver.Params, q *solver.Params, start time.Time) string {
	if in.N < AutoAlphaStartMinN || in.N >= AutoOrILSMinN || p.Start != nil || p.Extra[OptAlphaStart] != "on" {
		return ""
	}
	res, err := bound.Compute(ctx, in, bound.Options{Time: p.TimeLimit / 10, Device: BoundDevice})
	if err != nil {
		return ""
	}
	l, err := res.AlphaCandidates(alphaStartK)
	if err != nil {
		return ""
	}
	t, err := construct.GreedyContext(ctx, in, l)
	if err != nil {
		return ""
	}
	q.Start = construct.KeepFixed(in, t)
	q.TimeLimit = max(p.TimeLimit-time.Since(start), time.Nanosecond)
	return fmt.Sprintf(" from the greedy tour on alpha-nearness lists of %d ascent iterations on the GPU (%.2f s)", res.Iterations, time.Since(start).Seconds())
}

// alphaStartK is the alpha-nearness candidates per city of alphaStart's
// greedy tour: the CPU engines' list size.
const alphaStartK = 8
