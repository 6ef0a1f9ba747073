//go:build cuda

package gpu

import (
	"context"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/neighbor"
)

// harvestClimbers is the host's step of a random-restart climber batch
// (2opt-climb, swap-climb): every climber whose flag is 0 has reached a
// local minimum; its tour (city, B tours of n cities, as copied back) is
// measured exactly, the shortest is kept in best/bestLen, climbs counts
// them, and restart starts each of them again from a new start tour on
// the context goroutine.
func harvestClimbers(r *run, in *solver.Instance, flags, city []int32, best *[]int, bestLen, climbs *int64, restart func(k int) error) error {
	n := len(city) / len(flags)
	var done []int
	for k, f := range flags {
		if f != 0 {
			continue
		}
		done = append(done, k)
		t := make([]int, n)
		for i := range t {
			t[i] = int(city[k*n+i])
		}
		*climbs++
		if l := solver.TourLength(in, t); *bestLen < 0 || l < *bestLen {
			*best, *bestLen = t, l
		}
	}
	return r.do(func() error {
		for _, k := range done {
			if err := restart(k); err != nil {
				return err
			}
		}
		return nil
	})
}

// polishClimb polishes a climber's local minimum with exact distances on
// the CPU: the float kernel may have missed a move, and from a minimum the
// polish is cheap. It gives up a second after deadline.
func polishClimb(ctx context.Context, in *solver.Instance, sink *solver.Sink, best []int, deadline time.Time) {
	sink.SendPhase(solver.PhasePolish, solver.UnknownProgress)
	pctx, cancel := context.WithDeadline(ctx, deadline.Add(time.Second))
	defer cancel()
	if nb, err := neighbor.NearestContext(pctx, in, 10); err == nil {
		polish2Opt(in, best, nb)
	}
}

// finishClimbs sends a climber run's last snapshot, best measured
// exactly, and returns its result.
func finishClimbs(e solver.Engine, in *solver.Instance, p solver.Params, sink *solver.Sink, best []int, moves, climbs int64, start time.Time, stopped bool, label string) (solver.Result, error) {
	l := solver.TourLength(in, best)
	sink.Send(solver.Snapshot{Best: append([]int(nil), best...), BestLength: l, Length: l, Step: climbs, Moves: moves, Progress: 1})
	return solver.Finish(in, e, p, solver.Outcome{Tour: best, Moves: moves, Steps: climbs, Start: start, Stopped: stopped, Device: label})
}
