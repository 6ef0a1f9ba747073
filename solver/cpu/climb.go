package cpu

import (
	"context"
	"runtime"
	"sync"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/tour"
)

// OptRestarts bounds the number of climbs (random restarts) of the
// climbing engines; with no time limit the run is then deterministic.
const OptRestarts = "restarts"

// climbEngine is random-restart best-improvement hill climbing over the
// whole 2-opt neighbourhood (O'Neil and Burtscher) or the whole
// pair-exchange neighbourhood (Luong et al.): each climb starts from a
// random tour, evaluates every move of the neighbourhood, applies the best
// one and repeats until none improves; climbs repeat until the time or
// the restart budget is spent, the global best kept. Climb i uses PCG
// stream i and runs on worker i mod Workers, so results do not depend on
// timing when the budget is a number of restarts.
type climbEngine struct {
	baseEngine
	swap bool
}

func (e climbEngine) Solve(ctx context.Context, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot) (solver.Result, error) {
	start := time.Now()
	if err := checkStart(in, p); err != nil {
		return solver.Result{}, err
	}
	opts, err := options(e, in, p)
	if err != nil {
		return solver.Result{}, err
	}
	restarts, err := opts.Int(p, OptRestarts)
	if err != nil {
		return solver.Result{}, err
	}
	if err := refuseFixed(in, e.name); err != nil {
		return solver.Result{}, err
	}
	p.Algorithm, p.Backend = e.name, solver.BackendCPU
	if p.TimeLimit == 0 && restarts == 0 {
		p.TimeLimit = DefaultTimeLimit
	}
	// a climber's tour, its best tour and the swap scan's removed-edge
	// lengths
	w, err := countSearches("workers", p.Workers, runtime.NumCPU(), in.N, 4+4+8)
	if err != nil {
		return solver.Result{}, err
	}
	p.Workers, p.Blocks = w, w
	if in.N < 8 {
		return exactSmall(in, e, p, snaps, start)
	}
	d := tour.NewDist(in)
	c := newControl(ctx, p, w, snaps, start)
	var climbsDone paddedCounter
	n := in.N

	// each worker's best climb: (length, climb index, tour), so that the
	// result does not depend on which worker offered a tie first
	type climbBest struct {
		l    int64
		i    int
		tour []int32
	}
	bests := make([]climbBest, w)
	var wg sync.WaitGroup
	for wk := 0; wk < w; wk++ {
		wg.Add(1)
		go func(wk int) {
			defer wg.Done()
			var moves int64
			mine := &bests[wk]
			mine.l = -1
			ci := 0
			keep := func(t []int32, l int64) {
				if mine.l < 0 || l < mine.l {
					mine.l, mine.i, mine.tour = l, ci, append(mine.tour[:0], t...)
				}
			}
			last := int64(0)
			check := func(t []int32, l int64) bool {
				c.moves[wk].v.Store(moves)
				last = moves
				keep(t, l)
				c.offer(t, l)
				if c.done() {
					return true
				}
				if c.snapshotDue() {
					c.snapshot(t, l, climbsDone.v.Load(), c.timeFrac(), 0)
				}
				return false
			}
			for i := wk; restarts == 0 || i < restarts; i += w {
				ci = i
				r := newRNG(p.Seed, uint64(i))
				var t []int32
				if i == 0 && p.Start != nil {
					t = to32(p.Start)
				} else {
					t = r.randomTour(n)
				}
				l := d.Length(t)
				for {
					var best int64
					var bi, bj int
					var aborted bool
					abort := func(evaluated int64) bool {
						moves += evaluated
						if moves-last >= checkEvery && check(t, l) {
							aborted = true
						}
						return aborted
					}
					if e.swap {
						best, bi, bj = bestSwap(d, t, abort)
					} else {
						best, bi, bj = best2opt(d, t, abort)
					}
					if aborted {
						return
					}
					if best >= 0 {
						break
					}
					if e.swap {
						t[bi], t[bj] = t[bj], t[bi]
					} else {
						for a, b := bi+1, bj; a < b; a, b = a+1, b-1 {
							t[a], t[b] = t[b], t[a]
						}
					}
					l += best
				}
				climbsDone.v.Add(1)
				if check(t, l) {
					return
				}
			}
			c.moves[wk].v.Store(moves)
		}(wk)
	}
	wg.Wait()
	b := -1
	for i, x := range bests {
		if x.l >= 0 && (b < 0 || x.l < bests[b].l || (x.l == bests[b].l && x.i < bests[b].i)) {
			b = i
		}
	}
	best := c.best
	if b >= 0 {
		best = bests[b].tour
	}
	steps := climbsDone.v.Load()
	c.snapshot(nil, c.bestLen.Load(), steps, 1, 0)
	stopped := c.stopped.Load() || (restarts > 0 && steps < int64(restarts))
	return solver.Finish(in, e, p, toInt(best), c.totalMoves(), steps, start, stopped, deviceName(w))
}

