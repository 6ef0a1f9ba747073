package population

import (
	"context"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/tsplab/tsplab/internal/runctl"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/bound"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/cpu/recomb"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/strategy"
	"github.com/tsplab/tsplab/solver/tour"
)

// Name is the engine's registry name.
const Name = "pop"

// engine is the pop engine: rounds of W local searches on new tours, then on crossovers of pool members.
type engine struct{}

func (engine) Name() string    { return Name }
func (engine) Backend() string { return solver.BackendCPU }
func (engine) Describe() string {
	return "a population of descents evolved by edge assembly crossover (EAX) until it converges, then a pool of tours kept diverse by edge distance, recombined by partition crossover (GPX2), each child descended and kicked on one core with auto's moves for the size"
}
func (engine) Available() error      { return nil }
func (engine) KeepsFixedEdges() bool { return true }

func (e engine) Solve(ctx context.Context, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot) (solver.Result, error) {
	return e.SolveAided(ctx, in, p, snaps, solver.Aid{})
}

// SolveAided runs the search; aid's Ascents give the alpha lists' ascent, and aid's Pool an accelerator's search on the
// pool's members beside the workers (with a time limit).
func (e engine) SolveAided(ctx context.Context, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot, aid solver.Aid) (solver.Result, error) {
	o, err := solver.Configure(cpuSpec, e, in, p)
	if err != nil {
		return solver.Result{StopReason: solver.StopError}, err
	}
	return e.solve(ctx, in, p, snaps, aid, o, nil)
}

// solve runs the search with o by the strategy st of the composing engine, or decided here when st is nil.
func (e engine) solve(ctx context.Context, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot, aid solver.Aid, o Config, st *strategy.Strategy) (solver.Result, error) {
	start := time.Now()
	w := o.Workers
	if w <= 0 {
		w = runtime.NumCPU()
	}
	p.Workers = w
	p.Algorithm, p.Backend = e.Name(), solver.BackendCPU
	if in.N < 8 {
		// the few tours there are, each one measured
		return runctl.ExactSmall(in, e, p, snaps, start)
	}
	s := &search{e: e, in: in, p: p, o: o, w: w, start: start, sink: solver.NewSink(snaps, 0, start)}
	if s.deadline = solver.DeadlineOf(ctx, start); !s.deadline.IsZero() {
		s.limit = s.deadline.Sub(start)
	}
	if s.limit == 0 && o.Rounds == 0 {
		s.o.Rounds = defaultBudgetRounds
	}
	if st != nil {
		s.plan = *st
	} else {
		s.plan = decide(in, w, s.limit, aid.Pool != nil)
	}
	inner := aid.Ascents
	if inner == nil {
		inner = new(bound.Ascents)
	}
	s.alpha = &alphaCache{inner: inner, budget: s.plan.Ascent, device: aid.Device}
	switch {
	case s.plan.GPU.Pool && aid.Pool != nil:
		s.feed = newFeeder(aid.Pool, in, p.Seed, time.Duration(o.GPURound)*time.Millisecond)
	case aid.Pool == nil:
	case s.limit == 0:
		s.noPool = solver.NoPoolKicks
	}
	return s.run(ctx)
}

// decide is a pop run's strategy: the one call of strategy.Decide for pop (auto hands its own down).
func decide(in *solver.Instance, w int, limit time.Duration, gpu bool) strategy.Strategy {
	return strategy.Decide(strategy.Facts{Engine: strategy.Pop, N: in.N, FixedEdges: len(in.FixedEdges) > 0, Workers: w,
		TimeLimit: limit, Devices: strategy.Devices{GPU: gpu}})
}

// DefaultLimit is solver.DefaultTimeLimit, none with a kicks budget (solver.DefaultLimiter).
func (engine) DefaultLimit(in *solver.Instance, p solver.Params) time.Duration {
	return DefaultLimit(in, p)
}

var _ solver.DefaultLimiter = engine{}

// DefaultLimit is the pop engine's default limit for a run of p on in.
func DefaultLimit(in *solver.Instance, p solver.Params) time.Duration {
	if o, err := spec.Parse(in, p); err == nil && o.Kicks != 0 {
		return 0
	}
	return solver.DefaultTimeLimit
}

