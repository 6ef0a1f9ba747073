//go:build cuda

package gpu

import (
	"context"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/neighbor"
)

// climbers is the host's side of a random-restart climber batch
// (2opt-climb, swap-climb): the run's loop, which keeps the best local
// minimum, and the count of climbs finished. A climb only improves its
// tour, so a climb the time limit cuts short still holds a valid tour:
// the run's best is the best tour seen, unfinished climbs included.
type climbers struct {
	l      *runLoop
	r      *run
	name   string // the engine's, for errors
	climbs int64
	// bestDone: the best tour is a finished climb's (a local minimum),
	// which the exact polish can finish cheaply.
	bestDone bool
}

// harvest takes the step of a batch: every climber whose flag is 0 has
// reached a local minimum; its tour (city, B tours of n cities, as copied
// back) is offered to the loop, counted, and restarted from a new start
// tour on the context goroutine.
func (c *climbers) harvest(flags, city []int32, restart func(k int) error) error {
	var done []int
	for k, f := range flags {
		if f != 0 {
			continue
		}
		done = append(done, k)
		c.climbs++
		if c.l.offer(climberTour(city, len(flags), k)) {
			c.bestDone = true
		}
	}
	return c.r.do(func() error {
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
	return convert[int](city[k*n : (k+1)*n])
}

// offerUnfinished offers the tours of the climbs under way (city: B
// tours; climbing(k) says whether climber k holds one) when the run ends;
// a climber the run never started holds no tour and is passed over. With
// no tour at all it takes Params.Start or the identity. It says so in the
// run's note when no climb finished in the time given.
func (c *climbers) offerUnfinished(city []int32, B int, climbing func(k int) bool) {
	for k := range B {
		if !climbing(k) {
			continue
		}
		t := climberTour(city, B, k)
		if solver.ValidateTour(t, len(t)) != nil {
			continue
		}
		if c.l.offer(t) {
			c.bestDone = false
		}
	}
	if c.l.best == nil {
		n := c.l.in.N
		t := make([]int, n)
		for i := range t {
			t[i] = i
		}
		if len(c.l.p.Start) == n {
			copy(t, c.l.p.Start)
		}
		c.l.offer(t)
	}
	if c.climbs == 0 {
		c.l.note = "no climb finished in the time given: the tour is the best climb as the time limit left it"
	}
}

// polish polishes the best tour, when it is a climb's local minimum, with
// exact distances on the CPU: the float kernel may have missed a move,
// and from a minimum the polish is cheap (from an unfinished climb it
// would be a whole CPU 2-opt run). It gives up a second after the
// deadline.
func (c *climbers) polish(ctx context.Context) {
	if !c.bestDone || c.l.best == nil {
		return
	}
	l := c.l
	l.sink.SendPhase(solver.PhasePolish, solver.UnknownProgress)
	pctx, cancel := context.WithCancel(ctx)
	if !l.deadline.IsZero() {
		pctx, cancel = context.WithDeadline(ctx, l.deadline.Add(time.Second))
	}
	defer cancel()
	if nb, err := neighbor.NearestContext(pctx, l.in, 10); err == nil {
		polish2Opt(l.in, l.best, nb)
		l.bestLen = solver.TourLength(l.in, l.best)
	}
}
