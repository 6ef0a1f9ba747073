package solver

import (
	"context"
	"errors"
	"testing"
	"time"
)

// stopEngine is a fake engine that ends the way it is told: it waits for
// the context when wait is set, and reports stopped as given.
type stopEngine struct {
	tour    []int
	stopped bool
	wait    bool
	err     error
}

func (stopEngine) Name() string     { return "zz-stop" }
func (stopEngine) Backend() string  { return BackendGPU }
func (stopEngine) Describe() string { return "test engine" }
func (stopEngine) Available() error { return nil }
func (f stopEngine) Solve(ctx context.Context, in *Instance, p Params, _ chan Snapshot) (Result, error) {
	start := time.Now()
	if f.err != nil {
		return Result{}, f.err
	}
	if f.wait {
		<-ctx.Done()
	}
	return Finish(in, f, p, Outcome{Tour: f.tour, Moves: 1, Steps: 1, Start: start, Stopped: f.stopped, Device: "test"})
}

func TestRunStopReason(t *testing.T) {
	in := NewCoordInstance("sq", Euc2D, []float64{0, 3, 3, 0}, []float64{0, 0, 4, 4}, nil)
	good := []int{0, 1, 2, 3}  // length 14
	cross := []int{0, 2, 1, 3} // length 5+4+5+4 = 18
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	expired, cancel2 := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel2()
	cases := []struct {
		name string
		ctx  context.Context
		e    stopEngine
		p    Params
		want StopReason
	}{
		{"schedule ends", context.Background(), stopEngine{tour: good}, Params{}, StopDone},
		// A GPU engine that does not flag the target as an early stop.
		{"target, engine says not stopped", context.Background(), stopEngine{tour: good}, Params{Target: 14}, StopTarget},
		{"target below the tour", context.Background(), stopEngine{tour: cross}, Params{Target: 14}, StopDone},
		{"target and cancelled", cancelled, stopEngine{tour: good, stopped: true}, Params{Target: 20}, StopTarget},
		{"interrupt", cancelled, stopEngine{tour: cross, stopped: true}, Params{Target: 14, TimeLimit: time.Hour}, StopInterrupt},
		{"context deadline", expired, stopEngine{tour: cross, stopped: true}, Params{}, StopTime},
		{"own time budget", context.Background(), stopEngine{tour: cross, stopped: true}, Params{TimeLimit: time.Nanosecond}, StopTime},
		{"engine default budget", context.Background(), stopEngine{tour: cross, stopped: true}, Params{}, StopTime},
		{"cancelled after the schedule ended", cancelled, stopEngine{tour: cross}, Params{}, StopDone},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := Run(c.ctx, c.e, in, c.p, nil)
			if err != nil {
				t.Fatal(err)
			}
			if r.StopReason != c.want {
				t.Fatalf("StopReason %q, want %q", r.StopReason, c.want)
			}
			if r.Stopped != c.want.Early() {
				t.Fatalf("Stopped %v with reason %q", r.Stopped, r.StopReason)
			}
		})
	}
}

// targetEngine records the target it was given and returns tour.
type targetEngine struct {
	stopEngine
	got *int64
}

func (f targetEngine) Solve(ctx context.Context, in *Instance, p Params, snaps chan Snapshot) (Result, error) {
	*f.got = p.Target
	return f.stopEngine.Solve(ctx, in, p, snaps)
}

