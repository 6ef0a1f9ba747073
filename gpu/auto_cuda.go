//go:build cuda

package gpu

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// solveAuto is the GPU auto engine: the CPU auto engine (composed through
// solver.Aided) with its Held–Karp ascent on the GPU through aid's
// Ascents, from AutoBesideMinN cities or-ils's windows beside its
// partition search (besideWindows), and from AutoOrILSMinN cities or-ils
// before its first tour (solveEarly); without the CPU engine, or-ils or
// GPU 2opt-ils (planAuto).
func solveAuto(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot, aid solver.Aid) (solver.Result, error) {
	start := time.Now()
	if p.TimeLimit <= 0 {
		p.TimeLimit = solver.DefaultTimeLimit
	}
	aided, err := solver.LookupAided(AlgoAuto, solver.BackendCPU)
	hasCPU := err == nil
	plan := planAuto(in, hasCPU)
	switch {
	case plan.orOnly:
		return solveOrAlone(ctx, e, in, p, snaps, start)
	case !hasCPU:
		r, err := twoOptILS(ctx, e, in, p, snaps)
		r.Algorithm = AlgoAuto
		return r, err
	}
	p, note := autoLSStart(ctx, in, p, start, solver.NewSink(snaps, 0, start))
	// Pool: a population search of the CPU engine may put the GPU's block
	// search on its tours (kernels/blockils.cu)
	var pooled atomic.Bool // the engine's population took the GPU's block search
	cpuAid := solver.Aid{Device: BoundDevice, Ascents: aid.Ascents, Pool: func(in *solver.Instance, seed uint64) (solver.TourPool, error) {
		tp, err := OpenTourPool(in, seed)
		pooled.Store(err == nil)
		return tp, err
	}}
	if plan.beside {
		pw, share, err := besideWindows(in, p)
		if err != nil {
			return solver.Result{}, err
		}
		if pw != nil {
			defer pw.close()
			cpuAid.Paths, cpuAid.PathShare = pw, share
		}
	}
	if plan.early {
		r, err := solveEarly(ctx, e, aided, cpuAid, in, p, snaps, start)
		r.Note = joinNotes(r.Note, note)
		return r, err
	}
	r, err := aided.SolveAided(ctx, in, cpuParams(p, time.Since(start)), snaps, cpuAid)
	if err != nil {
		return solver.Result{}, err
	}
	if cpuAid.Paths == nil && !pooled.Load() {
		note = joinNotes(note, "GPU auto: the CPU search alone")
	}
	res, err := solver.Finish(in, e, p, solver.Outcome{Tour: r.Tour, Moves: r.Moves, Steps: r.Steps, Start: start, Stopped: r.Stopped, Device: r.Device, Note: joinNotes(r.Note, note)})
	res.Stats = r.Stats
	return res, err
}

// solveOrAlone is GPU auto without the CPU engine from AutoOrILSMinN
// cities: or-ils with GPU auto's window settings.
func solveOrAlone(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot, start time.Time) (solver.Result, error) {
	wo, err := autoOrOptions(p, in.N)
	if err != nil {
		return solver.Result{}, err
	}
	ph, err := orILS(ctx, in, windowParams(p), wo, snaps, start)
	if err != nil {
		return solver.Result{}, err
	}
	return solver.Finish(in, e, p, solver.Outcome{Tour: ph.tour, Moves: ph.moves, Steps: ph.steps, Start: start, Stopped: ph.stopped || ctx.Err() != nil, Device: ph.device})
}

