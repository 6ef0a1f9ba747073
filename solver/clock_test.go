package solver

import (
	"context"
	"errors"
	"testing"
	"time"
)

// limitEngine is a fake engine that declares a default time limit and
// records the params and the context's deadline its run was given.
type limitEngine struct {
	stopEngine
	limit    time.Duration
	got      *Params
	deadline *time.Time
	rechecks *int
}

func (f limitEngine) DefaultLimit(*Instance, Params) time.Duration { return f.limit }

func (f limitEngine) Solve(ctx context.Context, in *Instance, p Params, snaps chan Snapshot) (Result, error) {
	if _, ok := p.preparedFor(f, in); !ok {
		*f.rechecks++
	}
	*f.got = p
	*f.deadline, _ = ctx.Deadline()
	return f.stopEngine.Solve(ctx, in, p, snaps)
}

// RunAided gives a run without a time limit the engine's default, as the
// deadline of its context, keeps a limit the user gave, leaves a run
// whose engine declares none (0: its budget ends it) without one, keeps
// the mark of Prepare's check, and reports the limit and the time
// granted.
func TestRunAidedDefaultLimit(t *testing.T) {
	in := NewCoordInstance("sq", Euc2D, []float64{0, 3, 3, 0}, []float64{0, 0, 4, 4}, nil)
	cases := []struct {
		name         string
		given, deflt time.Duration
		want         time.Duration
	}{
		{"default", 0, 7 * time.Second, 7 * time.Second},
		{"given", 2 * time.Second, 7 * time.Second, 2 * time.Second},
		{"budget", 0, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got Params
			var deadline time.Time
			var rechecks int
			e := limitEngine{stopEngine{tour: []int{0, 1, 2, 3}}, c.deflt, &got, &deadline, &rechecks}
			p, err := Prepare(e, in, Params{TimeLimit: c.given})
			if err != nil {
				t.Fatal(err)
			}
			before := time.Now()
			res, err := RunAided(context.Background(), e, in, p, nil, Aid{}, false)
			if err != nil {
				t.Fatal(err)
			}
			if res.Limit != c.want || res.Granted > c.want || (c.want > 0 && res.Granted < c.want-time.Second) {
				t.Errorf("result's limit %v, granted %v: want %v", res.Limit, res.Granted, c.want)
			}
			if got.TimeLimit != c.given {
				t.Errorf("engine's limit %v, want the one given, %v", got.TimeLimit, c.given)
			}
			if c.want == 0 && !deadline.IsZero() {
				t.Errorf("a run without a limit has the deadline %v", deadline)
			}
			if c.want > 0 && (deadline.Before(before.Add(c.want)) || deadline.After(time.Now().Add(c.want))) {
				t.Errorf("deadline %v, not %v from the run's start", deadline.Sub(before), c.want)
			}
			if rechecks != 0 {
				t.Errorf("the engine's params lost Prepare's mark")
			}
		})
	}
}

// DefaultLimitOf gives no limit to an engine that declares no default.
func TestDefaultLimitOfNoLimiter(t *testing.T) {
	in := NewCoordInstance("sq", Euc2D, []float64{0, 3, 3, 0}, []float64{0, 0, 4, 4}, nil)
	if l := DefaultLimitOf(stopEngine{}, in, Params{}); l != 0 {
		t.Errorf("limit %v for an engine without a default", l)
	}
}

// A run's stop reason comes from its context's cause: the time limit its
// front end set (ErrTimeLimit), or RunAided's own from the limit in p,
// is a stop for time, though the front end granted less than the limit
// asked, which the result keeps beside the time granted; any other end
// of the context is an interrupt.
func TestRunStopReasonFromCause(t *testing.T) {
	in := NewCoordInstance("sq", Euc2D, []float64{0, 3, 3, 0}, []float64{0, 0, 4, 4}, nil)
	e := stopEngine{tour: []int{0, 2, 1, 3}, stopped: true, wait: true}
	front, cancel := context.WithTimeoutCause(context.Background(), 20*time.Millisecond, ErrTimeLimit)
	defer cancel()
	other := errors.New("the user pressed Stop")
	stopped, stop := context.WithCancelCause(context.Background())
	time.AfterFunc(20*time.Millisecond, func() { stop(other) })
	for _, c := range []struct {
		name           string
		ctx            context.Context
		p              Params
		want           StopReason
		limit, granted time.Duration // granted: at most
	}{
		{"front end's deadline", front, Params{TimeLimit: time.Hour}, StopTime, time.Hour, 20 * time.Millisecond},
		{"the run's own limit", context.Background(), Params{TimeLimit: 20 * time.Millisecond}, StopTime, 20 * time.Millisecond, 20 * time.Millisecond},
		{"cancelled with a cause", stopped, Params{}, StopInterrupt, 0, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := Run(c.ctx, e, in, c.p, nil)
			if err != nil {
				t.Fatal(err)
			}
			if r.StopReason != c.want || !r.Stopped {
				t.Errorf("stop reason %q (stopped %v), want %q", r.StopReason, r.Stopped, c.want)
			}
			if r.Limit != c.limit || r.Granted > c.granted || (c.granted > 0 && r.Granted <= 0) {
				t.Errorf("limit %v, granted %v: want %v and at most %v", r.Limit, r.Granted, c.limit, c.granted)
			}
		})
	}
}