// Plan says a default run's strategy on in (solver.Planner).
func (engine) Plan(in *solver.Instance) string {
	return decide(in, runtime.NumCPU(), solver.DefaultTimeLimit, false).String()
}

// Solve runs the population search as the pop engine does, with a GPU pool's options: GPU pop's plain Go call.
func Solve(ctx context.Context, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot, aid solver.Aid) (solver.Result, error) {
	o, err := gpuSpec.Parse(in, p)
	if err != nil {
		return solver.Result{StopReason: solver.StopError}, err
	}
	return engine{}.solve(ctx, in, p, snaps, aid, o, nil)
}

// SolveDecided runs the population search by auto's strategy st, deciding nothing again.
func SolveDecided(ctx context.Context, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot, aid solver.Aid, st strategy.Strategy) (solver.Result, error) {
	e := engine{}
	o, err := solver.Configure(cpuSpec, e, in, p)
	if err != nil {
		return solver.Result{StopReason: solver.StopError}, err
	}
	return e.solve(ctx, in, p, snaps, aid, o, &st)
}

// defaultBudgetRounds is the rounds of a kicks-budget run without the rounds option.
const defaultBudgetRounds = 12

// search is one run of the engine.
type search struct {
	e     engine
	in    *solver.Instance
	p     solver.Params
	o     Config
	w     int
	start time.Time
	// deadline is the run's (zero: none); limit the time to it
	deadline time.Time
	limit    time.Duration
	plan     strategy.Strategy
	srch     *searcher
	alpha    *alphaCache
	sink     *solver.Sink

	pool    *Pool
	greedy  []int32 // the greedy start (ls=search)
	best    []int32
	bestLen int64

	moves, steps               int64
	crossings, gained, entered int
	merged                     int
	fresh                      int

	live     liveBest          // the workers' best tour during a round
	evo      evolution         // the EAX population's state, while evolve runs
	eax      solver.EAXAccount // the populations evolved, for the account
	lastGain solver.Source     // what found the best tour last

	feed                *feeder             // the accelerator's searches (nil: none)
	noPool              solver.NoPoolReason // why there is no feeder, for the account
	gpuEntered, gpuBest int                 // its tours that entered the pool, and set a new best
}

// task is one worker's share of a round: a new tour or two members' crossover.
type task struct {
	a, b       []int32
	lenA, lenB int64
	cross      bool
	start      []int32 // a given start tour for a new one
	seed       uint64
	gpx        *crosser
	child      []int32
	st         recomb.Stats

	merged int // gains merging with the pool

	out          []int32
	outLen       int64
	moves, steps int64
	err          error
}

// run sets up, evolves the EAX populations, then recombines the pool round by round.
func (s *search) run(ctx context.Context) (solver.Result, error) {
	n := s.in.N
	s.pool = NewPool(s.o.Pool, n)
	s.bestLen = -1
	if err := s.setUp(ctx); err != nil {
		return solver.Result{StopReason: solver.StopError}, err
	}
	s.evolveAll(ctx)
	tasks := make([]task, s.w)
	for i := range tasks {
		tasks[i].gpx = newCrosser(n)
		tasks[i].child = make([]int32, n)
	}
	stopFeed := s.startFeeder(ctx)
	defer stopFeed()
	stopped, err := s.rounds(ctx, tasks)
	if err != nil {
		return solver.Result{StopReason: solver.StopError}, err
	}
	stopFeed()
	return s.finish(stopped)
}

// setUp runs the alpha lists' ascent once on all cores and builds the searches.
func (s *search) setUp(ctx context.Context) error {
	if s.plan.LocalSearch.Lists == strategy.Alpha {
		s.sink.SendPhase(solver.PhaseBound, solver.UnknownProgress)
		s.alpha.prime(ctx, s.in, s.plan.LocalSearch.Neighbors)
	}
	s.sink.SendPhase(solver.PhaseSetup, solver.UnknownProgress)
	srch, err := newSearcher(ctx, s.in, s.w, s.alpha, s.plan.LocalSearch)
	if err != nil && ctx.Err() == nil {
		return err
	}
	s.srch = srch
	return nil
}

