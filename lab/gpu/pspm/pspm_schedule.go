package pspm

import (
	"math"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/cooling"
)

// pspmDescentShare is a fitted run's share of time for its final greedy descent.
const pspmDescentShare = 0.1

// pspmSegment is one annealing launch: iters per search from step origin, ips a step, the neighbour draw from nnStep,
// then a synchronisation when sync is set.
type pspmSegment struct {
	iters, origin, ips int64
	t0, alpha          float64
	nnStep             int64
	sync               bool
	steps              int64
}

// pspmSchedule splits a run into launches: Lam et al.'s schedule, or one fitted to the time limit (cooling.Plan, re-aimed
// every launch) then the descent at TEnd.
type pspmSchedule struct {
	p        solver.Anneal
	n        int
	draw     pspmDraw
	ips      int64 // Lam's iterations per step
	lamSteps int64
	fit      bool
	deadline time.Time

	begin     time.Time
	rate      float64       // iterations per search per second so far
	cool      *cooling.Plan // the fitted cooling, once the run turned to it
	t         float64       // fitted: the temperature of the next step
	steps0    int64         // fitted: Lam's steps run before it
	fitSteps  int64         // fitted: its steps run
	sinceSync int64
	tLast     float64
	descent   time.Time // when the descent began (zero: not yet)
	lastDone  time.Time
	coolFrom  float64          // the fitted cooling's hottest T (0: where Lam's schedule is)
	iter      int64            // iterations run per search
	now       func() time.Time // the clock (tests give their own)
}

func newPSPMSchedule(p solver.Anneal, n int, draw pspmDraw, fit bool, deadline time.Time) *pspmSchedule {
	return &pspmSchedule{p: p, n: n, draw: draw, ips: int64(n) * int64(p.Sweeps), lamSteps: int64(solver.ScheduleSteps(p)),
		fit: fit && !deadline.IsZero(), deadline: deadline, now: time.Now}
}

// next returns the launch after iter iterations in elapsed, at most budget.
func (s *pspmSchedule) next(iter int64, elapsed time.Duration, budget int64) (seg pspmSegment, ok bool) {
	if s.begin.IsZero() {
		s.begin = s.now().Add(-elapsed)
	}
	switch {
	case !s.descent.IsZero():
		left := s.deadline.Sub(s.now())
		if left <= 0 {
			return seg, false
		}
		it := max(1, min(budget, int64(s.rate*left.Seconds())))
		return pspmSegment{iters: it, origin: iter, ips: it, t0: s.p.TEnd, alpha: 1, nnStep: s.nnStep(s.p.TEnd, 1), sync: true}, true
	case s.cool != nil:
		return s.fitted(iter, elapsed, budget), true
	}
	total := s.lamSteps * s.ips
	if iter >= total {
		return seg, false
	}
	k := int64(max(1, s.p.K))
	syncAt := min(total, (iter/s.ips/k+1)*k*s.ips)
	end := min(syncAt, iter+budget)
	return pspmSegment{iters: end - iter, ips: s.ips, t0: s.p.T0, alpha: s.p.Alpha, nnStep: s.draw.fromStep, sync: end == syncAt}, true
}

// fitted returns the fitted cooling's next launch.
func (s *pspmSchedule) fitted(iter int64, elapsed time.Duration, budget int64) pspmSegment {
	a, si := s.cool.Next(s.t, iter, elapsed)
	m := max(1, budget/si)
	k := int64(max(1, s.p.K))
	m = min(m, k-s.sinceSync%k)
	if a < 1 {
		// steps while T > TEnd: the last one runs at T·a^(m-1) > TEnd
		m = min(m, max(1, int64(math.Ceil(math.Log(s.p.TEnd/s.t)/math.Log(a)))))
	} else {
		m = 1
	}
	end := s.t*math.Pow(a, float64(m)) <= s.p.TEnd
	return pspmSegment{iters: m * si, origin: iter, ips: si, t0: s.t, alpha: a, nnStep: s.nnStep(s.t, a),
		sync: end || (s.sinceSync+m)%k == 0, steps: m}
}

