package climb

import (
	"context"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/tsplab/tsplab/internal/runctl"
	"github.com/tsplab/tsplab/lab"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/tour"
)

// OptRestarts bounds the climbs (random restarts) of the climbing engines.
const OptRestarts = "restarts"

// climbEngine is random-restart best-improvement climbing over the whole 2-opt or swap neighbourhood;
// climb i uses PCG stream i, so a restarts budget gives the same run whatever the timing.
type climbEngine struct {
	runctl.Identity
	swap bool
}

// DefaultLimit is solver.DefaultTimeLimit, none with a restarts budget or a tabu search.
func (e climbEngine) DefaultLimit(in *solver.Instance, p solver.Params) time.Duration {
	cfg, err := solver.ConfigOf(climbSpecs[e.ID], e, in, p)
	if err == nil && (cfg.Restarts != 0 || cfg.Tabu > 0 && in.N >= 8) {
		return 0
	}
	return solver.DefaultTimeLimit
}

var _ solver.DefaultLimiter = climbEngine{}

// Prepare reads a run's settings once (solver.Preparer).
func (e climbEngine) Prepare(in *solver.Instance, p solver.Params) (any, error) {
	cfg, err := climbSpecs[e.ID].Parse(in, p)
	if err != nil {
		return cfg, err
	}
	return cfg, tabuWorkers(cfg, in, p)
}

// tabuWorkers refuses more than one worker for a tabu search, one sequential search, rather than running it on one.
func tabuWorkers(cfg climbConfig, in *solver.Instance, p solver.Params) error {
	if cfg.Tabu > 0 && in.N >= 8 && p.Workers > 1 {
		return &solver.ParamError{Flag: "--workers", Value: strconv.Itoa(p.Workers), Range: "1",
			Why: "the tabu search (--opt tabu) is one sequential search; leave --workers out or give 1"}
	}
	return nil
}

func (e climbEngine) Solve(ctx context.Context, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot) (solver.Result, error) {
	start := time.Now()
	if err := runctl.CheckStart(in, p); err != nil {
		return solver.Result{}, err
	}
	cfg, err := solver.Configure(climbSpecs[e.ID], e, in, p)
	if err != nil {
		return solver.Result{}, err
	}
	restarts, tabu, tenure := cfg.Restarts, cfg.Tabu, cfg.Tenure
	if err := runctl.RefuseFixed(in, e.ID); err != nil {
		return solver.Result{}, err
	}
	nearStarts := !e.swap && cfg.NearStarts
	p.Algorithm, p.Backend = e.ID, solver.BackendCPU
	if tabu > 0 && in.N >= 8 {
		// one sequential search: one worker; the iterations end it
		if err := tabuWorkers(cfg, in, p); err != nil {
			return solver.Result{}, err
		}
		p.Workers = 1
		r := &climbRun{e: e, in: in, p: p, w: 1, start: start, d: tour.NewDist(in), c: runctl.NewControl(ctx, p, 1, snaps, start)}
		return solveSwapTabu(r, tabu, tenure)
	}
	// a climber's tour, its best and the swap scan's removed-edge lengths
	w, err := runctl.CountSearches("workers", p.Workers, runtime.NumCPU(), in.N, 4+4+8)
	if err != nil {
		return solver.Result{}, err
	}
	p.Workers = w
	if in.N < 8 {
		return runctl.ExactSmall(in, e, p, snaps, start)
	}
	r := &climbRun{e: e, in: in, p: p, restarts: restarts, w: w, start: start,
		d: tour.NewDist(in), c: runctl.NewControl(ctx, p, w, snaps, start), bests: make([]climbBest, w)}
	if nearStarts {
		setup, cancel := r.c.SetupContext()
		defer cancel()
		r.setup = setup
		nb, err := neighbor.NearestContext(setup, in, climbNearK)
		if err != nil && ctx.Err() == nil && !r.c.Done() {
			return solver.Result{}, err
		}
		if err == nil && nb.K == climbNearK {
			r.near = nb
		}
	}
	return r.run()
}

