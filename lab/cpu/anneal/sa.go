package anneal

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/tsplab/tsplab/internal/runctl"
	"github.com/tsplab/tsplab/lab"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/cooling"
	"github.com/tsplab/tsplab/solver/tour"
)

// FittedThreads is CPU PSPM's moves per iteration on a fitted schedule without threads (docs/DECISIONS.md#fitted-threads).
const FittedThreads = 8

// saDefaults checks p, reads engine e's options (returned too) and fills the schedule's defaults, fitted to the time
// limit with fit; a func(*solver.Anneal) Params.Config then changes them.
func saDefaults(e solver.Engine, in *solver.Instance, p solver.Params, fitThreads, fit bool) (solver.Anneal, annealConfig, error) {
	fittedDefault := !p.Given("threads") && fit
	c, err := solver.Configure(annealSpecs[e.Name()], e, in, p)
	if err != nil {
		return solver.Anneal{}, c, err
	}
	if c.Workers != 0 {
		p.Workers = c.Workers
	}
	a, err := solver.AnnealOf(in, p)
	if fitThreads && fittedDefault {
		a.Threads = FittedThreads
	}
	if set, ok := p.Config.(func(*solver.Anneal)); ok && set != nil {
		set(&a)
	}
	return a, c, err
}

// saSearch is one LWSA search (Lam et al., Algorithm 2): a linked list, relocations,
// the best saved only when a worse move leaves it.
type saSearch struct {
	d        *tour.Dist
	n        int
	l        tour.Linked
	cur      int64
	bestNext []int32
	bestLen  int64
	r        *runctl.Rand
	steps    int64 // temperature steps done
	// edge[x] is d(x, next x) and gain[x] what removing x saves: a delta takes two distances.
	edge, gain []int64
	// nb holds k nearest cities a city for near moves; near turns them on
	nb   []int32
	k    int
	near bool
	// seg is a move's longest segment (saseg.go); 1 or 0: relocations only.
	seg int
	// journal lists the moves since the best solution, instead of an O(n) copy at each new best (folded in at n/journalShare)
	journal    []saUndo
	journaling bool
	scratch    tour.Linked
}

// saUndo is a journal entry: city c was moved away from after prev.
type saUndo struct{ c, prev int32 }

// journalShare sets the longest journal, n/journalShare moves.
const journalShare = 8

func newSearch(d *tour.Dist, t []int32, r *runctl.Rand) *saSearch {
	n := len(t)
	s := &saSearch{d: d, n: n, l: tour.Linked{Next: make([]int32, n), Prev: make([]int32, n)}, bestNext: make([]int32, n), r: r,
		edge: make([]int64, n), gain: make([]int64, n)}
	s.load(t, d.Length(t))
	return s
}

// load makes t (of length l) the current and the best solution.
func (s *saSearch) load(t []int32, l int64) {
	n := len(t)
	for i, c := range t {
		s.l.Next[c] = t[(i+1)%n]
		s.l.Prev[c] = t[(i+n-1)%n]
	}
	copy(s.bestNext, s.l.Next)
	s.cur, s.bestLen = l, l
	s.journal, s.journaling = s.journal[:0], false
	for c := range t {
		s.edge[c] = s.d.At(int32(c), s.l.Next[c])
	}
	for c := range t {
		s.fixGain(int32(c))
	}
}

// fixGain recomputes what removing x saves, from the edges beside it.
func (s *saSearch) fixGain(x int32) {
	p, q := s.l.Prev[x], s.l.Next[x]
	s.gain[x] = s.edge[p] + s.edge[x] - s.d.At(p, q)
}

// deltaMove prices moving c to after a (a is neither c nor prev c).
func (s *saSearch) deltaMove(c, a int32) int64 {
	return s.d.At(a, c) + s.d.At(c, s.l.Next[a]) - s.edge[a] - s.gain[c]
}

// bestLength is the length of the best solution this search has seen.
func (s *saSearch) bestLength() int64 { return min(s.cur, s.bestLen) }

// walk appends the tour given by next, from city 0, to dst.
func walk(next []int32, dst []int32) []int32 {
	c := int32(0)
	for range next {
		dst = append(dst, c)
		c = next[c]
	}
	return dst
}

