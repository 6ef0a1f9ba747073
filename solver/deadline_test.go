package solver

import (
	"context"
	"testing"
	"time"
)

// limitEngine is a fake engine that declares a default time limit and
// records the limit and deadline its run was given.
type limitEngine struct {
	stopEngine
	limit    time.Duration
	got      *Params
	rechecks *int
}

func (f limitEngine) DefaultLimit(*Instance, Params) time.Duration { return f.limit }

func (f limitEngine) Solve(ctx context.Context, in *Instance, p Params, snaps chan Snapshot) (Result, error) {
	if _, ok := p.preparedFor(f, in); !ok {
		*f.rechecks++
	}
	*f.got = p
	return f.stopEngine.Solve(ctx, in, p, snaps)
}

// RunAided gives a run without a time limit the engine's default, from a
// deadline it sets, keeps a limit the user gave, leaves a run whose
// engine declares none (0: its budget ends it) without one, and keeps
// the mark of Prepare's check.
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
			var rechecks int
			e := limitEngine{stopEngine{tour: []int{0, 1, 2, 3}}, c.deflt, &got, &rechecks}
			p, err := Prepare(e, in, Params{TimeLimit: c.given})
			if err != nil {
				t.Fatal(err)
			}
			before := time.Now()
			if _, err := RunAided(context.Background(), e, in, p, nil, Aid{}, false); err != nil {
				t.Fatal(err)
			}
			if got.TimeLimit != c.given {
				t.Errorf("engine's limit %v, want the one given, %v", got.TimeLimit, c.given)
			}
			if c.want == 0 && !got.Deadline.IsZero() {
				t.Errorf("a run without a limit has the deadline %v", got.Deadline)
			}
			if c.want > 0 && (got.Deadline.Before(before.Add(c.want)) || got.Deadline.After(time.Now().Add(c.want))) {
				t.Errorf("deadline %v, not %v from the run's start", got.Deadline.Sub(before), c.want)
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
