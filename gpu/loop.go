package gpu

import (
	"context"
	"maps"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// runLoop is what every GPU engine's run shares: the deadline, the snapshot
// sink, the best tour, the target and why the run ended. An engine hands
// run its step (one host round trip) and, to show more than the best
// tour, its view; finish reports through solver.Finish.
type runLoop struct {
	ctx      context.Context
	in       *solver.Instance
	p        solver.Params // as the run reports them
	start    time.Time
	deadline time.Time // zero: none
	sink     *solver.Sink
	// plateau: offer keeps a tour as long as the best (an ILS's plateau moves)
	plateau bool
	// progress for snapshots (nil: the share of the time limit spent)
	progress func() float64

	best    []int
	bestLen int64 // -1: no tour yet
	// steps (kicks, climbs or iterations) and moves evaluated
	steps, moves int64
	stopped      bool   // ctx or the deadline ended the run
	due          bool   // a snapshot follows the step under way
	note         string // one line for the user (solver.Result.Note)
}

// newRunLoop starts a run's loop at start: deadline p.TimeLimit later (none
// when 0), snapshots at most once per interval (0: the default).
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
// best (or as long, with plateau).
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

// snapshot sends the best tour and what view adds; with no tour, the best
// length or the phase alone.
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

// run calls step until it is done, the target is reached, or ctx or the
// deadline ends the run (stopped); a step that began when a snapshot was
// due (due) is followed by one.
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
// solver.Finish with the loop's counters and note.
func (l *runLoop) finish(e solver.Engine, device string) (solver.Result, error) {
	l.sink.Send(solver.Snapshot{Best: slices.Clone(l.best), BestLength: l.bestLen, Length: l.bestLen, Step: l.steps, Moves: l.moves, Progress: 1})
	r, err := solver.Finish(l.in, e, l.p, solver.Outcome{Tour: l.best, Moves: l.moves, Steps: l.steps, Start: l.start, Stopped: l.stopped, Device: device})
	r.Note = l.note
	return r, err
}

// kick sets cur to the best tour with a segment-local double bridge.
func (l *runLoop) kick(cur []int, rng *rand.Rand) {
	copy(cur, l.best)
	doubleBridge(cur, rng, 100)
}

// tourView shows cur, the tour in hand, beside the best.
func (l *runLoop) tourView(cur []int) func(s *solver.Snapshot) error {
	return func(s *solver.Snapshot) error {
		s.Tour, s.Length = slices.Clone(cur), solver.TourLength(l.in, cur)
		return nil
	}
}

// setOption sets p's option key to value on a copy of p.Extra, so that
// Result.Params reruns as the run ran.
func setOption(p *solver.Params, key, value string) {
	p.Extra = maps.Clone(p.Extra)
	_ = p.Set(key + "=" + value)
}