// current appends the current tour to dst.
func (s *saSearch) current(dst []int32) []int32 { return walk(s.l.Next, dst) }

// best appends the best tour seen to dst.
func (s *saSearch) best(dst []int32) []int32 {
	if s.cur <= s.bestLen {
		return walk(s.l.Next, dst)
	}
	s.fold()
	return walk(s.bestNext, dst)
}

// fold makes bestNext the best solution again by undoing the journal.
func (s *saSearch) fold() {
	if !s.journaling {
		return
	}
	if len(s.scratch.Next) != s.n {
		s.scratch = tour.Linked{Next: make([]int32, s.n), Prev: make([]int32, s.n)}
	}
	copy(s.scratch.Next, s.l.Next)
	copy(s.scratch.Prev, s.l.Prev)
	for i := len(s.journal) - 1; i >= 0; i-- {
		u := s.journal[i]
		s.scratch.Relocate(int(u.c), int(u.prev))
	}
	copy(s.bestNext, s.scratch.Next)
	s.journal, s.journaling = s.journal[:0], false
}

// propose draws a relocation of c after a and returns its delta (near moves: half beside a near city).
func (s *saSearch) propose() (c, a int32, delta int64) {
	if s.near && s.r.Uint64()&1 == 0 {
		if c, a, delta, ok := s.proposeNear(); ok {
			return c, a, delta
		}
	}
	n := s.n
	c = int32(s.r.Intn(n))
	p := s.l.Prev[c]
	for {
		a = int32(s.r.Intn(n))
		if a != c && a != p {
			break
		}
	}
	return c, a, s.deltaMove(c, a)
}

// metropolis decides whether a move of the given delta is taken at t.
func metropolis(r *runctl.Rand, delta int64, t float64) bool {
	return delta <= 0 || r.Float64() < math.Exp(-float64(delta)/t)
}

// apply relocates c after a; a worse move first saves the current solution when it is the best (LWSA).
func (s *saSearch) apply(c, a int32, delta int64) {
	if delta > 0 && s.cur < s.bestLen {
		// the current solution is the best seen: the journal starts at it
		s.bestLen = s.cur
		s.journal, s.journaling = s.journal[:0], true
	}
	p, q := s.l.Prev[c], s.l.Next[c]
	if s.journaling {
		s.journal = append(s.journal, saUndo{c, p})
	}
	s.l.Relocate(int(c), int(a))
	s.cur += delta
	// the edges leaving p, a and c changed, and the gains beside them
	b := s.l.Next[c]
	s.edge[p] = s.d.At(p, q)
	s.edge[a] = s.d.At(a, c)
	s.edge[c] = s.d.At(c, b)
	for _, x := range [5]int32{p, q, a, b, c} {
		s.fixGain(x)
	}
	if len(s.journal) > s.n/journalShare {
		s.fold()
	}
}

// iterate draws pm moves and tests the best by Metropolis at t.
func (s *saSearch) iterate(t float64, pm int) {
	if s.seg > 1 {
		s.iterateSeg(t, pm)
		return
	}
	c, a, delta := s.propose()
	for k := 1; k < pm; k++ {
		c2, a2, d2 := s.propose()
		if d2 < delta {
			c, a, delta = c2, a2, d2
		}
	}
	if metropolis(s.r, delta, t) {
		s.apply(c, a, delta)
	}
}

// offerEvery is how often an annealing worker offers its best tour to the run.
const offerEvery = 10 * time.Millisecond

// saStep is one temperature step of a plan and its iterations per search.
type saStep struct {
	t     float64
	iters int64
}

// saShared is the set-up and the end that saRun and sspmParallel share.
type saShared struct {
	start, coolStart time.Time
	d                *tour.Dist
	c                *runctl.Control
	near             saNear
	cool             *cooling.Plan
	budget           time.Duration
	lamSteps         float64
	seg              int // the searches' longest segment (saseg.go)
}