// evolveAll evolves populations while half the time is left, each after the first seeded with the best so far
// (docs/DECISIONS.md#pop).
func (s *search) evolveAll(ctx context.Context) {
	ok := s.evolve(ctx, 0)
	for more := 0; s.limit > 0 && ok && s.bestLen != 0 && !s.done(ctx) && time.Since(s.start) < s.limit/2; more++ {
		ok = s.evolve(ctx, more+1)
	}
}

// rounds runs rounds of tasks until the run ends; true when stopped early.
func (s *search) rounds(ctx context.Context, tasks []task) (bool, error) {
	r := rand.New(rand.NewPCG(s.p.Seed, 0x706f70))
	for round := 0; ; round++ {
		switch {
		case s.bestLen == 0:
			return false, nil // no tour is shorter
		case s.done(ctx):
			return ctx.Err() != nil || s.limit > 0, nil
		case s.o.Rounds > 0 && round >= s.o.Rounds:
			return false, nil
		}
		slice, ok := s.slice(round)
		if !ok {
			// under 20 ms left: the run waits out its limit
			select {
			case <-ctx.Done():
			case <-time.After(time.Until(s.deadline)):
			}
			return true, nil
		}
		s.assign(ctx, tasks, round, r)
		s.phase()
		s.runRound(ctx, tasks, slice)
		if err := s.collect(ctx, tasks); err != nil {
			return false, err
		}
		s.fromGPU()
	}
}

// assign gives each task its start: a new tour while the pool has room or no pair.
func (s *search) assign(ctx context.Context, tasks []task, round int, r *rand.Rand) {
	for i := range tasks {
		t := &tasks[i]
		t.seed = s.p.Seed*0x9e3779b97f4a7c15 + uint64(round)*1000003 + uint64(i)
		t.cross, t.start = false, nil
		if s.pool.Len()+i < s.pool.Cap() || s.pool.Len() < 2 {
			switch {
			case round == 0 && i == 0:
				if s.p.Start != nil {
					t.start = runctl.To32(s.p.Start)
				}
			default:
				t.start = s.freshStart(ctx, r)
			}
			if t.start == nil && s.srch != nil {
				t.start = s.greedyStart(ctx)
			}
			continue
		}
		a, b, ok := s.pool.Pair(r)
		if !ok {
			continue
		}
		t.cross = true
		ta, la := s.pool.Tour(a)
		tb, lb := s.pool.Tour(b)
		t.a, t.b = append(t.a[:0], ta...), append(t.b[:0], tb...)
		t.lenA, t.lenB = la, lb
	}
}

// collect offers the round's tours to the pool; a task's error ends the run.
func (s *search) collect(ctx context.Context, tasks []task) error {
	for i := range tasks {
		t := &tasks[i]
		if t.err != nil {
			if ctx.Err() != nil {
				break
			}
			return t.err
		}
		s.moves += t.moves
		s.steps += t.steps
		if t.cross {
			s.crossings++
			if t.st.Gain > 0 {
				s.gained++
			}
		} else {
			s.fresh++
		}
		if len(t.out) != s.in.N {
			continue
		}
		s.merged += t.merged
		if s.pool.Offer(t.out, t.outLen) && t.cross {
			s.entered++
		}
		if s.bestLen < 0 || t.outLen < s.bestLen {
			s.best = append(s.best[:0], t.out...)
			s.bestLen = t.outLen
			s.lastGain = solver.SourceDescent
			if t.cross {
				s.lastGain = solver.SourceCrossover
			}
			s.sendBest()
		}
	}
	return nil
}

// finish returns the run's result: the best tour or the start.
func (s *search) finish(stopped bool) (solver.Result, error) {
	if s.best == nil {
		st := s.p.Start
		if st == nil {
			st = construct.KeepFixed(s.in, solver.IdentityTour(s.in.N))
		}
		s.best = runctl.To32(st)
	}
	res, err := solver.Finish(s.in, s.e, s.p, solver.Outcome{Tour: runctl.ToInt(s.best), Moves: s.moves, Steps: s.steps, Start: s.start,
		Stopped: stopped, Device: runctl.DeviceName(s.w), Account: s.account()})
	if err == nil && s.feed != nil {
		res.Stats.PoolSearched = s.feed.worked()
	}
	return res, err
}

