package solver

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// FixedEdgesKeeper is an engine whose every tour uses the fixed edges.
type FixedEdgesKeeper interface {
	KeepsFixedEdges() bool
}

// KeepsFixedEdges reports whether e keeps fixed edges in its tours.
func KeepsFixedEdges(e Engine) bool {
	k, ok := e.(FixedEdgesKeeper)
	return ok && k.KeepsFixedEdges()
}

// Run validates p, refuses fixed edges to an engine that does not keep them and runs e as RunAided does, stopping at
// a known optimum. Front ends use the pipeline (solver/session).
func Run(ctx context.Context, e Engine, in *Instance, p Params, snaps chan Snapshot) (Result, error) {
	if err := Validate(e, in, p); err != nil {
		return Result{StopReason: StopError}, err
	}
	if err := CheckFixedEdges(e, in); err != nil {
		return Result{StopReason: StopError}, err
	}
	return RunAided(ctx, e, in, p, snaps, Aid{}, true)
}

// CheckFixedEdges refuses fixed edges to an engine that does not keep them.
func CheckFixedEdges(e Engine, in *Instance) error {
	if len(in.FixedEdges) > 0 && !KeepsFixedEdges(e) {
		return fmt.Errorf("%s has %d fixed edges (FIXED_EDGES_SECTION) and %s/%s does not keep them: use auto or pop (CPU or GPU), or 2opt-ils or 3opt-ils on the CPU", in.Name, len(in.FixedEdges), e.Name(), e.Backend())
	}
	return nil
}

// RunAided solves in with e (with aid when it takes one), p checked, until ctx ends or the limit (p's, else e's default)
// passes, made ctx's deadline here; stopAtOptimum stops at a known optimum. It records why the run ended and the limit
// asked and time granted.
func RunAided(ctx context.Context, e Engine, in *Instance, p Params, snaps chan Snapshot, aid Aid, stopAtOptimum bool) (Result, error) {
	q := p
	stopAtOptimum = stopAtOptimum && in.Optimum > 0 && in.HasOptimum() && p.Target < in.Optimum
	if stopAtOptimum {
		q.Target = in.Optimum
	}
	limit := max(p.TimeLimit, DefaultLimitOf(e, in, p))
	ctx, cancel := WithTimeLimit(ctx, limit)
	defer cancel()
	granted := LeftOf(ctx, time.Now())
	res, err := SolveWith(ctx, e, in, q, snaps, aid)
	res.Limit, res.Granted = limit, granted
	// Prepare's config is for this run only
	res.Params.prepared = nil
	if stopAtOptimum {
		res.Params.Target = p.Target
	}
	if err != nil {
		res.StopReason = StopError
		return res, err
	}
	res.StopReason = runStopReason(ctx, p, in, res, stopAtOptimum)
	res.Stopped = res.StopReason.Early()
	return res, nil
}

// OptimalStart is a run's result when p's start is already as short as the known optimum (ok false otherwise).
func OptimalStart(e Engine, in *Instance, p Params) (res Result, ok bool, err error) {
	if len(p.Start) != in.N || in.Optimum <= 0 || !in.HasOptimum() || TourLength(in, p.Start) > in.Optimum {
		return Result{}, false, nil
	}
	res, err = Finish(in, e, p, Outcome{Tour: p.Start, Start: time.Now(), Stopped: true, Reason: StopOptimum, Device: e.Backend()})
	if err != nil {
		res.StopReason = StopError
		return res, true, err
	}
	res.Params.prepared = nil
	res.StopReason, res.Stopped = StopOptimum, true
	return res, true, nil
}

// runStopReason is why the run that gave res ended.
func runStopReason(ctx context.Context, p Params, in *Instance, res Result, stopAtOptimum bool) StopReason {
	switch {
	case p.Target > 0 && res.Length <= p.Target && len(res.Tour) > 0:
		return StopTarget
	case stopAtOptimum && res.Length <= in.Optimum && len(res.Tour) > 0:
		return StopOptimum
	case !res.Stopped:
		return StopDone
	case errors.Is(context.Cause(ctx), ErrTimeLimit), errors.Is(context.Cause(ctx), context.DeadlineExceeded):
		return StopTime
	case ctx.Err() != nil:
		return StopInterrupt
	}
	// the engine's own budget, or its deadline check before ctx's
	return StopTime
}