// newSAShared starts a run on w workers: control, near moves and start tour (nil: random).
func newSAShared(ctx context.Context, in *solver.Instance, p solver.Anneal, snaps chan solver.Snapshot, w int, fit bool) (*saShared, []int32, error) {
	r := &saShared{start: time.Now(), d: tour.NewDist(in)}
	r.c = runctl.NewControl(ctx, p.Params, w, snaps, r.start)
	var err error
	if r.near, err = fittedNear(ctx, r.c, in, fit); err != nil {
		return nil, nil, err
	}
	switch {
	case p.Start != nil:
		return r, runctl.To32(p.Start), nil
	case fit:
		return r, runctl.To32(fittedStart(in)), nil
	}
	return r, nil, nil
}

// startCooling sets up the schedule; a fitted one gets the time left.
func (r *saShared) startCooling(in *solver.Instance, p solver.Anneal, fit bool) {
	if fit && !r.c.Deadline.IsZero() {
		r.budget = max(time.Until(r.c.Deadline), time.Nanosecond)
	}
	r.cool = cooling.New(p.T0, p.TEnd, p.Alpha, int64(stepIters(in.N, p.Sweeps)), in.N, r.budget)
	r.lamSteps = float64(solver.ScheduleSteps(p))
	r.coolStart = time.Now()
}

// snapshot sends s's current tour, built in buf (returned), at step st and temperature t.
func (r *saShared) snapshot(s *saSearch, buf []int32, st int64, t, fitted float64) []int32 {
	buf = s.current(buf[:0])
	if !r.cool.Fitted() {
		fitted = float64(st) / r.lamSteps
	}
	r.c.Snapshot(buf, s.cur, st, fitted, t)
	return buf
}

// finish ends a run: the fitted descent, the searches' bests offered, a last snapshot and the result.
func (r *saShared) finish(e solver.Engine, in *solver.Instance, p solver.Anneal, searches []*saSearch, w int, steps int64, lastT float64, runBest bool) (solver.Result, error) {
	c := r.c
	r.cool.Done(steps, lastT)
	run := r.cool.Run()
	if r.cool.Fitted() && r.near.nb != nil && !c.Stop.Load() {
		run.Descent = saDescend(c, searches, min(w, len(searches)))
	}
	gb := 0
	for b, s := range searches {
		c.OfferFn(s.bestLength(), s.best)
		if s.bestLength() < searches[gb].bestLength() {
			gb = b
		}
	}
	r.snapshot(searches[0], nil, steps, 0, 1)
	best := c.Best
	if !runBest {
		best = searches[gb].best(nil)
	}
	p.Workers = w
	res, err := solver.Finish(in, e, p.Params, solver.Outcome{Tour: runctl.ToInt(best), Moves: c.TotalMoves(), Steps: steps, Start: r.start, Stopped: c.Stopped.Load(), Device: runctl.DeviceName(w),
		Settings: p.Settings(e)})
	res.Schedule = run
	return res, err
}

// saRun runs nsearch LWSA searches with pm moves per iteration over the workers, exchanging the best every p.K steps
// with exchange; search b owns PCG stream b. With fit the schedule is fitted (safit.go).
func saRun(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Anneal, snaps chan solver.Snapshot, nsearch, pm, seg int, exchange, fit bool) (solver.Result, error) {
	w := min(runctl.Workers(p.Params), nsearch)
	r, start0, err := newSAShared(ctx, in, p, snaps, w, fit)
	if err != nil {
		return solver.Result{}, err
	}
	r.seg = seg
	c := r.c
	searches := r.newSearches(in, p, start0, nsearch)
	r.startCooling(in, p, fit)
	// Lam's schedule is planned an exchange interval at a time, a fitted one a step at a time.
	epoch := solver.MaxScheduleSteps
	switch {
	case r.cool.Fitted():
		epoch = 1
	case exchange && p.K > 0:
		epoch = p.K
	}
	t := p.T0
	var done, steps int64 // iterations each search has run; steps
	var plan []saStep
	var lastT float64
	for t > p.TEnd && !c.Stop.Load() {
		plan = plan[:0]
		planned := done
		for len(plan) < epoch && t > p.TEnd {
			a, k := r.cool.Next(t, planned, time.Since(r.coolStart))
			plan = append(plan, saStep{t, k})
			planned += k
			t *= a
		}
		r.anneal(searches, plan, steps, w, pm)
		if c.Stop.Load() {
			break
		}
		lastT = plan[len(plan)-1].t
		if steps == 0 && r.cool.Fitted() {
			// the probe: its rate sets the time the descent keeps
			r.cool.Reserve(descentReserve(in.N, r.near.k, pm, plan[0].iters, time.Since(r.coolStart), r.budget))
		}
		steps += int64(len(plan))
		done = planned
		if exchange && (!r.cool.Fitted() || steps%int64(max(p.K, 1)) == 0) {
			shareBestSearch(searches)
		}
	}
	if reached := maxSteps(searches); reached > steps {
		// stopped inside a plan: its last step begun
		lastT = plan[min(int(reached-steps), len(plan))-1].t
		steps = reached
	}
	return r.finish(e, in, p, searches, w, steps, lastT, false)
}