// climbBest is a worker's best climb (length, index, tour), independent of timing.
type climbBest struct {
	l    int64 // -1: none yet
	i    int
	tour []int32
}

// climbRun is one climbing run: w workers, climb i on worker i mod w.
type climbRun struct {
	e          climbEngine
	in         *solver.Instance
	p          solver.Params
	restarts   int // 0: until the time limit
	w          int
	start      time.Time
	d          *tour.Dist
	c          *runctl.Control
	climbsDone runctl.Counter
	bests      []climbBest
	// near holds the default climbs' candidate lists (nil for O'Neil & Burtscher's)
	near  *neighbor.Lists
	setup context.Context
}

// run climbs on every worker and returns the best climb.
func (r *climbRun) run() (solver.Result, error) {
	c := r.c
	var wg sync.WaitGroup
	for wk := range r.w {
		wg.Go(func() { r.climber(wk) })
	}
	wg.Wait()
	b := -1
	for i, x := range r.bests {
		if x.l >= 0 && (b < 0 || x.l < r.bests[b].l || (x.l == r.bests[b].l && x.i < r.bests[b].i)) {
			b = i
		}
	}
	best := c.Best
	if b >= 0 {
		best = r.bests[b].tour
	}
	steps := r.climbsDone.V.Load()
	c.Snapshot(nil, c.BestLen.Load(), steps, 1, 0)
	stopped := c.Stopped.Load() || (r.restarts > 0 && steps < int64(r.restarts) && !c.Optimal.Load())
	res, err := solver.Finish(r.in, r.e, r.p, solver.Outcome{Tour: runctl.ToInt(best), Moves: c.TotalMoves(), Steps: steps, Start: r.start, Stopped: stopped, Device: runctl.DeviceName(r.w)})
	if steps == 0 && stopped && err == nil {
		res.Account.Unfinished = true
	}
	return res, err
}

// climber is worker wk: climbs wk, wk+w, ... until the budget, time or context ends.
func (r *climbRun) climber(wk int) {
	c := r.c
	var moves, last int64
	mine := &r.bests[wk]
	mine.l = -1
	ci := 0
	// check publishes the worker's moves, best climb, the global best and any snapshot due.
	check := func(t []int32, l int64) bool {
		c.Moves[wk].V.Store(moves)
		last = moves
		if mine.l < 0 || l < mine.l {
			mine.l, mine.i, mine.tour = l, ci, append(mine.tour[:0], t...)
		}
		c.Offer(t, l)
		if c.Done() {
			return true
		}
		if c.SnapshotDue() {
			c.Snapshot(t, l, r.climbsDone.V.Load(), c.TimeFrac(), 0)
		}
		return false
	}
	for i := wk; r.restarts == 0 || i < r.restarts; i += r.w {
		ci = i
		t, l, ok := r.climb(i, func(t []int32, l, evaluated int64) bool {
			moves += evaluated
			return moves-last >= runctl.CheckEvery && check(t, l)
		})
		if !ok {
			return
		}
		r.climbsDone.V.Add(1)
		if check(t, l) {
			return
		}
	}
	c.Moves[wk].V.Store(moves)
}

