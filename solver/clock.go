package solver

import (
	"context"
	"errors"
	"time"
)

// ErrTimeLimit is the cause (context.Cause) of a run's context that ended
// at its time limit: the front end that starts a run sets its deadline
// with it, once (WithTimeLimit).
var ErrTimeLimit = errors.New("time limit reached")

// WithTimeLimit is ctx ending limit from now with the cause ErrTimeLimit,
// or at ctx's own deadline when that comes first; limit 0: ctx, which
// then only ends as the caller ends it.
func WithTimeLimit(ctx context.Context, limit time.Duration) (context.Context, context.CancelFunc) {
	if limit <= 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeoutCause(ctx, limit, ErrTimeLimit)
}

// DeadlineOf is the deadline of a run or phase on ctx that starts at
// start, never before start plus a millisecond, so that an engine still
// returns a tour; zero: none.
func DeadlineOf(ctx context.Context, start time.Time) time.Time {
	d, ok := ctx.Deadline()
	if !ok {
		return time.Time{}
	}
	return start.Add(max(d.Sub(start), time.Millisecond))
}

// LeftOf is what is left of ctx's deadline at start, at least a
// millisecond, so that an engine still returns a tour rather than read 0
// as no limit; 0: no deadline.
func LeftOf(ctx context.Context, start time.Time) time.Duration {
	d := DeadlineOf(ctx, start)
	if d.IsZero() {
		return 0
	}
	return d.Sub(start)
}

// DefaultLimiter is implemented by the engines without a natural end:
// DefaultLimit is the time limit of a run of p on in when p gives none,
// DefaultTimeLimit, or 0 where a budget in p (kicks, restarts) ends the
// run by itself.
type DefaultLimiter interface {
	DefaultLimit(in *Instance, p Params) time.Duration
}

// DefaultLimitOf is e's default time limit (DefaultLimiter) for a run of p
// on in when p gives none, else 0: the one place a run's limit is
// defaulted, so that no engine fills it in.
func DefaultLimitOf(e Engine, in *Instance, p Params) time.Duration {
	d, ok := e.(DefaultLimiter)
	if !ok || p.TimeLimit != 0 {
		return 0
	}
	return max(d.DefaultLimit(in, p), 0)
}
