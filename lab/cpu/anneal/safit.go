package anneal

import (
	"context"
	"time"

	"github.com/tsplab/tsplab/internal/runctl"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/neighbor"
)

// A fitted schedule starts from the curve tour, makes half its moves near ones and ends in a greedy descent
// (docs/DECISIONS.md#fitted-schedule); a pinned one keeps the paper's random start and moves.

// fittedStart is the start tour of a fitted schedule's searches.
func fittedStart(in *solver.Instance) []int { return construct.SpaceFillingCurve(in) }

// saNearK is the nearest cities a near move and the descent use (the GPU's nnk default).
const saNearK = 8

// saNearFromScale times the mean saNearK-th nearest distance is where near moves start.
const saNearFromScale = 3

// saNear is a fitted run's neighbour draw: the lists and its starting temperature.
type saNear struct {
	nb   []int32
	k    int
	from float64
}

// fittedNear is a fitted run's near moves, built within the set-up time.
func fittedNear(ctx context.Context, c *runctl.Control, in *solver.Instance, fit bool) (saNear, error) {
	if !fit {
		return saNear{}, nil
	}
	setup, cancel := c.SetupContext()
	defer cancel()
	near, err := newSANear(setup, in)
	if err != nil && ctx.Err() == nil && !c.Done() {
		return saNear{}, err
	}
	return near, nil
}

// newSANear builds the neighbour lists (stopping with ctx) and the near moves' temperature.
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

// proposeNear draws c and a place beside one of its k nearest cities; ok false when none fits.
func (s *saSearch) proposeNear() (c, a int32, delta int64, ok bool) {
	c = int32(s.r.Intn(s.n))
	x := s.nb[int(c)*s.k+s.r.Intn(s.k)]
	a = x
	if s.r.Intn(2) == 0 {
		a = s.l.Prev[x] // before x
	}
	p := s.l.Prev[c]
	if a == c || a == p {
		return 0, 0, 0, false
	}
	return c, a, s.deltaMove(c, a), true
}

// descend moves each city of the best tour beside a nearest city while that shortens it; it returns the moves evaluated.
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

// descentReserve is the time a fitted run keeps for its descent: about six passes, from 1 ms to a quarter of left.
func descentReserve(n, k, pm int, probeIters int64, probeTime, left time.Duration) time.Duration {
	if probeIters <= 0 || pm <= 0 {
		return left / 4
	}
	evals := float64(2 * 3 * 2 * n * k)
	r := time.Duration(evals * float64(probeTime) / float64(probeIters*int64(pm)))
	return min(max(r, time.Millisecond), left/4)
}
