package cpu

import (
	"context"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/neighbor"
)

// A schedule fitted to a time limit (solver.Cooling) changes three things
// besides the cooling factor. Its searches start from the space-filling-
// curve tour instead of a random one: where t0 is hot for the instance
// (pr2392's mean edge is 158, t0 10,000) the first steps randomize it
// anyway, and where it is not (usa13509's mean edge is 1,479) the short
// schedule does not spend itself undoing a random tour's long edges
// (docs/PERF.md). As the GPU annealers do by default, below a temperature
// where Lam et al.'s uniform move seldom passes the Metropolis test half
// of the moves put c beside one of its nearest cities. And the schedule
// ends in the greedy descent it tends to (T = 0, the same move, every
// city tried beside each of its nearest cities until none improves). A
// pinned schedule (an explicit alpha or sweeps, as the reproduction
// suites give) keeps the paper's random start and uniform move and ends
// where its last step does.

// fittedStart is the start tour of a fitted schedule's searches.
func fittedStart(in *solver.Instance) []int { return construct.SpaceFillingCurve(in) }

// saNearK is the number of nearest cities a near move and the descent
// put c beside (the GPU's nnk default).
const saNearK = 8

// saNearFromScale times the mean distance from a city to its saNearK-th
// nearest is the temperature below which half of the moves are near
// ones: the GPU's draw auto default (measured there, docs/PERF.md).
const saNearFromScale = 3

// saNear is the neighbour draw of a fitted run: the lists and the
// temperature it starts below.
type saNear struct {
	nb   []int32
	k    int
	from float64
}

// fittedNear is a fitted run's near moves, built within the run's set-up
// time (none without fit, or when the run is stopped while they are
// built); an error only when they failed on their own.
func fittedNear(ctx context.Context, c *control, in *solver.Instance, fit bool) (saNear, error) {
	if !fit {
		return saNear{}, nil
	}
	setup, cancel := c.setupContext()
	defer cancel()
	near, err := newSANear(setup, in)
	if err != nil && ctx.Err() == nil && !c.done() {
		return saNear{}, err
	}
	return near, nil
}

// newSANear builds the neighbour lists (stopping with ctx) and the
// temperature the near moves start below.
func newSANear(ctx context.Context, in *solver.Instance) (saNear, error) {
	nb, err := neighbor.NearestContext(ctx, in, saNearK)
	if err != nil || nb.K == 0 {
		return saNear{}, err
	}
	var from float64
	for i := 0; i < in.N; i++ {
		from += float64(in.Dist(i, int(nb.List[i*nb.K+nb.K-1])))
	}
	return saNear{nb: nb.List, k: nb.K, from: from * saNearFromScale / float64(in.N)}, nil
}

// proposeNear draws a near move: c uniform, its new place after or
// before one of its k nearest cities. ok is false when the draw leaves
// the tour as it is (c already there), for the caller to draw again.
func (s *saSearch) proposeNear() (c, a int32, delta int64, ok bool) {
	c = int32(s.r.intn(s.n))
	x := s.nb[int(c)*s.k+s.r.intn(s.k)]
	a = x
	if s.r.intn(2) == 0 {
		a = s.l.Prev[x] // before x
	}
	p := s.l.Prev[c]
	if a == c || a == p {
		return 0, 0, 0, false
	}
	return c, a, s.deltaMove(c, a), true
}

// descend is the greedy descent a fitted schedule ends in: from the
// search's best tour, every city is moved to its best place beside one of
// its nearest cities while that shortens the tour, until no city moves or
// stop says so. It returns the moves evaluated.
func (s *saSearch) descend(stop func() bool) (evals int64) {
	if s.cur > s.bestLen {
		s.load(s.best(make([]int32, 0, s.n)), s.bestLen)
	}
	for improved := true; improved; {
		improved = false
		for c := int32(0); int(c) < s.n; c++ {
			if c&255 == 0 && stop() {
				return evals
			}
			p := s.l.Prev[c]
			var best int64
			var to int32 = -1
			for _, x := range s.nb[int(c)*s.k : int(c+1)*s.k] {
				for _, a := range [2]int32{x, s.l.Prev[x]} {
					if a == c || a == p {
						continue
					}
					evals++
					if dl := s.deltaMove(c, a); dl < best {
						best, to = dl, a
					}
				}
			}
			if to >= 0 {
				s.apply(c, to, best)
				improved = true
			}
		}
	}
	return evals
}

// descentReserve is the time a fitted run sets aside for its descent,
// from the probe step (probeIters iterations of pm moves each, which took
// probeTime): about three passes of 2·k moves per city at the probe's
// rate, doubled, at least a millisecond and at most a quarter of left.
func descentReserve(n, k, pm int, probeIters int64, probeTime, left time.Duration) time.Duration {
	if probeIters <= 0 || pm <= 0 {
		return left / 4
	}
	evals := float64(2 * 3 * 2 * n * k)
	r := time.Duration(evals * float64(probeTime) / float64(probeIters*int64(pm)))
	return min(max(r, time.Millisecond), left/4)
}
