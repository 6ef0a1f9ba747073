package ils

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tsplab/tsplab/internal/runctl"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/strategy"
)

// TestAutoWindows: with the windows option auto's partition search hands
// over to the windows, whose tour is the run's result (checked and
// measured again by the engine contract); with it off, none do.
func TestAutoWindows(t *testing.T) {
	if testing.Short() {
		t.Skip("a run of 50,000 cities")
	}
	in := uniformInstance(strategy.WindowsMinN, 31)
	p := solver.Params{TimeLimit: 8 * time.Second, Seed: 1, Workers: 2, Config: func(o *ilsOptions) {
		o.win.mode, o.win.rate, o.win.start, o.win.slice = strategy.On, 0, 0, 1000
	}}
	e, _ := solver.Lookup("auto", solver.BackendCPU)
	res, err := solver.RunAided(context.Background(), e, in, p, nil, solver.Aid{}, false)
	if err != nil {
		t.Fatal(err)
	}
	if w := res.Account.TourWindows; w == nil || w.Searched == 0 || res.StopReason != solver.StopTime {
		t.Fatalf("windows on: account %+v, stop %v", w, res.StopReason)
	}
	off := solve(t, "auto", in, solver.Params{TimeLimit: 2 * time.Second, Seed: 1, Workers: 2, Config: func(o *ilsOptions) { o.win.mode = strategy.Off }}, nil)
	if off.Account.TourWindows != nil {
		t.Fatalf("windows off: account %+v", off.Account.TourWindows)
	}
}

// TestHandOver: the watch on the partition search stops it once its best
// tour, after its first gain, gains too little a second, and the run
// resumes to its own deadline.
func TestHandOver(t *testing.T) {
	hour, stop := solver.WithTimeLimit(context.Background(), time.Hour)
	defer stop()
	c := runctl.NewControl(hour, solver.Params{}, 1, nil, time.Now())
	c.Offer([]int32{0, 1, 2}, 1000)
	r := &ilsRun{c: c}
	done := make(chan struct{})
	defer close(done)
	go r.watchHandOver(time.Now(), 1e-3, done)
	time.Sleep(3 * rateSpan)
	if c.Done() {
		t.Fatal("the watch stopped a search that had not gained yet")
	}
	c.Offer([]int32{0, 2, 1}, 999) // the search's first gain, then none
	for !c.Done() {
		time.Sleep(10 * time.Millisecond) // gaining nothing more: the watch stops the run
	}
	if c.Stopped.Load() {
		t.Fatal("the hand-over marked the run stopped")
	}
	if !c.Resume(c.Start.Add(time.Hour)) || c.Done() {
		t.Fatal("the run did not resume after the hand-over")
	}
	ctx, cancel := context.WithCancel(hour)
	c = runctl.NewControl(ctx, solver.Params{}, 1, nil, time.Now())
	cancel()
	if c.Resume(c.Start.Add(time.Hour)) || !c.Done() {
		t.Fatal("a cancelled run resumed")
	}
}

// TestLatestHandOver: the partition search hands over to the windows at the latest at half the limit, and at
// strategy.ShortWindowsLast of it on limits below strategy.WindowsMinLimit; the run's own deadline is kept.
func TestLatestHandOver(t *testing.T) {
	in := uniformInstance(strategy.WindowsMinN, 31)
	for _, c := range []struct {
		limit time.Duration
		share float64
	}{{10 * time.Second, strategy.ShortWindowsLast}, {strategy.WindowsMinLimit, 0.5}, {60 * time.Second, 0.5}} {
		o, err := ilsSpecs["auto"].Parse(in, solver.Params{})
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		ctx, cancel := context.WithDeadline(context.Background(), start.Add(c.limit))
		r := &ilsRun{o: o, start: start, c: runctl.NewControl(ctx, solver.Params{}, 1, nil, start)}
		r.plan.Windows = true
		end, stop := r.windowsStart()
		stop()
		cancel()
		if !end.Equal(start.Add(c.limit)) {
			t.Errorf("limit %v: the run's deadline became %v after the start", c.limit, end.Sub(start))
		}
		if got, want := r.c.Deadline.Sub(start), time.Duration(c.share*float64(c.limit)); got != want {
			t.Errorf("limit %v: the latest hand-over %v after the start, want %v", c.limit, got, want)
		}
	}
}