// climb performs climb i from a random tour (climb 0: the start) until no move improves.
func (r *climbRun) climb(i int, abort func(t []int32, l, evaluated int64) bool) (t []int32, l int64, ok bool) {
	switch {
	case i == 0 && r.p.Start != nil:
		t = runctl.To32(r.p.Start)
	case r.near != nil:
		t = climbStart(r.setup, r.in, r.near, r.p.Seed, i)
	}
	if t == nil {
		// a random tour, also when the run ended during a nearest-neighbour one
		t = runctl.NewRand(r.p.Seed, uint64(i)).RandomTour(r.in.N)
	}
	l = r.d.Length(t)
	if r.near != nil && !r.e.swap {
		return r.climbNear(t, l, abort)
	}
	for {
		aborted := false
		stop := func(evaluated int64) bool {
			aborted = aborted || abort(t, l, evaluated)
			return aborted
		}
		var best int64
		var bi, bj int
		if r.e.swap {
			best, bi, bj = bestSwap(r.d, t, stop)
		} else {
			best, bi, bj = best2opt(r.d, t, stop)
		}
		if aborted {
			return nil, 0, false
		}
		if best >= 0 {
			return t, l, true
		}
		if r.e.swap {
			t[bi], t[bj] = t[bj], t[bi]
		} else {
			slices.Reverse(t[bi+1 : bj+1])
		}
		l += best
	}
}

// climbNear is a default climb: candidate-list best moves, then a whole-neighbourhood pass.
func (r *climbRun) climbNear(t []int32, l int64, abort func(t []int32, l, evaluated int64) bool) ([]int32, int64, bool) {
	pos := make([]int32, len(t))
	for i, c := range t {
		pos[c] = int32(i)
	}
	aborted := false
	stop := func(evaluated int64) bool {
		aborted = aborted || abort(t, l, evaluated)
		return aborted
	}
	for {
		best, bi, bj := bestNear2opt(r.d, t, pos, r.near.List, r.near.K, stop)
		if !aborted && best >= 0 {
			best, bi, bj = best2opt(r.d, t, stop)
		}
		if aborted {
			return nil, 0, false
		}
		if best >= 0 {
			return t, l, true
		}
		reverse2opt(t, pos, bi, bj)
		l += best
	}
}

// best2opt returns the most negative 2-opt delta over all pairs of non-adjacent edges and the pair (i < j, first in
// row order); abort ends the scan.
func best2opt(d *tour.Dist, t []int32, abort func(evaluated int64) bool) (best int64, bi, bj int) {
	n := len(t)
	m := d.Matrix()
	best = 0
	var pending int64
	for i := 0; i < n-2; i++ {
		if abortRow(&pending, int64(n-i-2), abort) {
			return 0, 0, 0
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

// abortRow adds a row of moves to *pending, handing them to abort every runctl.CheckEvery.
func abortRow(pending *int64, row int64, abort func(evaluated int64) bool) bool {
	*pending += row
	if *pending < runctl.CheckEvery {
		return false
	}
	k := *pending
	*pending = 0
	return abort(k)
}

// swapDelta is the change of length when positions i < j exchange cities.
func swapDelta(d *tour.Dist, t []int32, i, j int) int64 {
	n := len(t)
	return tour.DeltaSwapEdges(d, t[(i+n-1)%n], t[i], t[(i+1)%n], t[(j+n-1)%n], t[j], t[(j+1)%n])
}

// bestSwap returns the most negative pair-exchange delta and its pair i < j (first in row order); abort as for best2opt.
func bestSwap(d *tour.Dist, t []int32, abort func(evaluated int64) bool) (best int64, bi, bj int) {
	n := len(t)
	// rem[j]: the two tour edges at position j, removed by any swap of j
	rem := make([]int64, n)
	for j := range t {
		rem[j] = d.At(t[(j+n-1)%n], t[j]) + d.At(t[j], t[(j+1)%n])
	}
	var pending int64
	for i := 0; i < n-1; i++ {
		if abortRow(&pending, int64(n-i-1), abort) {
			return 0, 0, 0
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
	lab.Register(climbEngine{runctl.Identity{ID: "2opt-climb", Desc: "random-restart best-improvement 2-opt hill climbing over the whole neighbourhood (O'Neil & Burtscher), one climber per core"}, false}, climbSpecs["2opt-climb"])
	lab.Register(climbEngine{runctl.Identity{ID: "swap-climb", Desc: "random-restart best-improvement pair-exchange hill climbing (Luong et al.'s swap neighbourhood)"}, true}, climbSpecs["swap-climb"])
}
