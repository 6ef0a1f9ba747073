package cooling

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// simulate runs a schedule against a simulated clock: an iteration takes
// cost(iterations done) of time. It returns the steps run, the time when
// T passed tend and the last step's temperature.
func simulate(c *Plan, t0, tend float64, cost func(done int64) time.Duration) (steps int64, elapsed time.Duration, last float64) {
	var done int64
	t := t0
	for t > tend && steps < 1<<22 {
		a, k := c.Next(t, done, elapsed)
		for i := int64(0); i < k; i += 1000 {
			elapsed += time.Duration(min(1000, k-i)) * cost(done+i)
		}
		done += k
		steps++
		last = t
		t *= a
	}
	c.Done(steps, last)
	return steps, elapsed, last
}

func TestCoolingUnfittedIsLam(t *testing.T) {
	c := New(10000, 0.1, 0.99, 23920, 2392, 0)
	if c.Fitted() {
		t.Fatal("no budget: want Lam's schedule")
	}
	steps, _, _ := simulate(c, 10000, 0.1, func(int64) time.Duration { return time.Microsecond })
	want := solver.ScheduleSteps(solver.Anneal{T0: 10000, TEnd: 0.1, Alpha: 0.99})
	if steps != int64(want) {
		t.Fatalf("steps %d, want Lam's %d", steps, want)
	}
	r := c.Run()
	if r.Fitted || r.Alpha0 != 0.99 || r.Alpha != 0.99 || r.Sweeps != 10 || r.Steps != int64(want) {
		t.Fatalf("run %+v: want Lam's alpha 0.99, 10 sweeps, %d steps", *r, want)
	}
}

// A schedule that Lam's factor would take 10 s over (at 1 µs per
// iteration, 1146 steps of 23,920) is compressed into 5 s, and one that
// would take 27 s into 100 s is stretched: both end at their budget.
func TestCoolingEndsAtBudget(t *testing.T) {
	for _, budget := range []time.Duration{5 * time.Second, 100 * time.Second, 50 * time.Millisecond} {
		c := New(10000, 0.1, 0.99, 23920, 2392, budget)
		steps, elapsed, last := simulate(c, 10000, 0.1, func(int64) time.Duration { return time.Microsecond })
		if d := elapsed - budget; d < -budget/50 || d > budget/50 {
			t.Errorf("budget %v: ended at %v", budget, elapsed)
		}
		if last <= 0.1 || last > 0.1/c.Run().Alpha*1.0001 {
			t.Errorf("budget %v: last step at T %g, want just above tend", budget, last)
		}
		r := c.Run()
		if !r.Fitted || r.Steps != steps || steps < MinFittedSteps*9/10 {
			t.Errorf("budget %v: run %+v, %d steps", budget, *r, steps)
		}
		switch {
		case budget == 100*time.Second && !(r.Alpha0 > 0.99 && r.Sweeps == 10):
			t.Errorf("stretched: %+v, want alpha above Lam's at 10 sweeps", *r)
		case budget == 5*time.Second && !(r.Alpha0 < 0.99 && r.Sweeps == 10):
			t.Errorf("compressed: %+v, want alpha below Lam's at 10 sweeps", *r)
		case budget == 50*time.Millisecond && !(r.Sweeps < 10):
			t.Errorf("short budget: %+v, want shorter steps", *r)
		}
	}
}

// When the run slows down threefold halfway (another process takes the
// cores), the schedule re-aims and still ends near its budget, where a
// factor fixed from the first steps would overrun it by half.
func TestCoolingReestimates(t *testing.T) {
	budget := 4 * time.Second
	c := New(10000, 0.1, 0.99, 23920, 2392, budget)
	_, elapsed, _ := simulate(c, 10000, 0.1, func(done int64) time.Duration {
		if done > 1_000_000 {
			return 3 * time.Microsecond
		}
		return time.Microsecond
	})
	if d := elapsed - budget; d < -budget/20 || d > budget/20 {
		t.Fatalf("ended at %v of %v", elapsed, budget)
	}
	r := c.Run()
	if !(r.Alpha < r.Alpha0) {
		t.Fatalf("alpha %g → %g: want faster cooling after the slowdown", r.Alpha0, r.Alpha)
	}
}

// The probe runs at t0 and the factor stays in (0, 1), even when the
// budget is already spent.
func TestCoolingOutOfTime(t *testing.T) {
	c := New(100, 1, 0.9, 1000, 100, time.Millisecond)
	a, k := c.Next(100, 0, 0)
	if a != 1 || k != 100 {
		t.Fatalf("probe: alpha %g, %d iterations: want 1, 100", a, k)
	}
	a, _ = c.Next(100, 100, time.Second)
	if !(a > 0 && a < 1 && 100*a < 1) {
		t.Fatalf("out of time: alpha %g, want the last step", a)
	}
	if math.IsNaN(c.Run().Alpha) {
		t.Fatal("NaN alpha")
	}
}

// FitsToLimit fits a schedule to the deadline of the run's context, not
// to a time limit in its params, unless alpha or sweeps pin it.
func TestFitsToLimit(t *testing.T) {
	timed, cancel := solver.WithTimeLimit(context.Background(), time.Second)
	defer cancel()
	for _, c := range []struct {
		ctx  context.Context
		p    solver.Params
		want bool
	}{
		{timed, solver.Params{}, true},
		{context.Background(), solver.Params{}, false},
		{context.Background(), solver.Params{TimeLimit: time.Second}, false},
		{timed, solver.Params{Extra: map[string]string{"alpha": "0.99"}}, false},
		{timed, solver.Params{Extra: map[string]string{"sweeps": "10"}}, false},
		{timed, solver.Params{Extra: map[string]string{"sweeps": "0"}}, true},
		{timed, solver.Params{Extra: map[string]string{"t0": "100"}}, true},
	} {
		if got := FitsToLimit(c.ctx, c.p); got != c.want {
			t.Errorf("%+v: %v, want %v", c.p, got, c.want)
		}
	}
}
