package gpu

import (
	"context"
	"maps"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// runLoop is what every GPU engine's run shares, as the CPU engines share
// their control: the deadline, the snapshot sink, the best tour, the
// target and why the run ended. An engine sets up its device state, then
// hands run its step (one host round trip) and, when a snapshot should
// show more than the best tour, its view (a download); finish reports the
// best tour through solver.Finish.
type runLoop struct {
	ctx      context.Context
	in       *solver.Instance
	p        solver.Params // as the run reports them
	start    time.Time
	deadline time.Time // zero: none
	sink     *solver.Sink
	// plateau makes offer keep a tour as long as the best: an iterated
	// local search moves along a plateau that way.
	plateau bool
	// progress is the run's progress for snapshots (nil: the share of the
	// time limit spent).
	progress func() float64

	best    []int
	bestLen int64 // -1: no tour yet
	// steps and moves are the engine's counters (kicks, climbs or
	// iterations; moves evaluated), for the snapshots and the result.
	steps, moves int64
	stopped      bool   // ctx or the deadline ended the run
	due          bool   // a snapshot follows the step under way
	note         string // one line for the user (solver.Result.Note)
}

// newRunLoop starts a run's loop at start: its deadline is p.TimeLimit
// from start (none when 0), its snapshots go to snaps at most once per
// interval (0: solver.DefaultSnapshotInterval).
func newRunLoop(ctx context.Context, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot, start time.Time, interval time.Duration) *runLoop {
	l := &runLoop{ctx: ctx, in: in, p: p, start: start, sink: solver.NewSink(snaps, interval, start), bestLen: -1}
	if p.TimeLimit > 0 {
		l.deadline = start.Add(p.TimeLimit)
	}
	return l
}

// expired reports whether ctx has ended or the deadline has passed.
func (l *runLoop) expired() bool {
	return l.ctx.Err() != nil || (!l.deadline.IsZero() && !time.Now().Before(l.deadline))
}

// frac is the run's progress, from 0 to 1.
func (l *runLoop) frac() float64 {
	if l.progress != nil {
		return l.progress()
	}
	if l.p.TimeLimit <= 0 {
		return 0
	}
	return min(max(float64(time.Since(l.start))/float64(l.p.TimeLimit), 0), 1)
}

// offer measures t exactly and keeps a copy when it is shorter than the
// best (or as long, with plateau); it reports whether it kept t.
func (l *runLoop) offer(t []int) bool {
	return l.offerLen(t, solver.TourLength(l.in, t))
}

// offerLen is offer for a tour whose exact length is known.
func (l *runLoop) offerLen(t []int, length int64) bool {
	if l.bestLen >= 0 && (length > l.bestLen || (length == l.bestLen && !l.plateau)) {
		return false
	}
	l.best = append(l.best[:0], t...)
	l.bestLen = length
	return true
}

// reached reports whether the best tour meets the target.
func (l *runLoop) reached() bool {
	return l.p.Target > 0 && l.bestLen >= 0 && l.bestLen <= l.p.Target
}

// snapshot sends a search snapshot: the best tour, and what view adds
// (the tour in hand); with no tour to show, the best length alone, and
// before the first tour, the phase alone.
func (l *runLoop) snapshot(view func(s *solver.Snapshot) error) error {
	f := l.frac()
	s := solver.Snapshot{Phase: solver.PhaseSearch, PhaseProgress: f, Progress: f, Step: l.steps, Moves: l.moves}
	if l.best != nil {
		s.Best = slices.Clone(l.best)
	}
	if l.bestLen >= 0 {
		s.BestLength, s.Length = l.bestLen, l.bestLen
	}
	if view != nil {
		if err := view(&s); err != nil {
			return err
		}
	}
	if s.Best == nil && s.Tour == nil && l.bestLen < 0 {
		l.sink.SendPhase(solver.PhaseSearch, f)
		return nil
	}
	l.sink.Send(s)
	return nil
}

// run calls step until it reports done, the target is reached, or ctx or
// the deadline ends the run (stopped). A snapshot (view: see snapshot)
// follows each step that began when one was due; due tells the step so,
// for engines that take their tour from the device only then.
func (l *runLoop) run(step func() (done bool, err error), view func(s *solver.Snapshot) error) error {
	for {
		if l.expired() {
			l.stopped = true
			return nil
		}
		l.due = l.sink.Due()
		done, err := step()
		if err != nil {
			return err
		}
		if l.due {
			if err := l.snapshot(view); err != nil {
				return err
			}
		}
		if done || l.reached() {
			return nil
		}
	}
}

// finish sends the last snapshot and returns the best tour through
// solver.Finish (validated, its length recomputed), with the loop's
// counters and note.
func (l *runLoop) finish(e solver.Engine, device string) (solver.Result, error) {
	l.sink.Send(solver.Snapshot{Best: slices.Clone(l.best), BestLength: l.bestLen, Length: l.bestLen, Step: l.steps, Moves: l.moves, Progress: 1})
	r, err := solver.Finish(l.in, e, l.p, solver.Outcome{Tour: l.best, Moves: l.moves, Steps: l.steps, Start: l.start, Stopped: l.stopped, Device: device})
	r.Note = l.note
	return r, err
}

// kick sets cur to the best tour with a segment-local double bridge (the
// iterated local searches' kick).
func (l *runLoop) kick(cur []int, rng *rand.Rand) {
	copy(cur, l.best)
	doubleBridge(cur, rng, 100)
}

// tourView is a snapshot view that shows cur, the tour in hand, beside
// the best.
func (l *runLoop) tourView(cur []int) func(s *solver.Snapshot) error {
	return func(s *solver.Snapshot) error {
		s.Tour, s.Length = slices.Clone(cur), solver.TourLength(l.in, cur)
		return nil
	}
}

// setOption sets p's option key to value (as --opt key=value does), on a
// copy of p's Extra, which the caller's Params share: an engine records
// what it chose so that Result.Params reruns as it ran, GPU auto sets its
// windows' settings.
func setOption(p *solver.Params, key, value string) {
	p.Extra = maps.Clone(p.Extra)
	_ = p.Set(key + "=" + value)
}
