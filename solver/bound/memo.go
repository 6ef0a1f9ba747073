package bound

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// memoKey is what makes two requests the same ascent.
type memoKey struct {
	in                   *solver.Instance
	neighbors, maxPeriod int
	device, boruvka      bool
	thorough             bool
}

// flight is one ascent, under way until done closes.
type flight struct {
	key  memoKey
	done chan struct{}
	res  Result
	err  error
}

// Ascents shares a pipeline's ascents: a request for one under way waits for it, and the last whole one is kept.
// The zero value is ready.
type Ascents struct {
	mu       sync.Mutex
	flights  []*flight
	finished *flight
}

var _ solver.Ascents = (*Ascents)(nil)

// join returns key's ascent under way or complete, or a new flight the caller leads.
func (memo *Ascents) join(key memoKey) (f *flight, leader bool) {
	memo.mu.Lock()
	defer memo.mu.Unlock()
	if f := memo.lookup(key); f != nil {
		return f, false
	}
	f = &flight{key: key, done: make(chan struct{})}
	memo.flights = append(memo.flights, f)
	return f, true
}

// lookup returns key's kept or running ascent (nil: neither; memo.mu held).
func (memo *Ascents) lookup(key memoKey) *flight {
	if f := memo.finished; f != nil && f.key == key {
		return f
	}
	if i := slices.IndexFunc(memo.flights, func(f *flight) bool { return f.key == key }); i >= 0 {
		return memo.flights[i]
	}
	return nil
}

// land records the leader's outcome and wakes the waiters; only a whole ascent is kept.
func (memo *Ascents) land(f *flight, res Result, err error) {
	memo.mu.Lock()
	defer memo.mu.Unlock()
	f.res, f.err = res, err
	f.res.g, f.res.kd = nil, nil // not needed after the computation
	memo.flights = slices.DeleteFunc(memo.flights, func(g *flight) bool { return g == f })
	if f.complete() {
		memo.finished = f
	}
	close(f.done)
}

// complete reports whether a landed flight is a whole ascent.
func (f *flight) complete() bool { return f.err == nil && !f.res.Stopped }

// await waits for f within ctx, stop and the time limit; ok false when f ended
// incomplete, err when the caller's limit ended first.
func await(ctx context.Context, stop <-chan struct{}, f *flight, start time.Time, limit time.Duration) (res Result, ok bool, err error) {
	var deadline <-chan time.Time
	if limit > 0 {
		t := time.NewTimer(time.Until(start.Add(limit)))
		defer t.Stop()
		deadline = t.C
	}
	select {
	case <-f.done:
		if !f.complete() {
			return Result{}, false, nil
		}
		res = f.res
		res.Elapsed, res.Shared = time.Since(start), true
		return res, true, nil
	case <-ctx.Done():
		return Result{}, false, ctx.Err()
	case <-stop:
		return Result{}, false, ErrStopped
	case <-deadline:
		return Result{}, false, fmt.Errorf("bound: no bound within the time limit of %v (waiting for the same ascent under way): %w", limit, context.DeadlineExceeded)
	}
}

// Underway reports whether a request for in with opts would be answered
// by an ascent another caller started (under way, or the last whole one
// kept) rather than run by the caller.
func (memo *Ascents) Underway(in *solver.Instance, opts solver.AscentOptions) bool {
	memo.mu.Lock()
	defer memo.mu.Unlock()
	return memo.lookup(keyOf(in, Options{Device: opts.Device})) != nil
}

// keyOf is the memo key of a request for in with opts.
func keyOf(in *solver.Instance, opts Options) memoKey {
	return memoKey{in: in, neighbors: opts.neighbors(in.N), maxPeriod: opts.MaxPeriod, device: opts.Device != nil,
		boruvka: opts.Boruvka, thorough: opts.thorough(in.N)}
}

// Compute is the package's Compute shared: see Ascents.
func (memo *Ascents) Compute(ctx context.Context, in *solver.Instance, opts Options) (Result, error) {
	return memo.StopAscent(ctx, nil, in, opts)
}

// StopAscent is the package's StopAscent run once for concurrent callers, a later one answered from the last whole ascent.
func (memo *Ascents) StopAscent(ctx context.Context, stop <-chan struct{}, in *solver.Instance, opts Options) (Result, error) {
	if in == nil || in.N <= 3 || opts.Progress != nil || ctx.Err() != nil {
		// nothing to share: one tour, or a caller following the ascent's progress
		return compute(ctx, stop, in, opts)
	}
	start := time.Now()
	key := keyOf(in, opts)
	for {
		f, leader := memo.join(key)
		if leader {
			left := opts.Time
			if left > 0 {
				if left -= time.Since(start); left <= 0 {
					memo.land(f, Result{}, context.DeadlineExceeded)
					return Result{}, fmt.Errorf("bound: no bound within the time limit of %v: %w", opts.Time, context.DeadlineExceeded)
				}
			}
			o := opts
			o.Time = left
			res, err := computeOnce(ctx, stop, in, o)
			memo.land(f, res, err)
			return res, err
		}
		res, ok, err := await(ctx, stop, f, start, opts.Time)
		if ok || err != nil {
			return res, err
		}
	}
}

// Alpha returns k alpha-nearness candidates per city from the shared ascent (from the cores when the accelerator fails).
func (memo *Ascents) Alpha(ctx context.Context, in *solver.Instance, k int, opts solver.AscentOptions) (solver.AlphaLists, error) {
	start := time.Now()
	res, err := memo.Compute(ctx, in, Options{Time: opts.Time, Device: opts.Device})
	if err != nil && opts.Device != nil && ctx.Err() == nil && !errors.Is(err, context.DeadlineExceeded) {
		// the accelerator failed: the cores run the ascent in the time left
		var o Options
		if opts.Time > 0 {
			o.Time = opts.Time - time.Since(start)
		}
		if opts.Time == 0 || o.Time > 0 {
			res, err = memo.Compute(ctx, in, o)
		}
	}
	if err != nil {
		return solver.AlphaLists{}, err
	}
	l, err := res.AlphaCandidatesContext(ctx, k)
	if err != nil {
		return solver.AlphaLists{}, err
	}
	st := solver.Stats{AscentIterations: res.Iterations, AscentOnGPU: res.Device, AscentTime: res.Elapsed}
	return solver.AlphaLists{K: l.K, List: l.List, Stats: st}, nil
}
