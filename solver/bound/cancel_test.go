package bound

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// uniformInstance is n cities spread uniformly over a large square.
func uniformInstance(n int, seed uint64) *solver.Instance {
	rng := rand.New(rand.NewPCG(seed, 11))
	x, y := make([]float64, n), make([]float64, n)
	for i := range n {
		x[i], y[i] = float64(rng.IntN(10_000_000)), float64(rng.IntN(10_000_000))
	}
	return solver.NewCoordInstance("u", solver.Euc2D, x, y, nil)
}

// slack is how long a stopped computation may take to return beyond its
// limit or grace: generous (no wall-clock bound under 5 s), as the test
// machine may be busy and the race detector slows every phase; a phase
// that ignored the stop would take many times longer.
const slack = 5 * time.Second

// Cancelling ctx at any moment, in any phase, ends Compute promptly with
// ctx's error.
func TestComputeCancelReturnsPromptly(t *testing.T) {
	n := 200_000
	if testing.Short() {
		n = 50_000
	}
	in := uniformInstance(n, 1)
	pre, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Compute(pre, in, Options{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled before the start: error %v, want context.Canceled", err)
	}
	for _, after := range []time.Duration{50 * time.Millisecond, 400 * time.Millisecond, 1500 * time.Millisecond} {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			_, err := Compute(ctx, in, Options{})
			done <- err
		}()
		time.Sleep(after)
		cancel()
		at := time.Now()
		select {
		case err := <-done:
			if err != nil && !errors.Is(err, context.Canceled) {
				t.Errorf("cancelled after %v: error %v, want context.Canceled", after, err)
			}
		case <-time.After(slack):
			t.Fatalf("cancelled after %v: Compute still running %v later", after, slack)
		}
		t.Logf("cancelled after %v: returned in %v", after, time.Since(at))
	}
}

// A time limit is a hard limit: the result comes back within it (plus
// slack) and is either a proven bound or an error that says the limit
// passed.
func TestComputeTimeLimitIsHard(t *testing.T) {
	in := uniformInstance(200_000, 2)
	limit := 300 * time.Millisecond
	at := time.Now()
	res, err := Compute(context.Background(), in, Options{Time: limit})
	took := time.Since(at)
	if took > limit+slack {
		t.Fatalf("time limit %v: took %v", limit, took)
	}
	if err != nil {
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("error %v, want one wrapping context.DeadlineExceeded", err)
		}
		return
	}
	if res.Bound <= 0 || !res.Stopped {
		t.Fatalf("bound %d, stopped %v: want a bound cut short", res.Bound, res.Stopped)
	}
}

// Closing StopAscent's stop returns the best bound proven so far, or
// ErrStopped before the first one; either within StopGrace plus slack.
func TestStopAscentReturnsBestBound(t *testing.T) {
	small := uniformInstance(3000, 3)
	full, err := Compute(context.Background(), small, Options{MaxPeriod: 50})
	if err != nil {
		t.Fatal(err)
	}
	in := uniformInstance(100_000, 4)
	for _, after := range []time.Duration{10 * time.Millisecond, 2 * time.Second} {
		stop := make(chan struct{})
		type out struct {
			r   Result
			err error
		}
		done := make(chan out, 1)
		go func() {
			r, err := StopAscent(context.Background(), stop, in, Options{})
			done <- out{r, err}
		}()
		time.Sleep(after)
		close(stop)
		select {
		case o := <-done:
			switch {
			case errors.Is(o.err, ErrStopped):
			case o.err != nil:
				t.Errorf("stopped after %v: error %v", after, o.err)
			case o.r.Bound <= 0:
				t.Errorf("stopped after %v: bound %d", after, o.r.Bound)
			}
		case <-time.After(StopGrace + slack):
			t.Fatalf("stopped after %v: still running", after)
		}
	}
	// Stopping a small instance's run at once still gives a proven bound
	// no larger than the full computation's optimum-side bound allows.
	stop := make(chan struct{})
	close(stop)
	r, err := StopAscent(context.Background(), stop, small, Options{})
	if err != nil && !errors.Is(err, ErrStopped) {
		t.Fatal(err)
	}
	if err == nil && r.Bound > full.Bound {
		t.Errorf("stopped bound %d above the full ascent's %d", r.Bound, full.Bound)
	}
}