// account is the run's account so far.
func (s *search) account() solver.Account {
	a := solver.Account{Search: solver.SearchPopulation, Workers: s.w, LastGain: s.lastGain}
	if s.pool != nil {
		edges, length := s.pool.Spread()
		a.Pool = &solver.PoolAccount{Tours: s.pool.Len(), Capacity: s.pool.Cap(), SpreadEdges: 100 * edges, SpreadLength: 100 * length,
			NewTours: s.fresh, Crossovers: s.crossings, Gained: s.gained, Entered: s.entered, Merges: s.merged, FromGPU: s.pool.FromGPU()}
	}
	switch {
	case s.evo.on:
		a.EAX = s.evo.account()
	case s.eax.Populations > 0:
		e := s.eax
		a.EAX = &e
	}
	if s.noPool != "" {
		a.GPUPart().NoPool = s.noPool
	}
	if s.feed != nil {
		s.feed.account(&a, s.gpuEntered, s.gpuBest)
	}
	return a
}

// crosser is a task's crossover: partition crossover, then GPX2 where shorter.
type crosser struct {
	plain, full recomb.GPX
	spare       []int32
}

// newCrosser returns the crossover for tours of n cities.
func newCrosser(n int) *crosser {
	return &crosser{plain: recomb.GPX{NoGhosts: true, NoFusion: true}, spare: make([]int32, n)}
}

// Cross writes the child of a and b into child (see recomb.GPX.Cross).
func (c *crosser) Cross(d recomb.Distancer, a, b []int32, lenA, lenB int64, child []int32) recomb.Stats {
	st := c.plain.Cross(d, a, b, lenA, lenB, child)
	st2 := c.full.Cross(d, a, b, lenA, lenB, c.spare)
	if st2.Length < st.Length {
		copy(child, c.spare)
		return st2
	}
	return st
}

// mergeWithPool crosses the task's tour with each pool member, keeping shorter children (t.merged counts them);
// the pool changes only between rounds.
func (s *search) mergeWithPool(ctx context.Context, t *task) {
	t.merged = 0
	if !s.o.Merge || len(t.out) != s.in.N {
		return
	}
	for i := 0; i < s.pool.Len() && ctx.Err() == nil; i++ {
		if s.limit > 0 && !time.Now().Before(s.deadline) {
			return // the run's time is up
		}
		m, ml := s.pool.Tour(i)
		st := t.gpx.Cross(s.in, t.out, m, t.outLen, ml, t.child)
		if st.Length < t.outLen {
			t.out, t.child = t.child, t.out
			t.outLen = st.Length
			t.merged++
		}
	}
}

// greedyStart is the greedy tour on the candidate lists with the fixed edges in.
func (s *search) greedyStart(ctx context.Context) []int32 {
	if s.greedy == nil {
		t, err := construct.GreedyContext(ctx, s.in, &neighbor.Lists{K: s.srch.k, List: s.srch.nb})
		if err != nil {
			return nil
		}
		s.greedy = runctl.To32(construct.KeepFixed(s.in, t))
	}
	return slices.Clone(s.greedy)
}

// freshStart is a later first tour's start: the best so far with random double bridges on a fiftieth of the cities.
func (s *search) freshStart(ctx context.Context, r *rand.Rand) []int32 {
	n := s.in.N
	if s.bestLen < 0 || n < 8 {
		return nil
	}
	t := slices.Clone(s.best)
	for k := max(10, n/50); k > 0; k-- {
		doubleBridge(t, r)
	}
	return runctl.To32(construct.KeepFixed(s.in, runctl.ToInt(t)))
}

// nnTour is a randomized nearest-neighbour tour over near with the fixed edges in.
func (s *search) nnTour(ctx context.Context, near *neighbor.Lists, r *rand.Rand) ([]int32, error) {
	t, err := construct.RandomizedNearestNeighborContext(ctx, s.in, r.IntN(s.in.N), near, r, 0.1)
	if err != nil {
		return nil, err
	}
	return runctl.To32(construct.KeepFixed(s.in, t)), nil
}

