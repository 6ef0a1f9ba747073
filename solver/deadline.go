package solver

import "time"

// WithDeadline returns p with its Deadline set to start plus its time
// limit, unless it has one or no time limit.
func (p Params) WithDeadline(start time.Time) Params {
	if p.Deadline.IsZero() && p.TimeLimit > 0 {
		p.Deadline = start.Add(p.TimeLimit)
	}
	return p
}

// DeadlineFrom is the deadline of a run or phase of p that starts at
// start: its Deadline (WithDeadline: start plus the time limit for a Go
// call outside the pipeline), never before start plus a millisecond, so
// that an engine still returns a tour; zero: none.
func (p Params) DeadlineFrom(start time.Time) time.Time {
	d := p.WithDeadline(start).Deadline
	if d.IsZero() {
		return d
	}
	return start.Add(max(d.Sub(start), time.Millisecond))
}

// LimitFrom is the time limit of a run or phase of p that starts at
// start: what is left of its Deadline, at least a millisecond, so that an
// engine still returns a tour rather than read 0 as no limit; without a
// Deadline, TimeLimit (0: none).
func (p Params) LimitFrom(start time.Time) time.Duration {
	if p.Deadline.IsZero() {
		return p.TimeLimit
	}
	return max(p.Deadline.Sub(start), time.Millisecond)
}

// DefaultLimiter is implemented by the engines without a natural end:
// DefaultLimit is the time limit of a run of p on in when p gives none,
// DefaultTimeLimit, or 0 where a budget in p (kicks, restarts) ends the
// run by itself.
type DefaultLimiter interface {
	DefaultLimit(in *Instance, p Params) time.Duration
}

// DefaultLimitOf is e's default time limit (DefaultLimiter) for a run of p
// on in when p gives neither a limit nor a deadline, else 0: the one place
// a run's limit is defaulted, so that no engine fills it in.
func DefaultLimitOf(e Engine, in *Instance, p Params) time.Duration {
	d, ok := e.(DefaultLimiter)
	if !ok || p.TimeLimit != 0 || !p.Deadline.IsZero() {
		return 0
	}
	return max(d.DefaultLimit(in, p), 0)
}