// nnStep is a segment's first step at or below the draw's nnfrom.
func (s *pspmSchedule) nnStep(t, a float64) int64 {
	from := s.draw.from
	if from <= 0 || t <= from || s.cool != nil {
		return 0
	}
	if a >= 1 {
		return math.MaxInt32
	}
	return int64(math.Ceil(math.Log(from/t) / math.Log(a)))
}

// done records a launch; true when the run turns to a fitted schedule.
func (s *pspmSchedule) done(seg pspmSegment, iter int64, elapsed time.Duration) (turned bool) {
	s.lastDone, s.iter = s.now(), iter
	if elapsed > 0 {
		s.rate = float64(iter) / elapsed.Seconds()
	}
	switch {
	case !s.descent.IsZero():
	case s.cool != nil:
		s.fitSteps += seg.steps
		s.sinceSync += seg.steps
		s.tLast = seg.t0 * math.Pow(seg.alpha, float64(seg.steps-1))
		s.t = seg.t0 * math.Pow(seg.alpha, float64(seg.steps))
		if s.t <= s.p.TEnd {
			s.cool.Done(s.steps0+s.fitSteps, s.tLast)
			s.descent = s.now()
		}
	case s.fit && s.rate > 0:
		left := float64(s.lamSteps*s.ips-iter) / s.rate
		if left > s.deadline.Sub(s.now()).Seconds() {
			s.turnFitted(iter, elapsed)
			return true
		}
	}
	return false
}

// turnFitted starts the fitted cooling from where Lam's schedule is.
func (s *pspmSchedule) turnFitted(iter int64, elapsed time.Duration) {
	total := elapsed + s.deadline.Sub(s.now())
	s.steps0 = iter / s.ips
	s.sinceSync = s.steps0
	s.t = s.p.T0 * math.Pow(s.p.Alpha, float64(s.steps0))
	if s.coolFrom > 0 {
		s.t = min(s.t, s.coolFrom)
	}
	s.cool = cooling.New(s.t, s.p.TEnd, s.p.Alpha, s.ips, s.n, time.Duration(float64(total)*(1-pspmDescentShare)))
}

// ended reports whether the schedule's cooling is over.
func (s *pspmSchedule) ended() bool { return !s.descent.IsZero() }

// steps is the temperature steps run.
func (s *pspmSchedule) steps() int64 {
	if s.cool != nil {
		return s.steps0 + s.fitSteps
	}
	return s.iter / s.ips
}

// temperature is the temperature of the step running now.
func (s *pspmSchedule) temperature() float64 {
	switch {
	case !s.descent.IsZero():
		return s.p.TEnd
	case s.cool != nil:
		return s.t
	}
	return s.p.T0 * math.Pow(s.p.Alpha, float64(s.iter/s.ips))
}

// progress is the part of the schedule run (of the time, when fitted).
func (s *pspmSchedule) progress() float64 {
	if s.cool != nil {
		return min(1, s.now().Sub(s.begin).Seconds()/s.deadline.Sub(s.begin).Seconds())
	}
	return min(1, float64(s.steps())/float64(max(1, s.lamSteps)))
}

// report describes the schedule that ran.
func (s *pspmSchedule) report() *solver.ScheduleRun {
	if s.cool == nil {
		c := cooling.New(s.p.T0, s.p.TEnd, s.p.Alpha, s.ips, s.n, 0)
		st := s.steps()
		if s.iter%s.ips != 0 {
			st++ // the step it stopped in
		}
		c.Done(st, s.p.T0*math.Pow(s.p.Alpha, float64(max(0, st-1))))
		return c.Run()
	}
	if s.descent.IsZero() {
		// stopped in the cooling
		s.cool.Done(s.steps0+s.fitSteps, s.tLast)
	}
	run := s.cool.Run()
	if !s.descent.IsZero() {
		run.Descent = s.lastDone.Sub(s.descent)
	}
	return run
}