// autoLSStart returns p with Params.Start set to a 2-opt + Or-opt local
// optimum found on the GPU (2opt-or, within autoLSDeadline: with a long
// limit the greedy tour itself) from AutoLSMinN cities, and a note for
// the result; p as it was when a start is given, the instance does not
// suit or the descent failed. The sink shows the phase, then the tour.
func autoLSStart(ctx context.Context, in *solver.Instance, p solver.Params, start time.Time, sink *solver.Sink) (solver.Params, string) {
	if p.Start != nil || in.N < AutoLSMinN || !orSpanOK(in) || len(in.FixedEdges) > 0 {
		return p, ""
	}
	sink.SendPhase(solver.PhaseStart, solver.UnknownProgress)
	t, st, err := glsDescent(ctx, in, nil, autoLSGreedy, p.Seed, autoLSDeadline(in.N, p.TimeLimit, start))
	if err != nil {
		return p, fmt.Sprintf("; the 2opt-or start failed: %v", err)
	}
	l := solver.TourLength(in, t)
	sink.Send(solver.Snapshot{Tour: t, Length: l, Best: t, BestLength: l, Phase: solver.PhaseStart, PhaseProgress: 1})
	p.Start = t
	if st.passes == 0 {
		return p, fmt.Sprintf("; from the GPU's %s start (%.0f ms)", glsStartName(false, st.rounds, st.frags), ms(st.setup))
	}
	return p, fmt.Sprintf("; from a 2opt-or start (%s start, %d passes, %.0f ms on the GPU)", glsStartName(false, st.rounds, st.frags), st.passes, ms(st.setup+st.search))
}

// solveEarly runs or-ils (from Params.Start, else the space-filling curve)
// while the CPU auto engine builds its lists and start tour, and stops it
// at the engine's first tour; snapshots and result carry the better tour.
func solveEarly(ctx context.Context, e solver.Engine, cpu solver.Aided, aid solver.Aid, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot, start time.Time) (solver.Result, error) {
	type orSide struct {
		ph  orPhase
		err error
	}
	orDone := make(chan orSide, 1)
	// the engine counts its time from its own start: it gets what is left
	// of the run's, and its snapshots' times are shifted to the run's
	spent := time.Since(start)
	orSnaps, engSnaps, merged := mergeSnapshots(snaps, spent)
	octx, stopOr := context.WithCancel(ctx)
	defer stopOr()
	first := make(chan struct{})
	go func() {
		select {
		case <-first:
		case <-octx.Done():
		}
		stopOr()
	}()
	go func() {
		wo, err := autoOrOptions(earlyParams(p), in.N)
		var ph orPhase
		if err == nil {
			ph, err = orILS(octx, in, earlyParams(p), wo, orSnaps, start)
		}
		orDone <- orSide{ph, err}
	}()
	aid.FirstTour = first
	r, err := cpu.SolveAided(ctx, in, cpuParams(p, spent), engSnaps, aid)
	stopOr()
	o := <-orDone
	merged()
	if err != nil {
		return solver.Result{}, err
	}
	note := r.Note
	best, moves := r.Tour, r.Moves
	st := r.Stats
	if o.err != nil {
		note = joinNotes(note, fmt.Sprintf("or-ils before its first tour stopped: %v", o.err))
	} else if o.ph.tour != nil {
		note = joinNotes(note, "or-ils gave the first tours")
		moves += o.ph.moves
		st.EarlyLength = o.ph.length
		if o.ph.length < r.Length {
			best = o.ph.tour
			st.EarlyKept = true
		}
	}
	res, err := solver.Finish(in, e, p, solver.Outcome{Tour: best, Moves: moves, Steps: r.Steps, Start: start, Stopped: r.Stopped || ctx.Err() != nil, Device: r.Device, Note: note})
	res.Stats = st
	return res, err
}

// besideWindows returns the GPU's windows for the CPU engine's partition
// search to hand stretches of its tour to (solver.Aid.Paths), nil when
// OptBeside is set to 0, and their first share (unset: 0, the partition
// search's own).
func besideWindows(in *solver.Instance, p solver.Params) (*pathWindows, float64, error) {
	share, err := solver.OptionsFor(AlgoAuto, solver.BackendGPU).Float(p, OptBeside)
	if err != nil || (p.Given(OptBeside) && share <= 0) {
		return nil, 0, err
	}
	wo, err := autoOrOptions(p, in.N)
	if err != nil {
		return nil, 0, err
	}
	return newPathWindows(in, wo, p.Seed), share, nil
}

// joinNotes joins two notes of a run into one line ("a; b"), either of
// which may be empty or start with "; ".
func joinNotes(a, b string) string {
	a, b = strings.TrimPrefix(a, "; "), strings.TrimPrefix(b, "; ")
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}