// TestGainWatch: a search gaining in bursts further apart than rateSpan,
// faster than the rate on the whole, is not read as stalled between them
// nor before its first; once its gains stop, or fall below the rate, it is.
func TestGainWatch(t *testing.T) {
	const rate = 1e-3 // of the length a second
	t0 := time.Unix(0, 0)
	tick := rateSpan / 8
	cases := []struct {
		name string
		at   func(s time.Duration) int64 // the best length s into the search
		want time.Duration               // when it is first read as stalled (0: never within 30 s)
	}{
		{"a gain of 1 % every 3 s", func(s time.Duration) int64 { return 1_000_000 - 10_000*int64(s/(3*time.Second)) }, 0},
		{"bursts for 9 s, then none", func(s time.Duration) int64 {
			return 1_000_000 - 10_000*int64(min(s, 9*time.Second)/(3*time.Second))
		}, 26 * time.Second}, // the last two bursts, 20,000, fall below the rate over 20.6 s from 5.5 s
		{"a steady gain below the rate", func(s time.Duration) int64 { return 1_000_000 - int64(s/time.Millisecond)/2 }, rateSpan},
	}
	for _, c := range cases {
		w := newGainWatch(rate, t0, c.at(0))
		var got time.Duration
		for s := tick; s <= 30*time.Second; s += tick {
			if w.stalled(t0.Add(s), c.at(s)) {
				got = s
				break
			}
		}
		if c.want == 0 && got != 0 || c.want != 0 && (got < c.want-rateSpan || got > c.want+rateSpan) {
			t.Errorf("%s: read as stalled at %v, want %v (0: never)", c.name, got, c.want)
		}
	}
}

// ascentsFunc answers Alpha by a function, never under way.
type ascentsFunc func(ctx context.Context, in *solver.Instance, k int, opts solver.AscentOptions) (solver.AlphaLists, error)

func (f ascentsFunc) Alpha(ctx context.Context, in *solver.Instance, k int, opts solver.AscentOptions) (solver.AlphaLists, error) {
	return f(ctx, in, k, opts)
}
func (ascentsFunc) Underway(*solver.Instance, solver.AscentOptions) bool { return false }

// TestWholeLists: a plan with windows and an accelerator asks for the whole instance's alpha lists on that accelerator
// and hands them to the windows once made; stop ends an ascent under way; without an accelerator or windows none is run.
func TestWholeLists(t *testing.T) {
	in := uniformInstance(100, 3)
	device := func() (solver.AscentDevice, error) { return nil, context.Canceled }
	made := solver.AlphaLists{K: strategy.AlphaNeighbors, List: make([]int32, in.N*strategy.AlphaNeighbors)}
	release := make(chan struct{})
	var asked atomic.Int32
	ascents := ascentsFunc(func(ctx context.Context, got *solver.Instance, k int, opts solver.AscentOptions) (solver.AlphaLists, error) {
		asked.Add(1)
		if got != in || k != strategy.AlphaNeighbors || opts.Device == nil {
			t.Errorf("asked for %d lists of %v on device %v", k, got, opts.Device != nil)
		}
		select {
		case <-release:
			return made, nil
		case <-ctx.Done():
			return solver.AlphaLists{}, ctx.Err()
		}
	})
	run := func(windows bool, dev solver.OpenAscentDevice) *ilsRun {
		r := &ilsRun{in: in, aid: solver.Aid{Device: dev, Ascents: ascents}}
		r.plan.Windows = windows
		return r
	}
	for _, r := range []*ilsRun{run(false, device), run(true, nil)} {
		if lists, stop := r.wholeLists(context.Background()); lists != nil {
			t.Errorf("windows %v, device %v: lists offered", r.plan.Windows, r.aid.Device != nil)
		} else {
			stop()
		}
	}
	lists, stop := run(true, device).wholeLists(context.Background())
	if lists == nil || lists() != nil {
		t.Fatal("no lists to wait for, or lists before the ascent ended")
	}
	close(release)
	for lists() == nil {
		time.Sleep(time.Millisecond)
	}
	stop()
	if l := lists(); l.K != made.K || len(l.List) != len(made.List) {
		t.Errorf("lists %d × %d, want those made", l.K, len(l.List))
	}
	// an ascent under way ends with stop
	blocked := ascentsFunc(func(ctx context.Context, _ *solver.Instance, _ int, _ solver.AscentOptions) (solver.AlphaLists, error) {
		<-ctx.Done()
		return solver.AlphaLists{}, ctx.Err()
	})
	r := run(true, device)
	r.aid.Ascents = blocked
	lists, stop = r.wholeLists(context.Background())
	stop()
	if lists() != nil || asked.Load() != 1 {
		t.Errorf("lists after a stopped ascent, or %d asks of the first", asked.Load())
	}
}