// best2opt returns the most negative 2-opt delta over all pairs of
// non-adjacent tour edges (t[i],t[i+1]) and (t[j],t[j+1]), i < j, and the
// pair; a delta ≥ 0 means t is 2-optimal. Ties go to the first pair in
// row order. abort is told the moves evaluated every few rows and ends
// the scan (with no move) when it returns true.
func best2opt(d *tour.Dist, t []int32, abort func(evaluated int64) bool) (best int64, bi, bj int) {
	n := len(t)
	m := d.Matrix()
	best = 0
	var pending int64
	for i := 0; i < n-2; i++ {
		pending += int64(n - i - 2)
		if pending >= checkEvery {
			if abort(pending) {
				return 0, 0, 0
			}
			pending = 0
		}
		a, b := t[i], t[i+1]
		dab := d.At(a, b)
		jmax := n - 1
		if i == 0 {
			jmax = n - 2 // (t[n-1], t[0]) touches t[0]
		}
		if m != nil {
			ra, rb := m[int(a)*n:int(a)*n+n], m[int(b)*n:int(b)*n+n]
			for j := i + 2; j <= jmax; j++ {
				c, dd := t[j], t[0]
				if j+1 < n {
					dd = t[j+1]
				}
				delta := int64(ra[c]) + int64(rb[dd]) - dab - int64(m[int(c)*n+int(dd)])
				if delta < best {
					best, bi, bj = delta, i, j
				}
			}
			continue
		}
		for j := i + 2; j <= jmax; j++ {
			c, dd := t[j], t[(j+1)%n]
			delta := d.At(a, c) + d.At(b, dd) - dab - d.At(c, dd)
			if delta < best {
				best, bi, bj = delta, i, j
			}
		}
	}
	abort(pending)
	return
}

// swapDelta is the change of length when the cities at positions i < j
// exchange places.
func swapDelta(d *tour.Dist, t []int32, i, j int) int64 {
	n := len(t)
	return tour.DeltaSwapEdges(d, t[(i+n-1)%n], t[i], t[(i+1)%n], t[(j+n-1)%n], t[j], t[(j+1)%n])
}

// bestSwap returns the most negative pair-exchange delta over all pairs
// of positions i < j and the pair (Luong et al.'s swap neighbourhood of
// n(n-1)/2 moves). Ties go to the first pair in row order. abort is as
// for best2opt.
func bestSwap(d *tour.Dist, t []int32, abort func(evaluated int64) bool) (best int64, bi, bj int) {
	n := len(t)
	// rem[j]: the two tour edges at position j, removed by any swap of j
	rem := make([]int64, n)
	for j := range t {
		rem[j] = d.At(t[(j+n-1)%n], t[j]) + d.At(t[j], t[(j+1)%n])
	}
	var pending int64
	for i := 0; i < n-1; i++ {
		pending += int64(n - i - 1)
		if pending >= checkEvery {
			if abort(pending) {
				return 0, 0, 0
			}
			pending = 0
		}
		if delta := swapDelta(d, t, i, i+1); delta < best {
			best, bi, bj = delta, i, i+1
		}
		a, ap, an := t[i], t[(i+n-1)%n], t[i+1]
		jmax := n - 1
		if i == 0 {
			jmax = n - 2 // (0, n-1) are neighbours: below
		}
		for j := i + 2; j <= jmax; j++ {
			b, bp := t[j], t[j-1]
			bn := t[0]
			if j+1 < n {
				bn = t[j+1]
			}
			delta := d.At(ap, b) + d.At(b, an) + d.At(bp, a) + d.At(a, bn) - rem[i] - rem[j]
			if delta < best {
				best, bi, bj = delta, i, j
			}
		}
		if i == 0 {
			if delta := swapDelta(d, t, 0, n-1); delta < best {
				best, bi, bj = delta, 0, n-1
			}
		}
	}
	abort(pending)
	return
}

func init() {
	solver.Register(climbEngine{baseEngine{"2opt-climb", "random-restart best-improvement 2-opt hill climbing over the whole neighbourhood (O'Neil & Burtscher), one climber per core"}, false})
	solver.Register(climbEngine{baseEngine{"swap-climb", "random-restart best-improvement pair-exchange hill climbing (Luong et al.'s swap neighbourhood)"}, true})
}