// With a known optimum, Run gives it to the engine as the target (unless
// the user's comes first), reports StopOptimum when a tour of that length
// was found, and keeps the user's target in Result.Params.
func TestRunStopsAtOptimum(t *testing.T) {
	in := NewCoordInstance("sq", Euc2D, []float64{0, 3, 3, 0}, []float64{0, 0, 4, 4}, nil)
	in.Optimum, in.OptimumSource = 14, "test"
	good := []int{0, 1, 2, 3}  // length 14
	cross := []int{0, 2, 1, 3} // length 18
	cases := []struct {
		name       string
		tour       []int
		target     int64
		wantTarget int64
		want       StopReason
	}{
		{"optimum reached", good, 0, 14, StopOptimum},
		{"optimum not reached", cross, 0, 14, StopDone},
		{"user's target first", good, 20, 20, StopTarget},
		{"user's target below the optimum", good, 10, 14, StopOptimum},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got int64
			r, err := Run(context.Background(), targetEngine{stopEngine{tour: c.tour}, &got}, in, Params{Target: c.target}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got != c.wantTarget || r.StopReason != c.want || r.Params.Target != c.target {
				t.Fatalf("engine's target %d, reason %q, reported target %d: want %d, %q, %d", got, r.StopReason, r.Params.Target, c.wantTarget, c.want, c.target)
			}
			if r.Stopped != c.want.Early() {
				t.Fatalf("Stopped %v with reason %q", r.Stopped, r.StopReason)
			}
		})
	}
	// Without a known optimum nothing changes.
	in.Optimum, in.OptimumSource = 0, ""
	var got int64
	if r, _ := Run(context.Background(), targetEngine{stopEngine{tour: good}, &got}, in, Params{}, nil); got != 0 || r.StopReason != StopDone {
		t.Fatalf("no optimum: target %d, reason %q", got, r.StopReason)
	}
}

func TestRunStopReasonError(t *testing.T) {
	in := NewCoordInstance("sq", Euc2D, []float64{0, 3, 3, 0}, []float64{0, 0, 4, 4}, nil)
	boom := errors.New("device lost")
	r, err := Run(context.Background(), stopEngine{err: boom}, in, Params{}, nil)
	if !errors.Is(err, boom) || r.StopReason != StopError {
		t.Fatalf("got %q, %v", r.StopReason, err)
	}
	// An invalid tour is an error too.
	r, err = Run(context.Background(), stopEngine{tour: []int{0, 1, 1, 3}}, in, Params{}, nil)
	if err == nil || r.StopReason != StopError {
		t.Fatalf("invalid tour: got %q, %v", r.StopReason, err)
	}
}

func TestFinishStopReasonWithoutContext(t *testing.T) {
	in := NewCoordInstance("sq", Euc2D, []float64{0, 3, 3, 0}, []float64{0, 0, 4, 4}, nil)
	e := stopEngine{}
	for _, c := range []struct {
		p       Params
		stopped bool
		reason  StopReason // the engine's own, when it knows
		want    StopReason
	}{
		{Params{}, false, "", StopDone},
		{Params{Target: 14}, false, "", StopTarget},
		{Params{Target: 13}, true, "", StopInterrupt},
		// why it stopped is the context's cause, which RunAided reads:
		// Finish knows the engine's own reason alone
		{Params{TimeLimit: time.Nanosecond}, true, "", StopInterrupt},
		// ended by its time limit before the deadline (a batch's end)
		{Params{TimeLimit: time.Hour}, true, StopTime, StopTime},
		{Params{TimeLimit: time.Hour}, true, "", StopInterrupt},
		{Params{Target: 14, TimeLimit: time.Hour}, true, StopTime, StopTarget},
	} {
		r, err := Finish(in, e, c.p, Outcome{Tour: []int{0, 1, 2, 3}, Start: time.Now().Add(-time.Millisecond), Stopped: c.stopped, Reason: c.reason, Device: "test"})
		if err != nil || r.StopReason != c.want {
			t.Errorf("%+v stopped=%v reason %q: %q %v, want %q", c.p, c.stopped, c.reason, r.StopReason, err, c.want)
		}
	}
}

func TestSinkSendPhase(t *testing.T) {
	ch := Latest()
	s := NewSink(ch, time.Hour, time.Now())
	s.SendPhase(PhaseNeighbours, 0.5)
	got := <-ch
	if got.Phase != PhaseNeighbours || got.PhaseProgress != 0.5 || got.Tour != nil || got.Best != nil {
		t.Fatalf("first phase snapshot: %+v", got)
	}
	s.SendPhase(PhaseNeighbours, 0.6) // same phase within the interval: dropped
	select {
	case got = <-ch:
		t.Fatalf("rate bound ignored: %+v", got)
	default:
	}
	s.SendPhase(PhaseStart, UnknownProgress) // a new phase always goes out
	if got = <-ch; got.Phase != PhaseStart || got.PhaseProgress >= 0 {
		t.Fatalf("new phase: %+v", got)
	}
}
