//go:build cuda

package climb

import (
	"context"
	"time"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/neighbor"
)

// climbers is the host's side of a random-restart climber batch; a climb only improves, so the run's best is the best seen.
type climbers struct {
	l      *device.RunLoop
	r      *device.Run
	name   string // the engine's, for errors
	climbs int64
	// bestDone: the best tour is a local minimum, cheap to polish exactly.
	bestDone bool
}

// harvest offers the climbers' tours at a local minimum and restarts them.
func (c *climbers) harvest(flags, city []int32, restart func(k int) error) error {
	var done []int
	for k, f := range flags {
		if f != 0 {
			continue
		}
		done = append(done, k)
		c.climbs++
		if c.l.Offer(climberTour(city, len(flags), k)) {
			c.bestDone = true
		}
	}
	return c.r.Do(func() error {
		for _, k := range done {
			if err := restart(k); err != nil {
				return err
			}
		}
		return nil
	})
}

// climberTour is climber k's tour of the B tours in city.
func climberTour(city []int32, B, k int) []int {
	n := len(city) / B
	return device.Convert[int](city[k*n : (k+1)*n])
}

// offerUnfinished offers, when the run ends, the climbers' tours under way, else Params.Start or the identity.
func (c *climbers) offerUnfinished(city []int32, B int, climbing func(k int) bool) {
	for k := range B {
		if !climbing(k) {
			continue
		}
		t := climberTour(city, B, k)
		if solver.ValidateTour(t, len(t)) != nil {
			continue
		}
		if c.l.Offer(t) {
			c.bestDone = false
		}
	}
	if c.l.Best == nil {
		n := c.l.In.N
		t := make([]int, n)
		for i := range t {
			t[i] = i
		}
		if len(c.l.P.Start) == n {
			copy(t, c.l.P.Start)
		}
		c.l.Offer(t)
	}
	if c.climbs == 0 {
		c.l.Account.Unfinished = true
	}
}

// polish makes the best tour, at a local minimum, 2-opt optimal with exact distances.
func (c *climbers) polish(ctx context.Context) {
	if !c.bestDone || c.l.Best == nil {
		return
	}
	l := c.l
	l.Sink.SendPhase(solver.PhasePolish, solver.UnknownProgress)
	pctx, cancel := context.WithCancel(ctx)
	if !l.Deadline.IsZero() {
		pctx, cancel = context.WithDeadline(ctx, l.Deadline.Add(time.Second))
	}
	defer cancel()
	if nb, err := neighbor.NearestContext(pctx, l.In, 10); err == nil {
		device.Polish2Opt(l.In, l.Best, nb)
		l.BestLen = solver.TourLength(l.In, l.Best)
	}
}
