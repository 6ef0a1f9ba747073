package climb

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/internal/gputest"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/neighbor"
)

// TestRunLoopKeepsTheBest walks the run loop through a short search by
// hand: an offered tour replaces the best only when shorter (or as long,
// with plateau), the best is a copy, a kick starts from the best, a due
// snapshot shows the tour in hand beside the best, and the result is the
// best tour with its exact length, the counters and the note.
func TestRunLoopKeepsTheBest(t *testing.T) {
	in := gputest.HostInstance(60, 7)
	e, err := solver.Lookup(AlgoTwoOptILS, solver.BackendGPU)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	snaps := make(chan solver.Snapshot, 1)
	l := device.NewRunLoop(context.Background(), in, solver.Params{TimeLimit: time.Hour}, snaps, time.Now(), time.Nanosecond)

	good := construct.Random(in.N, rng)
	device.Polish2Opt(in, good, neighbor.Nearest(in, 10))
	goodLen := solver.TourLength(in, good)
	if !l.Offer(good) || l.BestLen != goodLen || !slices.Equal(l.Best, good) {
		t.Fatalf("first offer: best %d, want %d", l.BestLen, goodLen)
	}
	if l.Offer(construct.Random(in.N, rng)) || l.BestLen != goodLen {
		t.Fatalf("a longer tour replaced the best: %d", l.BestLen)
	}
	if l.Offer(slices.Clone(good)) {
		t.Fatal("an equal tour replaced the best without plateau")
	}
	l.Plateau = true
	if !l.Offer(slices.Clone(good)) {
		t.Fatal("an equal tour did not replace the best with plateau")
	}
	good[0] = -1 // the best is a copy, not the caller's slice
	if l.Best[0] == -1 {
		t.Fatal("the best aliases the offered slice")
	}

	cur := make([]int, in.N)
	l.Kick(cur, rng)
	if err := solver.ValidateTour(cur, in.N); err != nil || slices.Equal(cur, l.Best) {
		t.Fatalf("kicked tour: %v (same as the best: %v)", err, slices.Equal(cur, l.Best))
	}
	l.Steps, l.Moves = 1, 10
	if err := l.Snapshot(l.TourView(cur)); err != nil {
		t.Fatal(err)
	}
	select {
	case s := <-snaps:
		if s.Phase != solver.PhaseSearch || s.BestLength != goodLen || s.Length != solver.TourLength(in, cur) || s.Step != 1 || s.Moves != 10 {
			t.Errorf("snapshot: phase %v, best %d (want %d), length %d (want %d), step %d, moves %d", s.Phase, s.BestLength, goodLen, s.Length, solver.TourLength(in, cur), s.Step, s.Moves)
		}
	default:
		t.Error("no snapshot sent")
	}
	l.Stopped, l.Account.Unfinished = true, true
	res, err := l.Finish(e, "test")
	if err != nil {
		t.Fatal(err)
	}
	if res.Length != goodLen || !res.Stopped || res.Steps != 1 || res.Moves != 10 || !res.Account.Unfinished {
		t.Errorf("result: length %d (want %d), stopped %v, steps %d, moves %d, account %+v", res.Length, goodLen, res.Stopped, res.Steps, res.Moves, res.Account)
	}
}

// TestRunLoopEnds: run ends when the step says done and at the target,
// neither counting as stopped; when ctx ends or the deadline passes it
// stops before the next step; a step's error ends it with that error.
func TestRunLoopEnds(t *testing.T) {
	in := gputest.HostInstance(60, 8)
	tourLen := solver.TourLength(in, construct.Random(in.N, rand.New(rand.NewPCG(3, 3))))
	for _, c := range []struct {
		name      string
		ctx       func() context.Context
		target    int64
		doneAt    int // the step that says done (0: none)
		failAt    int // the step that fails (0: none)
		wantSteps int
		stopped   bool
	}{
		{name: "done", ctx: context.Background, doneAt: 3, wantSteps: 3},
		{name: "target", ctx: context.Background, target: tourLen + 1e9, wantSteps: 1},
		{name: "cancelled", ctx: func() context.Context {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx
		}, wantSteps: 0, stopped: true},
		{name: "deadline", ctx: func() context.Context {
			// the run's one clock is its context's deadline, here already past
			ctx, cancel := context.WithDeadlineCause(context.Background(), time.Now().Add(-time.Nanosecond), solver.ErrTimeLimit)
			_ = cancel
			return ctx
		}, wantSteps: 0, stopped: true},
		{name: "error", ctx: context.Background, failAt: 2, wantSteps: 2},
	} {
		p := solver.Params{Target: c.target}
		l := device.NewRunLoop(c.ctx(), in, p, nil, time.Now().Add(-time.Millisecond), 0)
		steps := 0
		errStep := errors.New("step failed")
		err := l.Run(func() (bool, error) {
			steps++
			l.Offer(construct.Random(in.N, rand.New(rand.NewPCG(3, 3))))
			if steps == c.failAt {
				return false, errStep
			}
			return steps == c.doneAt, nil
		}, nil)
		if (err != nil) != (c.failAt > 0) || steps != c.wantSteps || l.Stopped != c.stopped {
			t.Errorf("%s: %d steps (want %d), stopped %v (want %v), error %v", c.name, steps, c.wantSteps, l.Stopped, c.stopped, err)
		}
		if c.doneAt == 0 && c.failAt == 0 && c.target == 0 && steps > 0 {
			t.Errorf("%s: the loop ran %d steps past its end", c.name, steps)
		}
	}
}
