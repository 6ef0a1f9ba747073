package device

import (
	"context"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// RunLoop is what every GPU engine's run shares: deadline, snapshot sink, best tour, target and stop reason.
type RunLoop struct {
	Ctx      context.Context
	In       *solver.Instance
	P        solver.Params // as the run reports them
	start    time.Time
	Deadline time.Time // zero: none
	Sink     *solver.Sink
	// plateau: offer keeps a tour as long as the best (an ILS's plateau moves)
	Plateau bool
	// Progress for snapshots (nil: the share of the time limit spent)
	Progress func() float64

	Best    []int
	BestLen int64 // -1: no tour yet
	// Steps (kicks, climbs or iterations) and moves evaluated
	Steps, Moves int64
	Stopped      bool           // ctx or the deadline ended the run
	Due          bool           // a snapshot follows the step under way
	Account      solver.Account // what the search did (solver.Result.Account)
	// Settings are what the engine chose for the run (solver.Result.Settings).
	Settings solver.Settings
}

// NewRunLoop starts a run's loop at start, until ctx's deadline, snapshots at most once per interval (0: the default).
func NewRunLoop(ctx context.Context, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot, start time.Time, interval time.Duration) *RunLoop {
	return &RunLoop{Ctx: ctx, In: in, P: p, start: start, Sink: solver.NewSink(snaps, interval, start), BestLen: -1,
		Deadline: solver.DeadlineOf(ctx, start)}
}

// Expired reports whether ctx has ended or the deadline has passed.
func (l *RunLoop) Expired() bool {
	return l.Ctx.Err() != nil || (!l.Deadline.IsZero() && !time.Now().Before(l.Deadline))
}

// Frac is the run's progress, from 0 to 1.
func (l *RunLoop) Frac() float64 {
	if l.Progress != nil {
		return l.Progress()
	}
	if l.Deadline.IsZero() || !l.Deadline.After(l.start) {
		return 0
	}
	return min(max(float64(time.Since(l.start))/float64(l.Deadline.Sub(l.start)), 0), 1)
}

// Offer measures t exactly and keeps a copy when shorter than the best (or equal, with plateau).
func (l *RunLoop) Offer(t []int) bool {
	return l.OfferLen(t, solver.TourLength(l.In, t))
}

// OfferLen is offer for a tour whose exact length is known.
func (l *RunLoop) OfferLen(t []int, length int64) bool {
	if l.BestLen >= 0 && (length > l.BestLen || (length == l.BestLen && !l.Plateau)) {
		return false
	}
	l.Best = append(l.Best[:0], t...)
	l.BestLen = length
	return true
}

// Reached reports whether the best tour meets the target.
func (l *RunLoop) Reached() bool {
	return l.P.Target > 0 && l.BestLen >= 0 && l.BestLen <= l.P.Target
}

// Snapshot sends the best tour and view's additions, else the best length or the phase.
func (l *RunLoop) Snapshot(view func(s *solver.Snapshot) error) error {
	f := l.Frac()
	s := solver.Snapshot{Phase: solver.PhaseSearch, PhaseProgress: f, Progress: f, Step: l.Steps, Moves: l.Moves}
	if l.Best != nil {
		s.Best = slices.Clone(l.Best)
	}
	if l.BestLen >= 0 {
		s.BestLength, s.Length = l.BestLen, l.BestLen
	}
	if view != nil {
		if err := view(&s); err != nil {
			return err
		}
	}
	if s.Best == nil && s.Tour == nil && l.BestLen < 0 {
		l.Sink.SendPhase(solver.PhaseSearch, f)
		return nil
	}
	l.Sink.Send(s)
	return nil
}

// Run calls step until done, the target or the run's end; a step begun with a snapshot due is followed by one.
func (l *RunLoop) Run(step func() (done bool, err error), view func(s *solver.Snapshot) error) error {
	for {
		if l.Expired() {
			l.Stopped = true
			return nil
		}
		l.Due = l.Sink.Due()
		done, err := step()
		if err != nil {
			return err
		}
		if l.Due {
			if err := l.Snapshot(view); err != nil {
				return err
			}
		}
		if done || l.Reached() {
			return nil
		}
	}
}

// Finish sends the last snapshot and returns the best tour through solver.Finish.
func (l *RunLoop) Finish(e solver.Engine, device string) (solver.Result, error) {
	l.Sink.Send(solver.Snapshot{Best: slices.Clone(l.Best), BestLength: l.BestLen, Length: l.BestLen, Step: l.Steps, Moves: l.Moves, Progress: 1})
	return solver.Finish(l.In, e, l.P, solver.Outcome{Tour: l.Best, Moves: l.Moves, Steps: l.Steps, Start: l.start, Stopped: l.Stopped, Device: device, Account: l.Account, Settings: l.Settings})
}

// Kick sets cur to the best tour with a segment-local double bridge.
func (l *RunLoop) Kick(cur []int, rng *rand.Rand) {
	copy(cur, l.Best)
	doubleBridge(cur, rng, 100)
}

// TourView shows cur, the tour in hand, beside the best.
func (l *RunLoop) TourView(cur []int) func(s *solver.Snapshot) error {
	return func(s *solver.Snapshot) error {
		s.Tour, s.Length = slices.Clone(cur), solver.TourLength(l.In, cur)
		return nil
	}
}
