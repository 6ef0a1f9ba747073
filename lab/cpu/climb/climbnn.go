package climb

import (
	"context"
	"math/rand/v2"

	"github.com/tsplab/tsplab/internal/runctl"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/tour"
)

// 2opt-climb's nn climbs start from randomized nearest-neighbour tours and scan near moves, with a whole pass when none
// improves; start random keeps O'Neil & Burtscher's climbs.

// OptClimbStart is 2opt-climb's start tours option: "nn" (the default) or "random".
const OptClimbStart = "start"

// climbNearK is the nearest cities a neighbour-list pass joins each city to.
const climbNearK = 8

// climbNNSecond is the share of a start tour's steps to the second-nearest city.
const climbNNSecond = 0.03

// climbStart builds climb i's randomized nearest-neighbour start over nb (nil when stopped).
func climbStart(ctx context.Context, in *solver.Instance, nb *neighbor.Lists, seed uint64, i int) []int32 {
	rng := rand.New(rand.NewPCG(runctl.Mix(seed), runctl.Mix(uint64(i)^0x9e3779b97f4a7c15)))
	t, err := construct.RandomizedNearestNeighborContext(ctx, in, rng.IntN(in.N), nb, rng, climbNNSecond)
	if err != nil {
		return nil
	}
	return runctl.To32(t)
}

// bestNear2opt returns the most negative delta of the 2-opt moves adding an edge from a city to a candidate, as
// positions i < j; abort as for best2opt.
func bestNear2opt(d *tour.Dist, t, pos, nb []int32, k int, abort func(evaluated int64) bool) (best int64, bi, bj int) {
	n := len(t)
	var pending int64
	for i, a := range t {
		if abortRow(&pending, int64(2*k), abort) {
			return 0, 0, 0
		}
		succ, pred := t[(i+1)%n], t[(i+n-1)%n]
		dSucc, dPred := d.At(a, succ), d.At(pred, a)
		for _, c := range nb[int(a)*k : int(a)*k+k] {
			j := int(pos[c])
			dac := d.At(a, c)
			if dac >= dSucc && dac >= dPred {
				break // candidates are nearest first: no later one gains
			}
			// after both: (a, succ a), (c, succ c) → (a, c), (succ a, succ c)
			if cs := t[(j+1)%n]; c != succ && cs != a {
				if delta := dac + d.At(succ, cs) - dSucc - d.At(c, cs); delta < best {
					best, bi, bj = delta, i, j
				}
			}
			// before both: (pred a, a), (pred c, c) → (a, c), (pred a, pred c)
			if cp := t[(j+n-1)%n]; c != pred && cp != a {
				if delta := dac + d.At(pred, cp) - dPred - d.At(cp, c); delta < best {
					best, bi, bj = delta, (i+n-1)%n, (j+n-1)%n
				}
			}
		}
	}
	abort(pending)
	if bi > bj {
		bi, bj = bj, bi
	}
	return best, bi, bj
}

// reverse2opt applies the 2-opt move at positions i < j, reversing the shorter side.
func reverse2opt(t, pos []int32, i, j int) {
	n := len(t)
	lo, hi := i+1, j
	if hi-lo+1 > n/2 {
		lo, hi = j+1, i+n // the complement, wrapping
	}
	for ; lo < hi; lo, hi = lo+1, hi-1 {
		a, b := lo%n, hi%n
		t[a], t[b] = t[b], t[a]
		pos[t[a]], pos[t[b]] = int32(a), int32(b)
	}
}