// doubleBridge swaps two neighbouring segments of t of up to 50 cities.
func doubleBridge(t []int32, r *rand.Rand) {
	n := len(t)
	l1, l2 := 1+r.IntN(min(50, n/4)), 1+r.IntN(min(50, n/4))
	tour.SwapAdjacent(t, r.IntN(n), l1, l2)
}

// done reports whether the run ends: context, time limit or target.
func (s *search) done(ctx context.Context) bool {
	if ctx.Err() != nil {
		return true
	}
	if s.limit > 0 && !time.Now().Before(s.deadline) {
		return true
	}
	return s.p.Target > 0 && s.bestLen >= 0 && s.bestLen <= s.p.Target
}

// slice is round's search time (0 on a kicks budget), false when too little is left.
func (s *search) slice(round int) (time.Duration, bool) {
	if s.limit == 0 {
		return 0, true
	}
	left := time.Until(s.deadline)
	if left < 20*time.Millisecond {
		return 0, false
	}
	d := min(max(s.limit/15, 300*time.Millisecond), 5*time.Second)
	if s.pool.Len() < s.pool.Cap() {
		// the first tours share the init part of the time
		per := (s.pool.Cap() + s.w - 1) / s.w
		d = max(time.Duration(float64(s.limit)*s.o.Init)/time.Duration(per), d)
	}
	if left-d < d/2 {
		d = left // the last round takes the rest
	}
	return min(d, left), true
}

// runRound runs the tasks on the workers at once.
func (s *search) runRound(ctx context.Context, tasks []task, slice time.Duration) {
	// a task that reaches the target ends the others' too
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for i := range tasks {
		wg.Add(1)
		go func(i int, t *task) {
			defer wg.Done()
			s.runTask(ctx, i, t, slice)
			if t.err == nil && s.p.Target > 0 && t.out != nil && t.outLen <= s.p.Target {
				cancel()
			}
		}(i, &tasks[i])
	}
	s.watch(&wg)
}

// watch waits for wg, sending the workers' live best every 500 ms when shorter.
func (s *search) watch(wg *sync.WaitGroup) {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-done:
			return
		case <-tick.C:
			if l, t := s.live.take(); t != nil && (s.bestLen < 0 || l < s.bestLen) {
				s.best, s.bestLen = t, l
				s.sendBest()
				continue
			}
			s.phase()
		}
	}
}

// runTask crosses the task's parents and runs the local search from the child.
func (s *search) runTask(ctx context.Context, i int, t *task, slice time.Duration) {
	t.out, t.err = nil, nil
	t.moves, t.steps, t.merged = 0, 0, 0
	st := t.start
	if t.cross {
		t.st = t.gpx.Cross(s.in, t.a, t.b, t.lenA, t.lenB, t.child)
		st = t.child
	}
	if s.srch == nil || st == nil {
		return // stopped before the searcher or the greedy start was there
	}
	var until time.Time
	if slice > 0 {
		until = time.Now().Add(slice)
	}
	var live *liveBest
	if s.limit > 0 {
		live = &s.live // a run by a kicks budget stays deterministic
	}
	t.out, t.outLen, t.moves, t.steps = s.srch.improve(ctx, i, st, t.seed, until, s.o.Kicks, live)
	s.mergeWithPool(ctx, t)
}

// progress is the share of the time limit or the rounds done.
func (s *search) progress() float64 {
	if s.limit > 0 {
		return min(1, time.Since(s.start).Seconds()/s.limit.Seconds())
	}
	return solver.UnknownProgress
}

// phaseName is the search's stage: EAX, pool filling or recombining.
func (s *search) phaseName() solver.Phase {
	switch {
	case s.evo.on:
		return solver.PhaseEvolve
	case s.pool.Len() < s.pool.Cap():
		return solver.PhaseFill
	}
	return solver.PhaseRecombine
}

