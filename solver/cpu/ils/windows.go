package ils

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/cpu/window"
	"github.com/tsplab/tsplab/solver/strategy"
)

// winOptions are the windows' options (OptWindows and the rest).
type winOptions struct {
	mode        strategy.Toggle
	size, cores int
	slice       int     // milliseconds
	start, last float64 // shares of the time limit
	rate        float64 // millionths of the tour's length a second
}

// rateSpan is the span over which the partition search's gain a second
// is measured for the hand-over.
const rateSpan = 2 * time.Second

// windowsStart moves the run's deadline to the windows' latest start when
// the plan takes them, and returns the run's own deadline and the
// function that ends the watch on the partition search's gain (watchHandOver).
func (r *ilsRun) windowsStart() (time.Time, func()) {
	end := r.c.Deadline
	if !r.plan.Windows || end.IsZero() {
		return end, func() {}
	}
	o, limit := r.o.win, end.Sub(r.start)
	if limit < strategy.WindowsMinLimit {
		o.last = min(o.last, strategy.ShortWindowsLast)
	}
	first := r.start.Add(time.Duration(o.start * float64(limit)))
	r.c.Deadline = r.start.Add(time.Duration(max(o.last, o.start) * float64(limit)))
	if o.rate <= 0 {
		r.c.Deadline = first
		return end, func() {}
	}
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		r.watchHandOver(first, o.rate*1e-6, done)
	}()
	return end, func() { close(done); <-finished }
}

// watchHandOver stops the partition search, from first on, once its best tour
// gained less than rate of its length a second (gainWatch), until done is
// closed.
func (r *ilsRun) watchHandOver(first time.Time, rate float64, done chan struct{}) {
	w := newGainWatch(rate, time.Now(), r.c.BestLen.Load())
	tk := time.NewTicker(rateSpan / 8)
	defer tk.Stop()
	for {
		select {
		case <-done:
			return
		case now := <-tk.C:
			if w.stalled(now, r.c.BestLen.Load()) && !now.Before(first) {
				r.c.Stop.Store(true)
				return
			}
		}
	}
}

// gainWatch reads a search's gain a second from samples of its best length.
type gainWatch struct {
	rate float64    // of the length a second
	seen []lengthAt // the first the length the search began from
}

// lengthAt is a best length and when it was read.
type lengthAt struct {
	at time.Time
	l  int64
}

// newGainWatch watches a search that began at start from a tour of length l.
func newGainWatch(rate float64, start time.Time, l int64) gainWatch {
	return gainWatch{rate: rate, seen: []lengthAt{{start, l}}}
}

// stalled records l read at now and says whether the search gained less
// than rate of its length a second over the samples kept: at least
// rateSpan, and back to its gain before the last, so that a search whose
// gains come further apart than rateSpan is not read as stalled between
// two of them; never before its first gain (its first round).
func (w *gainWatch) stalled(now time.Time, l int64) bool {
	if len(w.seen) == 1 && l >= w.seen[0].l {
		return false
	}
	w.seen = append(w.seen, lengthAt{now, l})
	for len(w.seen) > 2 && now.Sub(w.seen[1].at) >= rateSpan && gains(w.seen[1:]) >= 2 {
		w.seen = w.seen[1:]
	}
	old := w.seen[0]
	if now.Sub(old.at) < rateSpan {
		return false
	}
	return float64(old.l-l) < w.rate*float64(l)*now.Sub(old.at).Seconds()
}

// gains is how often the length fell from one sample to the next.
func gains(s []lengthAt) int {
	n := 0
	for j := 1; j < len(s); j++ {
		if s[j].l < s[j-1].l {
			n++
		}
	}
	return n
}

// searchWindows searches the tour window by window (solver/cpu/window) from
// the hand-over until end, the run's own deadline, when the plan takes
// them.
func (r *ilsRun) searchWindows(end time.Time, lists func() *solver.AlphaLists) error {
	if !r.plan.Windows || !r.c.Resume(end) {
		return nil
	}
	o := r.o.win
	cfg := window.Config{Size: o.size, Cores: o.cores, Workers: r.w, Seed: r.p.Seed,
		Slice: time.Duration(o.slice) * time.Millisecond, Lists: lists}
	at := time.Since(r.start)
	st, err := window.Run(r.in, r.c, cfg)
	r.tourWindows = &solver.TourWindowsAccount{From: at.Seconds(), Size: st.Size, Cores: cfg.Cores,
		Rounds: st.Rounds, Searched: st.Searched, Improved: st.Improved, Rejected: st.Rejected, Gain: r.in.LengthValue(st.Gain),
		WholeLists: st.WholeLists}
	return err
}

// wholeLists starts the ascent of the whole instance on the accelerator
// (aid.Device) for the windows' alpha lists, when the plan takes windows
// and there is one: lists returns them once made (nil before, or without
// it); stop ends the ascent and waits for it
// (docs/DECISIONS.md#window-lists).
func (r *ilsRun) wholeLists(ctx context.Context) (lists func() *solver.AlphaLists, stop func()) {
	if !r.plan.Windows || r.aid.Device == nil {
		return nil, func() {}
	}
	var made atomic.Pointer[solver.AlphaLists]
	actx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		l, err := r.aid.Ascents.Alpha(actx, r.in, strategy.AlphaNeighbors, solver.AscentOptions{Device: r.aid.Device})
		if err == nil {
			made.Store(&l)
		}
	}()
	return made.Load, func() { cancel(); <-done }
}
