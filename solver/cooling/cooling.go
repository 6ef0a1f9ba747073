// Package cooling fits an annealing schedule to a time limit: the
// temperature steps of both backends' annealers, from t0 down to tend.
package cooling

import (
	"context"
	"math"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// Plan cools geometrically from T0 to TEnd: Lam et al.'s schedule without a budget, else re-aimed each step at TEnd
// for the budget's end. Engines call Next before every step and Done after the last.
type Plan struct {
	t0, tend, alpha float64
	iters           int64 // iterations per step as planned (Lam's N·Sp)
	n               int   // cities, to report sweeps
	budget          time.Duration

	stepIters int64   // iterations of the steps after the probe
	rate      float64 // smoothed iterations per second
	lastIters int64
	lastTime  time.Duration
	run       solver.ScheduleRun
}

// MinFittedSteps is the fewest steps of a fitted schedule.
const MinFittedSteps = 100

// probeShare is the share of a step the probe runs at T0 to measure the rate.
const probeShare = 10

// New returns the schedule from t0 to tend (Lam's alpha, iters a step) for n cities, fitted to budget (0: unchanged).
func New(t0, tend, alpha float64, iters int64, n int, budget time.Duration) *Plan {
	c := &Plan{t0: t0, tend: tend, alpha: alpha, iters: max(iters, 1), n: max(n, 1), budget: max(budget, 0)}
	c.run = solver.ScheduleRun{Fitted: c.budget > 0, T0: t0, TEnd: tend, LamAlpha: alpha, Sweeps: float64(c.iters) / float64(c.n)}
	if !c.run.Fitted {
		c.run.Alpha0, c.run.Alpha = alpha, alpha
	}
	return c
}

// Fitted reports whether the schedule is fitted to a time budget.
func (c *Plan) Fitted() bool { return c.budget > 0 }

// Reserve sets d of the budget aside for the final descent, once, after the probe.
func (c *Plan) Reserve(d time.Duration) {
	if c.budget > 0 && d > 0 {
		c.budget = max(c.budget-d, time.Nanosecond)
	}
}

// Next returns the factor to apply after the coming step at t and that step's iterations (iters, elapsed so far).
func (c *Plan) Next(t float64, iters int64, elapsed time.Duration) (alpha float64, stepIters int64) {
	if c.budget <= 0 {
		return c.alpha, c.iters
	}
	if iters <= 0 || elapsed <= 0 {
		// The probe: a short step at t, which stays where it is.
		return 1, max(1, c.iters/probeShare)
	}
	c.measure(iters, elapsed)
	left := c.budget - elapsed
	if c.stepIters == 0 {
		// After the probe: Lam's steps if the budget holds MinFittedSteps of them, else shorter.
		total := c.rate * c.budget.Seconds()
		c.stepIters = max(1, min(c.iters, int64(total/MinFittedSteps)))
		c.run.Sweeps = float64(c.stepIters) / float64(c.n)
	}
	alpha, settled := c.fit(t, left)
	if c.run.Alpha0 == 0 {
		c.run.Alpha0 = alpha
	}
	if settled || c.run.Alpha == 0 {
		c.run.Alpha = alpha
	}
	return alpha, c.stepIters
}

// measure updates the rate, weighted towards recent steps.
func (c *Plan) measure(iters int64, elapsed time.Duration) {
	di, dt := iters-c.lastIters, elapsed-c.lastTime
	if di <= 0 || dt <= 0 {
		return
	}
	r := float64(di) / dt.Seconds()
	if c.rate == 0 {
		c.rate = r
	} else {
		const w = 0.2
		c.rate = (1-w)*c.rate + w*r
	}
	c.lastIters, c.lastTime = iters, elapsed
}

// fit returns the factor taking t to tend in the steps left; settled is false in the last few steps.
func (c *Plan) fit(t float64, left time.Duration) (a float64, settled bool) {
	if t <= c.tend {
		return c.alpha, false
	}
	steps := c.rate * left.Seconds() / float64(c.stepIters)
	if steps <= 1 {
		// No time for more: this step is the last.
		return lastFactor(t, c.tend), false
	}
	// steps - 1 factors between the coming step's T and the last one's, just above tend
	a = math.Pow(c.tend/t, 1/(steps-1))
	return min(max(a, lastFactor(t, c.tend)), 1-1e-12), steps > 10
}

// lastFactor takes t just below tend, ending the schedule after the coming step.
func lastFactor(t, tend float64) float64 { return tend / t * (1 - 1e-9) }

// Done records the end of the cooling: steps run, the last at t.
func (c *Plan) Done(steps int64, t float64) {
	c.run.Steps, c.run.TLast = steps, t
}

// Run returns the description of the schedule so far.
func (c *Plan) Run() *solver.ScheduleRun {
	r := c.run
	return &r
}

// FitsToLimit reports whether an annealer fits its cooling to ctx's deadline: neither alpha nor sweeps given.
func FitsToLimit(ctx context.Context, p solver.Params) bool {
	_, ok := ctx.Deadline()
	return ok && !p.Given("alpha") && !p.Given("sweeps")
}