// sendBest sends the best tour with the phase.
func (s *search) sendBest() {
	s.sink.Send(solver.Snapshot{Tour: runctl.ToInt(s.best), Length: s.bestLen, Best: runctl.ToInt(s.best), BestLength: s.bestLen,
		Step: s.steps, Moves: s.moves, Progress: max(s.progress(), 0), Phase: s.phaseName(), PhaseProgress: s.progress(), Account: s.snapAccount()})
}

// snapAccount is the account for a snapshot (its own copy).
func (s *search) snapAccount() *solver.Account {
	a := s.account()
	return &a
}

// startFeeder starts the accelerator's feeder until the limit or ctx's end and returns its stop-and-collect function.
func (s *search) startFeeder(ctx context.Context) func() {
	if s.feed == nil {
		return func() {}
	}
	fctx, cancel := context.WithDeadline(ctx, s.deadline)
	go s.feed.run(fctx)
	var once sync.Once
	return func() {
		once.Do(func() {
			cancel()
			<-s.feed.done
			s.fromGPU()
		})
	}
}

// fromGPU offers the accelerator's tours to the pool and hands it the members.
func (s *search) fromGPU() {
	if s.feed == nil {
		return
	}
	for _, g := range s.feed.take() {
		if s.pool.OfferFrom(g.tour, g.length, true) {
			s.gpuEntered++
		}
		if s.bestLen < 0 || g.length < s.bestLen {
			s.best = append(s.best[:0], g.tour...)
			s.bestLen = g.length
			s.gpuBest++
			s.lastGain = solver.SourceGPU
			s.sendBest()
		}
	}
	s.feed.publish(s.pool)
}

// phase sends the phase, with the best length once there is one.
func (s *search) phase() {
	if s.bestLen < 0 {
		s.sink.SendStage(s.phaseName(), s.progress(), s.snapAccount())
		return
	}
	s.sink.Send(solver.Snapshot{Length: s.bestLen, BestLength: s.bestLen, Step: s.steps, Moves: s.moves,
		Progress: max(s.progress(), 0), Phase: s.phaseName(), PhaseProgress: s.progress(), Account: s.snapAccount()})
}

// alphaCache answers the local searches' alpha-list requests from one ascent, run by the first request.
type alphaCache struct {
	inner  solver.Ascents
	budget time.Duration
	device solver.OpenAscentDevice // nil: the cores

	mu    sync.Mutex
	k     int
	lists solver.AlphaLists
	err   error
	done  bool
}

var _ solver.Ascents = (*alphaCache)(nil)

// prime runs the ascent for k-candidate lists before the workers start.
func (a *alphaCache) prime(ctx context.Context, in *solver.Instance, k int) {
	a.Alpha(ctx, in, k, solver.AscentOptions{})
}

// Alpha returns the kept lists of k candidates, or runs the ascent.
func (a *alphaCache) Alpha(ctx context.Context, in *solver.Instance, k int, opts solver.AscentOptions) (solver.AlphaLists, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.done && a.k == k {
		return a.lists, a.err
	}
	o := opts
	o.Time = a.budget
	if o.Device == nil {
		o.Device = a.device
	}
	l, err := a.inner.Alpha(ctx, in, k, o)
	if ctx.Err() != nil {
		return l, err // not kept: the next run asks again
	}
	a.done, a.k, a.lists, a.err = true, k, l, err
	return l, err
}

// Underway is false: the lists are there at once, so the search waits for them.
func (a *alphaCache) Underway(*solver.Instance, solver.AscentOptions) bool { return false }

// liveBest holds the workers' shortest tour during a round, for the snapshots.
type liveBest struct {
	mu     sync.Mutex
	length int64 // 0: none yet
	tour   []int32
	fresh  bool // not taken since it was set
}

// offer keeps tour() if length is shorter than the kept tour's.
func (l *liveBest) offer(length int64, tour func() []int32) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.length == 0 || length < l.length {
		l.length, l.tour, l.fresh = length, tour(), true
	}
}

// shorter reports whether length is shorter than the kept tour's.
func (l *liveBest) shorter(length int64) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.length == 0 || length < l.length
}

// take returns the tour kept since the last take (nil otherwise).
func (l *liveBest) take() (int64, []int32) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.fresh {
		return 0, nil
	}
	l.fresh = false
	return l.length, slices.Clone(l.tour)
}
