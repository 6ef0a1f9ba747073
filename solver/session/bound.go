package session

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/bound"
)

// boundRun is a lower bound computed while the engine runs.
type boundRun struct {
	stop    chan struct{}
	stopped sync.Once
	done    chan boundOutcome
}

type boundOutcome struct {
	r   bound.Result
	err error
}

// startBound starts the lower bound of in beside a run within BoundShare
// of limit (0: until stopped), on dev when not nil (the cores when the
// device fails), through the pipeline's ascents, which the engine's alpha
// lists share; on, when not nil, receives a bound once proven.
func (pl *Pipeline) startBound(ctx context.Context, in *solver.Instance, dev solver.OpenAscentDevice, limit time.Duration, on func(bound.Result)) *boundRun {
	b := &boundRun{stop: make(chan struct{}), done: make(chan boundOutcome, 1)}
	start := time.Now()
	opts := boundOptions(dev, limit)
	share := opts.Time
	// not ctx: an interrupt ends the run, and end then stops the bound,
	// which returns the best one proven by then
	bctx := context.WithoutCancel(ctx)
	go func() {
		r, err := pl.ascents.StopAscent(bctx, b.stop, in, opts)
		if err != nil && opts.Device != nil && BoundFailed(err) {
			opts.Device = nil
			if limit > 0 {
				opts.Time = share - time.Since(start)
			}
			if limit == 0 || opts.Time > 0 {
				r, err = pl.ascents.StopAscent(bctx, b.stop, in, opts)
			}
		}
		if err == nil && on != nil {
			on(r)
		}
		b.done <- boundOutcome{r, err}
	}()
	return b
}

// boundOptions are the bound's options beside a run of time limit limit
// on dev (nil: the cores): the one policy of every front end.
func boundOptions(dev solver.OpenAscentDevice, limit time.Duration) bound.Options {
	// Thorough: the gap shown is measured against it; below
	// bound.ThoroughMaxN cities it is an ascent of its own beside the
	// alpha lists' quicker one, a fraction of a second on a core.
	opts := bound.Options{Time: time.Duration(float64(limit) * BoundShare), Thorough: true}
	if dev != nil {
		opts.Device = dev
	}
	return opts
}

// end stops the bound.
func (b *boundRun) end() { b.stopped.Do(func() { close(b.stop) }) }

// result stops the bound and returns it if it is ready within BoundWait
// (nil and no error when it is not ready).
func (b *boundRun) result() (*bound.Result, error) {
	b.end()
	select {
	case o := <-b.done:
		if o.err != nil {
			return nil, o.err
		}
		return &o.r, nil
	case <-time.After(BoundWait):
		return nil, nil
	}
}

// BoundFailed reports whether err is a failure of the bound computation
// rather than its time running out or a stop.
func BoundFailed(err error) bool {
	return !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) && !errors.Is(err, bound.ErrStopped)
}

// boundAfter computes a bound after the run within limit, on dev first
// when not nil, then on the cores; ctx's end stops it with the best bound
// proven by then.
func (pl *Pipeline) boundAfter(ctx context.Context, in *solver.Instance, dev solver.OpenAscentDevice, limit time.Duration) (*bound.Result, error) {
	opts := bound.Options{Time: limit, Device: dev, Thorough: true}
	start := time.Now()
	r, err := bound.UntilDone(ctx, pl.ascents.StopAscent, in, opts)
	if err != nil && dev != nil && ctx.Err() == nil && BoundFailed(err) {
		opts.Time -= time.Since(start) // limit bounds both tries together
		if opts.Time <= 0 {
			opts.Time = time.Nanosecond // no time left: no second try
		}
		opts.Device = nil
		r, err = bound.UntilDone(ctx, pl.ascents.StopAscent, in, opts)
	}
	if err != nil {
		return nil, err
	}
	return &r, nil
}
