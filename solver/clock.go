package solver

import (
	"context"
	"errors"
	"time"
)

// ErrTimeLimit is the cause of a run's context that ended at its time limit (WithTimeLimit).
var ErrTimeLimit = errors.New("time limit reached")

// WithTimeLimit is ctx ending limit from now with cause ErrTimeLimit, or at its own earlier deadline (limit 0: ctx).
func WithTimeLimit(ctx context.Context, limit time.Duration) (context.Context, context.CancelFunc) {
	if limit <= 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeoutCause(ctx, limit, ErrTimeLimit)
}

// DeadlineOf is the deadline of a run on ctx started at start, at least a millisecond after it (zero: none).
func DeadlineOf(ctx context.Context, start time.Time) time.Time {
	d, ok := ctx.Deadline()
	if !ok {
		return time.Time{}
	}
	return start.Add(max(d.Sub(start), time.Millisecond))
}

// LeftOf is what is left of ctx's deadline at start, at least a millisecond (0: no deadline).
func LeftOf(ctx context.Context, start time.Time) time.Duration {
	d := DeadlineOf(ctx, start)
	if d.IsZero() {
		return 0
	}
	return d.Sub(start)
}

// DefaultLimiter is an engine without a natural end: DefaultLimit is its limit when p gives none (0 where a budget ends the run).
type DefaultLimiter interface {
	DefaultLimit(in *Instance, p Params) time.Duration
}

// DefaultLimitOf is e's default time limit for a run of p on in, else 0: the one place a run's limit is defaulted.
func DefaultLimitOf(e Engine, in *Instance, p Params) time.Duration {
	d, ok := e.(DefaultLimiter)
	if !ok || p.TimeLimit != 0 {
		return 0
	}
	return max(d.DefaultLimit(in, p), 0)
}
