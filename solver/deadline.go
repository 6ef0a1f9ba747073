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