// newSearches sets up nsearch searches from start0 (nil: random tours); a stop leaves those set up so far.
func (r *saShared) newSearches(in *solver.Instance, p solver.Anneal, start0 []int32, nsearch int) []*saSearch {
	searches := make([]*saSearch, nsearch)
	for b := range searches {
		rg := runctl.NewRand(p.Seed, uint64(b))
		t := start0
		if t == nil {
			t = rg.RandomTour(in.N)
		}
		searches[b] = newSearch(r.d, t, rg)
		searches[b].nb, searches[b].k = r.near.nb, r.near.k
		searches[b].seg = min(r.seg, in.N-3)
		if r.c.Done() {
			// stopped while the searches were set up: run none of them
			return searches[:b+1]
		}
	}
	return searches
}

// shareBestSearch makes every search go on from the best tour any holds (lowest index on ties).
func shareBestSearch(searches []*saSearch) {
	gb := 0
	for b, s := range searches {
		if s.bestLength() < searches[gb].bestLength() {
			gb = b
		}
	}
	bt, bl := searches[gb].best(nil), searches[gb].bestLength()
	for _, s := range searches {
		s.load(bt, bl)
	}
}

// anneal runs plan (from step st0) on search b on worker b mod w.
func (r *saShared) anneal(searches []*saSearch, plan []saStep, st0 int64, w, pm int) {
	c := r.c
	var wg sync.WaitGroup
	for wk := range w {
		wg.Go(func() {
			var buf []int32
			var nextOffer time.Time
			local := c.Moves[wk].V.Load()
			for b := wk; b < len(searches); b += w {
				s := searches[b]
				for i, sp := range plan {
					st := st0 + int64(i)
					s.near = r.near.nb != nil && sp.t < r.near.from
					for it := int64(0); it < sp.iters; {
						chunk := min(sp.iters-it, int64(max(1, runctl.CheckEvery/pm)))
						for k := int64(0); k < chunk; k++ {
							s.iterate(sp.t, pm)
						}
						it += chunk
						local += chunk * int64(pm)
						c.Moves[wk].V.Store(local)
						if now := time.Now(); !now.Before(nextOffer) {
							c.OfferFn(s.bestLength(), s.best)
							nextOffer = now.Add(offerEvery)
						}
						if c.Done() {
							return
						}
						if c.SnapshotDue() {
							buf = r.snapshot(s, buf, st, sp.t, 0)
						}
					}
					s.steps = st + 1
				}
			}
		})
	}
	wg.Wait()
}

// maxSteps is the most temperature steps a search has finished.
func maxSteps(searches []*saSearch) int64 {
	var m int64
	for _, s := range searches {
		m = max(m, s.steps)
	}
	return m
}

// saDescend runs every search's descent on the workers and returns its time.
func saDescend(c *runctl.Control, searches []*saSearch, w int) time.Duration {
	t0 := time.Now()
	c.SetPhase(solver.PhasePolish)
	var wg sync.WaitGroup
	for wk := range w {
		wg.Go(func() {
			for b := wk; b < len(searches); b += w {
				c.Moves[wk].V.Add(searches[b].descend(c.Done))
			}
		})
	}
	wg.Wait()
	return time.Since(t0)
}

// saEngine is sa, pssm and pspm: saRun with different search counts.
type saEngine struct {
	runctl.Identity
	// exchange: the best shared every K steps (pssm, pspm); parallel: Threads moves per iteration (pspm)
	exchange, parallel bool
}

