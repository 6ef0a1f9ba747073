package ils

import (
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
// gained less than rate of its length a second over the last rateSpan,
// until done is closed.
func (r *ilsRun) watchHandOver(first time.Time, rate float64, done chan struct{}) {
	type sample struct {
		at time.Time
		l  int64
	}
	var seen []sample
	before := r.c.BestLen.Load()
	tk := time.NewTicker(rateSpan / 8)
	defer tk.Stop()
	for {
		select {
		case <-done:
			return
		case now := <-tk.C:
			l := r.c.BestLen.Load()
			if l >= before && seen == nil {
				continue // the search's first round is not done yet
			}
			seen = append(seen, sample{now, l})
			for len(seen) > 2 && now.Sub(seen[1].at) >= rateSpan {
				seen = seen[1:]
			}
			old, cur := seen[0], seen[len(seen)-1]
			if now.Before(first) || now.Sub(old.at) < rateSpan {
				continue
			}
			if float64(old.l-cur.l) < rate*float64(cur.l)*now.Sub(old.at).Seconds() {
				r.c.Stop.Store(true)
				return
			}
		}
	}
}

// searchWindows searches the tour window by window (solver/cpu/window) from
// the hand-over until end, the run's own deadline, when the plan takes
// them.
func (r *ilsRun) searchWindows(end time.Time) error {
	if !r.plan.Windows || !r.c.Resume(end) {
		return nil
	}
	o := r.o.win
	cfg := window.Config{Size: o.size, Cores: o.cores, Workers: r.w, Seed: r.p.Seed,
		Slice: time.Duration(o.slice) * time.Millisecond}
	at := time.Since(r.start)
	st, err := window.Run(r.in, r.c, cfg)
	r.tourWindows = &solver.TourWindowsAccount{From: at.Seconds(), Size: st.Size, Cores: cfg.Cores,
		Rounds: st.Rounds, Searched: st.Searched, Improved: st.Improved, Rejected: st.Rejected, Gain: r.in.LengthValue(st.Gain)}
	return err
}