func (e saEngine) Solve(ctx context.Context, in *solver.Instance, q solver.Params, snaps chan solver.Snapshot) (solver.Result, error) {
	fit := cooling.FitsToLimit(ctx, q)
	p, c, err := saPrepare(e, in, q, e.parallel, fit)
	if err != nil {
		return solver.Result{}, err
	}
	if in.N < 4 {
		return trivial(in, e, p, snaps)
	}
	// One search per worker unless Blocks says otherwise.
	blocks, err := runctl.CountSearches("blocks", p.Blocks, p.Workers, in.N, saBytesPerCity)
	if err != nil {
		return solver.Result{}, err
	}
	p.Blocks = blocks
	if !e.parallel {
		p.Threads = 1
	} else if p.Threads == 0 {
		p.Threads = solver.DefaultThreads
	}
	// c.Seg is 0 (relocations) for the engines without the seg option
	return saRun(ctx, e, in, p, snaps, p.Blocks, p.Threads, c.Seg, e.exchange, fit)
}

// saPrepare checks and completes an annealer's parameters (fitThreads as saDefaults).
func saPrepare(e solver.Engine, in *solver.Instance, q solver.Params, fitThreads, fit bool) (solver.Anneal, annealConfig, error) {
	if err := runctl.CheckStart(in, q); err != nil {
		return solver.Anneal{}, annealConfig{}, err
	}
	p, c, err := saDefaults(e, in, q, fitThreads, fit)
	if err != nil {
		return p, c, err
	}
	if err := runctl.RefuseFixed(in, e.Name()); err != nil {
		return p, c, err
	}
	if err := saWorkers(&p); err != nil {
		return p, c, err
	}
	p.Algorithm, p.Backend = e.Name(), solver.BackendCPU
	return p, c, nil
}

// saBytesPerCity is the memory of one LWSA search per city.
const saBytesPerCity = 5*4 + 2*8 + 8/journalShare

// saWorkers fills and bounds Workers and bounds Threads for the annealers.
func saWorkers(p *solver.Anneal) error {
	switch {
	case p.Workers < 0 || p.Workers > runctl.MaxSearches:
		return fmt.Errorf("workers = %d: want 1 to %d", p.Workers, runctl.MaxSearches)
	case p.Threads > runctl.MaxSearches:
		return fmt.Errorf("threads = %d: at most %d moves per iteration", p.Threads, runctl.MaxSearches)
	}
	if p.Workers == 0 {
		p.Workers = min(runctl.Workers(p.Params), runctl.MaxSearches)
	}
	return nil
}

// maxIters bounds a temperature step's iterations (N·Sweeps overflows for huge Sweeps).
const maxIters = 1 << 32

// stepIters returns N·Sweeps without overflow, at most maxIters.
func stepIters(n, sweeps int) int {
	if n <= 0 || sweeps <= 0 {
		return 0
	}
	if sweeps > maxIters/n {
		return maxIters
	}
	return n * sweeps
}

func init() {
	lab.Register(saEngine{runctl.Identity{ID: "sa", Desc: "light-weight simulated annealing (LWSA, Lam et al.): relocation moves, one search per core, best kept"}, false, false}, annealSpecs["sa"])
	lab.Register(saEngine{runctl.Identity{ID: "pssm", Desc: "parallel searches, single move (Lam et al.): Blocks LWSA searches, global best exchanged every K temperature steps"}, true, false}, annealSpecs["pssm"])
	lab.Register(saEngine{runctl.Identity{ID: "pspm", Desc: "parallel searches, parallel moves (Lam et al.): Blocks searches × Threads moves per iteration, global best every K steps"}, true, true}, annealSpecs["pspm"])
}

// trivial is an annealer's run on fewer than 4 cities (runctl.Trivial).
func trivial(in *solver.Instance, e solver.Engine, a solver.Anneal, snaps chan solver.Snapshot) (solver.Result, error) {
	res, err := runctl.Trivial(in, e, a.Params, snaps, time.Now())
	res.Settings = a.Settings(e)
	return res, err
}
