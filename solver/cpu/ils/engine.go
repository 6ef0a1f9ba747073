package ils

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"github.com/tsplab/tsplab/solver/cpu/localsearch"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tsplab/tsplab/internal/runctl"
	"github.com/tsplab/tsplab/lab"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/bound"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/cpu/partition"
	"github.com/tsplab/tsplab/solver/cpu/population"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/strategy"
	"github.com/tsplab/tsplab/solver/tour"
)

// ilsConfig is one iterated local search: the move set, the pivoting,
// the acceptance and how the workers cooperate. An engine fixes orOpt and
// start; the other fields come from its options (ilsSpecs).
type ilsConfig struct {
	orOpt, threeOpt bool
	acceptEqual     bool // accept a kick that ties (drift on plateaus)
	start           startKind
	neighbors       int      // candidate list size
	candidates      listKind // OptCandidates
	maxSeg          int      // kick segment length bound
	depth           int      // steps of a sequential move after the first
	or3             bool     // with threeOpt, also tryOr3's pure 3-opt moves
	bridge          bool     // with the 5-opt move, also the non-sequential bridge move
	move            deepMove // OptMove
	share           shareKind
	sync            int // kicks per worker between best exchanges (0: independent)
	// partAuto: the auto engine, whose strategy strategy.Decide makes
	// (the partition search from strategy.PartitionMinN cities)
	partAuto bool
	// stale, when > 0, times n is the number of kicks without an
	// improvement after which a worker escapes: it goes back to its best
	// tour and applies a burst of kicks it accepts whatever they cost.
	stale int
}

// ilsEngine is 2opt-ils, 3opt-ils and auto.
type ilsEngine struct {
	runctl.Identity
	cfg ilsConfig
	// limits, when set, replaces defaultLimits (tests only)
	limits *planLimits
}

// The iterated local searches' options, by name.
const (
	// OptKicks bounds the kicks per worker; with no time limit the run is
	// then deterministic for a seed and a worker count.
	OptKicks = "kicks"
	// OptPivot selects the pivoting rule: "first" (default) or "rkbi".
	OptPivot = "pivot"
	// OptRKBI is k of random-k-best-improvement pivoting (default 3).
	OptRKBI = "rkbi_k"
	// OptSync is the kicks per worker between global-best exchanges.
	OptSync = "sync"
	// OptStale is the escape threshold: after stale·n kicks without an
	// improvement a worker restarts from its best tour perturbed by a burst
	// of kicks (0: never).
	OptStale = "stale"
	// OptThreeOpt turns the sequential 3-opt moves on or off ("on", "off").
	OptThreeOpt = "threeopt"
	// OptDepth is the number of 2-opt steps a sequential move makes after
	// its first (1: 3-opt, up to 3: 5-opt).
	OptDepth = "depth"
	// OptMove selects the deep move: "chain" (2-opt steps, threeopt and
	// depth) or "lk5" (the sequential 5-opt move, localsearch/kopt.go).
	OptMove = "move"
	// OptOr3 turns on, with the sequential 3-opt moves, the pure 3-opt
	// moves two 2-opt steps cannot make ("on", "off").
	OptOr3 = "or3opt"
	// OptBridge turns on, with the 5-opt move, the non-sequential bridge
	// move (localsearch/bridge.go) where the 5-opt move finds nothing.
	OptBridge = "bridge"
	// OptShare is what the exchange every sync kicks gives: "best" (every
	// worker takes the shortest tour) or "merge" (every worker kicks in
	// its own stretch of one tour and takes it with all the workers'
	// changes that fit together, merge.go).
	OptShare = "share"
	// OptAccept is the kick acceptance: "better" (strictly shorter) or
	// "equal" (also ties, to drift across plateaus).
	OptAccept = "accept"
	// OptSegment bounds the length of a kick's segments.
	OptSegment = "segment"
	// OptNeighbors is the candidate list size.
	OptNeighbors = "neighbors"
	// OptCandidates selects the candidate lists: "nearest" (the k nearest
	// cities), "quadrant" (k/4 nearest in each quadrant, for clustered
	// instances), "union" (both lists merged), "mixed" (nearest for
	// even-numbered workers, quadrant for odd ones: auto's default, robust
	// on both kinds) or "alpha" (alpha-nearness of a Held–Karp ascent,
	// see solver/bound).
	OptCandidates = "candidates"
)

// Config is one run's settings of an iterated local search, read once
// from its Params (prepare): the engine's options on the instance (auto's
// defaults by size included) with its own move set and start, the workers
// counted, and which options the user gave (the plan leaves those as
// they are).
type Config struct {
	o     ilsOptions
	w     int
	given func(string) bool
}

// prepare reads the run's settings from p on in once: checked against
// the engine first (solver.Configure) when check, else only parsed (an
// engine that composes this one checked them with its own).
func (e ilsEngine) prepare(in *solver.Instance, p solver.Params, check bool) (Config, error) {
	var o ilsOptions
	var err error
	if check {
		o, err = solver.Configure(ilsSpecs[e.ID], e, in, p)
	} else {
		o, err = ilsSpecs[e.ID].Parse(in, p)
	}
	if err != nil {
		return Config{}, err
	}
	o.cfg.orOpt, o.cfg.start, o.cfg.partAuto = e.cfg.orOpt, e.cfg.start, e.cfg.partAuto
	if !o.pivotRKBI {
		o.rkbi = 0
	}
	o.rkbi = min(o.rkbi, runctl.MaxSearches)
	w, err := runctl.CountSearches("workers", o.workers, runtime.NumCPU(), e.searchCities(o, in), lsBytesPerCity)
	if err != nil {
		return Config{}, err
	}
	given := p.Given
	if set, typed := p.Config.(func(*ilsOptions)); typed && set != nil {
		// a config built in code is its caller's choice throughout
		given = func(string) bool { return true }
	}
	return Config{o: o, w: w, given: given}, nil
}

// KeepsFixedEdges reports that the iterated local searches keep an
// instance's fixed edges in every tour: no move removes one.
func (e ilsEngine) KeepsFixedEdges() bool { return true }

// lsBytesPerCity is the memory one worker's local search takes per city:
// tour, positions and queue (int32), the don't-look bits, and the best
// tour kept for escapes.
const lsBytesPerCity = 4 + 4 + 4 + 1 + 4

// DefaultLimit is the time limit of a run of p that gives none
// (solver.DefaultLimiter): solver.DefaultTimeLimit, none with a kicks
// budget.
func (e ilsEngine) DefaultLimit(in *solver.Instance, p solver.Params) time.Duration {
	if o, err := solver.ConfigOf(ilsSpecs[e.ID], e, in, p); err == nil && o.kicks != 0 {
		return 0
	}
	return solver.DefaultTimeLimit
}

var _ solver.DefaultLimiter = ilsEngine{}

func (e ilsEngine) Solve(ctx context.Context, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot) (solver.Result, error) {
	return e.SolveAided(ctx, in, p, snaps, solver.Aid{})
}

var _ solver.Aided = ilsEngine{}

// SolveAided is Solve with aid: aid.FirstTour is closed once the start
// tour is ready and the search begins; the Held–Karp ascent behind
// alpha-nearness lists runs on aid.Device, through aid.Ascents (a run of
// its own when nil). It reads its settings once and decides its plan.
func (e ilsEngine) SolveAided(ctx context.Context, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot, aid solver.Aid) (solver.Result, error) {
	start := time.Now()
	if err := runctl.CheckStart(in, p); err != nil {
		return solver.Result{}, err
	}
	cfg, err := e.prepare(in, p, true)
	if err != nil {
		return solver.Result{}, err
	}
	st := e.decide(e.facts(cfg.o, in, cfg.given, cfg.w, solver.LeftOf(ctx, start))).Strategy
	return e.run(ctx, in, p, snaps, aid, cfg, st, start)
}

// run runs the search of cfg on in by the strategy st, decided for it
// once (by this engine, or by the one that composes it).
func (e ilsEngine) run(ctx context.Context, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot, aid solver.Aid, cfg Config, st strategy.Strategy, start time.Time) (solver.Result, error) {
	o, w := cfg.o, cfg.w
	p.Algorithm, p.Backend = e.ID, solver.BackendCPU
	p.Workers = w
	plan := ilsPlan{Strategy: st, limits: e.planLimits()}
	plan.apply(&o, cfg.given)
	if in.N < 8 {
		return runctl.ExactSmall(in, e, p, snaps, start)
	}
	if plan.pop() {
		return e.solvePop(ctx, in, p, snaps, aid, st, start)
	}
	r := &ilsRun{e: e, in: in, p: p, o: o, w: w, plan: plan, start: start, c: runctl.NewControl(ctx, p, w, snaps, start), aid: aid}
	if r.aid.Ascents == nil {
		r.aid.Ascents = new(bound.Ascents)
	}
	r.c.SetAccount(r.account())
	return r.run()
}

// ilsOptions are one run's settings, the iterated local searches' config
// struct (their options, config.go): the configuration and the budget.
type ilsOptions struct {
	cfg       ilsConfig
	workers   int  // 0: all cores
	kicks     int  // kicks per worker (0: until the time limit)
	rkbi      int  // >0: random-k-best-improvement pivoting among this many
	pivotRKBI bool // OptPivot is rkbi (rkbi is 0 unless set)
	partition partMode
	partSeg   int                // OptPartSegment (0: partSegment)
	solo      partition.SoloMode // OptSolo
	partKicks float64            // OptPartKicks
	partSlice int                // OptPartSlice, milliseconds
	partShape partShape
	partDeep  float64 // OptPartDeep
	restart   int     // the plan's restart stall, milliseconds (0: none)
	win       winOptions
}

// moveSet is the run's move set without the 5-opt move's state.
func (o ilsOptions) moveSet() localsearch.MoveSet {
	return localsearch.MoveSet{OrOpt: o.cfg.orOpt, ThreeOpt: o.cfg.threeOpt, Depth: o.cfg.depth, Or3: o.cfg.or3, RKBI: o.rkbi, Bridge: o.cfg.bridge}
}

// configure gives the local search s the run's move set and pivoting,
// with the 5-opt move's state it holds (a new one if none) when the move
// option takes the 5-opt move.
func (o ilsOptions) configure(s *localsearch.Search) {
	m := o.moveSet()
	if o.cfg.move == deepLK5 {
		m.FiveOpt = s.FiveOptState()
		if m.FiveOpt == nil {
			m.FiveOpt = localsearch.NewFiveOpt()
		}
	}
	s.SetMoves(m)
}

// ilsRun is one run of an iterated local search: set-up (candidate lists,
// start tour), then w workers, each a local search with don't-look bits
// that kicks its tour and keeps the kick when the tour does not get
// longer, exchanging the best tour every cfg.sync kicks.
type ilsRun struct {
	e     ilsEngine
	in    *solver.Instance
	p     solver.Params
	o     ilsOptions
	w     int
	plan  ilsPlan // decided once, before the run (decide)
	start time.Time
	c     *runctl.Control

	searches  []*localsearch.Search
	kicksDone []runctl.Counter
	// lists says how the candidate lists were made, for the account
	// (Kind "": the engine's own, nothing to tell); windows and
	// besideWarn are the path improver's part of it; stats holds the
	// ascent's figures
	lists   solver.ListsAccount
	windows *solver.WindowsAccount
	// tourWindows is the windows' search after the hand-over (nil: none)
	tourWindows *solver.TourWindowsAccount
	lkAcc       *solver.LKStartAccount // the chained LK start, when the merged search took one
	besideWarn  string
	stats       solver.Stats
	pre         []int32 // the start tour shown before the ascent (nil: build one)
	// alpha: lists from an ascent in the background (alphaLater), taken
	// by the workers between epochs (alphaTaken)
	alpha      atomic.Pointer[alphaLists]
	alphaTaken bool
	// escapes: each worker's best tour, kept apart from its current one
	// only once the worker has escaped (written lazily, at the escape)
	wbest      [][]int32
	wbestLen   []int64
	stale      []int
	staleLimit int
	burst      int

	// the first descents of workers 0 and 1, for the workers with the
	// same candidate lists: closed when done, the tour nil when stopped
	descended [2]chan struct{}
	descent   [2][]int32

	// mg is the exchange of share "merge" (merge.go); epochEnd ends its
	// timed epochs
	mg       merger
	epochEnd time.Time
	rs       restarts // the merged search's restarts (restart.go)
	// draining: the worker descended cities of its queue in this epoch
	// (drain)
	draining []bool

	// partitioned: the partition search ran (solver/cpu/partition), not
	// the searches
	partitioned bool

	// aid: FirstTour is closed once the start tour is ready (nil: nobody
	// waits for it); Device opens the accelerator of the ascent behind
	// alpha lists (nil: the CPU); Ascents runs that ascent (never nil)
	aid solver.Aid
}

// run performs the phases and returns the best tour found, also when the
// time runs out or the context ends during set-up.
func (r *ilsRun) run() (solver.Result, error) {
	c := r.c
	// A first tour at once, cheap enough for a million cities, so that a
	// run stopped during set-up still returns one.
	c.SetPhase(solver.PhaseStart)
	first := r.quickTour()
	if r.o.cfg.start == startSFC {
		r.pre = first // the start tour itself
	}
	c.Offer(first, tour.LazyDist(r.in).Length(first))
	c.Snapshot(first, c.BestLen.Load(), 0, 0, 0)
	if c.Done() {
		return r.finish(nil) // a tour of length 0, the target, or no time left
	}

	setup, cancel := c.SetupContext()
	defer cancel()
	beat := c.Heartbeat(500 * time.Millisecond)
	nb, nbOdd, err := r.candidates(setup)
	var t0 []int32
	if err == nil {
		t0, err = r.startTour(setup, nb)
	}
	var d *tour.Dist
	if err == nil {
		// a distance matrix for up to 4096 cities of a costly metric
		// (GEO) takes a while too
		d, err = neighbor.Await(setup, func() *tour.Dist { return tour.NewDist(r.in) })
	}
	beat()
	if err != nil && setup.Err() == nil {
		return solver.Result{}, err
	}
	if err != nil || c.Done() {
		return r.finish(nil)
	}
	l0 := d.Length(t0)
	c.Offer(t0, l0)
	// the start tour on screen at once: the first round of a partition
	// search on a million cities takes seconds
	c.Snapshot(t0, l0, 0, 0, 0)
	if r.aid.FirstTour != nil {
		close(r.aid.FirstTour)
	}
	r.kicksDone = make([]runctl.Counter, r.w)
	if r.usePartition() {
		return r.runPartition(setup, t0, nb, nbOdd, d)
	}
	if r.plan.LKStart > 0 {
		var ok bool
		if t0, ok = r.lkStart(t0, nb, nbOdd, d); !ok {
			return r.finish(nil)
		}
	}
	r.newSearches(t0, nb, nbOdd, d)
	r.search()
	if a := r.alpha.Load(); a != nil && a.err != nil {
		return solver.Result{}, fmt.Errorf("alpha candidates: %v", a.err)
	}
	return r.finish(r.searches)
}

// runPartition runs the partition search from t0, then the windows from
// its hand-over when the plan takes them, and returns the best tour found.
func (r *ilsRun) runPartition(setup context.Context, t0 []int32, nb, nbOdd *neighbor.Lists, d *tour.Dist) (solver.Result, error) {
	r.partitioned = true
	env := r.partEnv()
	if r.o.cfg.candidates == listAlpha {
		// the pieces take the mixed lists (candidates), without an
		// ascent (docs/DECISIONS.md#gpu-alpha-beside)
		env.Opts.Candidates = listMixed
	}
	end, watched := r.windowsStart()
	lists, stopAscent := r.wholeLists(setup)
	defer stopAscent()
	r.windows, r.besideWarn = partition.Run(env, t0, nb, nbOdd, d)
	watched()
	if err := r.searchWindows(end, lists); err != nil {
		return solver.Result{}, err
	}
	return r.finish(nil)
}

// newSearches sets up the workers' local searches from t0, on nb for the
// even-numbered ones and nbOdd for the odd ones, and their escapes' state.
func (r *ilsRun) newSearches(t0 []int32, nb, nbOdd *neighbor.Lists, d *tour.Dist) {
	r.searches = make([]*localsearch.Search, r.w)
	r.wbest = make([][]int32, r.w)
	r.wbestLen = make([]int64, r.w)
	r.stale = make([]int, r.w)
	r.staleLimit = r.o.cfg.stale * r.in.N
	r.burst = min(max(2, r.in.N/30), 50)
	r.descended = [2]chan struct{}{make(chan struct{}), make(chan struct{})}
	for i := range r.searches {
		l := nb
		if i%2 == 1 {
			l = nbOdd
		}
		s := localsearch.New(d, l.List, l.K, t0)
		s.SetRanked(l.Ranked)
		r.o.configure(s)
		s.CacheNeighborDists()
		s.SetRand(newRNG(r.p.Seed, uint64(i)))
		s.SetJournal(true)
		s.SetFixed(r.in.FixedEdges)
		r.searches[i] = s
		r.wbestLen[i] = math.MaxInt64
	}
}

// quickTour is the start tour when one is given, else the
// space-filling-curve tour (the identity without coordinates), with the
// fixed edges put in.
func (r *ilsRun) quickTour() []int32 {
	if r.p.Start != nil {
		return runctl.To32(r.p.Start)
	}
	var t []int
	if r.in.Metric != solver.Explicit && r.in.HasCoords() {
		t = construct.SpaceFillingCurve(r.in)
	} else {
		t = solver.IdentityTour(r.in.N)
	}
	return runctl.To32(construct.KeepFixed(r.in, t))
}

// candidates builds the candidate lists: nb for the even-numbered
// workers, nbOdd for the odd ones (they differ only for "mixed": nearest
// for the even workers, quadrant for the odd ones). The partition search
// takes both under "mixed" whatever the workers: its pieces alternate
// them, and they tell it whether the instance is clustered.
func (r *ilsRun) candidates(ctx context.Context) (nb, nbOdd *neighbor.Lists, err error) {
	r.c.SetPhase(solver.PhaseNeighbours)
	k := r.o.cfg.neighbors
	switch r.o.cfg.candidates {
	case listNearest:
		nb, err = r.nearest(ctx, k)
	case listQuadrant:
		nb, err = neighbor.QuadrantContext(ctx, r.in, k)
	case listUnion:
		var a, b *neighbor.Lists
		if a, b, err = neighbor.NearestQuadrantContext(ctx, r.in, k); err == nil {
			nb = unionNeighbors(r.in, a, b)
		}
	case listMixed:
		if r.w > 1 || r.usePartition() {
			// One search finds both.
			nb, nbOdd, err = neighbor.NearestQuadrantContext(ctx, r.in, k)
		} else {
			nb, err = neighbor.NearestContext(ctx, r.in, k)
		}
	case listAlpha:
		if r.usePartition() {
			// the partition search takes the mixed lists (runPartition)
			nb, nbOdd, err = neighbor.NearestQuadrantContext(ctx, r.in, k)
			break
		}
		nb, err = r.alphaCandidates(ctx, k)
	}
	if nbOdd == nil {
		nbOdd = nb
	}
	return nb, nbOdd, err
}

// alphaCandidates builds alpha-nearness lists of k candidates: a greedy
// tour on the nearest lists shown first, then the ascent (or the lists
// taken later, from an ascent already under way), falling back to the
// nearest lists when the ascent has no time for a first 1-tree.
func (r *ilsRun) alphaCandidates(ctx context.Context, k int) (*neighbor.Lists, error) {
	// A greedy tour on the nearest lists first, so that one is on
	// screen while the ascent runs (seconds on the CPU from 10,000
	// cities).
	near, err := r.showBeforeAscent(ctx, k)
	if err != nil {
		return nil, err
	}
	// The ascent's share of the budget: a fifth of the time limit
	// (its own schedule when there is none), on GPU auto's
	// accelerator when it runs this engine; the same
	// ascent under way for tsp solve's bound (or the app's) is
	// waited for instead of run twice (the pipeline's Ascents share it).
	opts := solver.AscentOptions{Time: r.plan.Ascent, Device: r.aid.Device}
	if near != nil && r.o.kicks == 0 && r.o.cfg.sync > 0 && !r.usePartition() && opts.Device == nil && r.aid.Ascents.Underway(r.in, opts) {
		// Another caller's ascent is under way on the CPU (tsp
		// solve's bound beside the run): the workers search on the
		// nearest lists meanwhile, sharing the cores with it, and
		// take the alpha lists between two epochs once it ends.
		// Where the run computes or waits for the ascent first, it
		// starts from the greedy tour on the alpha lists, which
		// measured ahead of the greedy tour on the nearest lists
		// (docs/DECISIONS.md#alpha-start).
		opts.Time = strategy.AscentWaitShare.Of(solver.LeftOf(ctx, r.start))
		r.alphaLater(ctx, opts, k, solver.ListsNearest)
		return near, nil
	}
	if near != nil && r.searchBeside(opts) {
		// all workers search while the ascent runs (mergedsearch.go)
		return r.quadrantBeside(ctx, opts, k)
	}
	r.c.SetPhase(solver.PhaseBound)
	res, berr := r.ascentBeside(ctx, opts, k, near != nil && r.o.kicks == 0)
	var nb *neighbor.Lists
	if berr == nil {
		nb = &neighbor.Lists{K: res.K, List: res.List, Ranked: true}
	} else if errors.Is(berr, context.DeadlineExceeded) && ctx.Err() == nil {
		// Its share of the time was too short for a first 1-tree
		// (or for the shared ascent to end): the nearest lists, the
		// engines' default.
		nb, berr = near, nil
		if near == nil {
			nb, berr = neighbor.NearestContext(ctx, r.in, k)
		}
		r.lists = solver.ListsAccount{Kind: solver.ListsNearest, AscentSeconds: opts.Time.Seconds()}
	}
	if berr != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("alpha candidates: %v", berr)
	}
	return nb, nil
}

// ascentBeside runs the ascent behind alpha-nearness lists (opts) and,
// with pre set, a local search on quadrant lists that improves the start
// tour meanwhile, on a core the ascent leaves idle (or that it shares
// with one of several).
func (r *ilsRun) ascentBeside(ctx context.Context, opts solver.AscentOptions, k int, pre bool) (solver.AlphaLists, error) {
	var ascentDone atomic.Bool
	var preTour chan []int32
	if pre {
		preTour = make(chan []int32, 1)
		go func() { preTour <- r.preSearch(ctx, k, &ascentDone) }()
	}
	res, err := r.aid.Ascents.Alpha(ctx, r.in, k, opts)
	if pre {
		ascentDone.Store(true)
		r.pre = <-preTour
	}
	if err == nil {
		r.lists, r.stats = alphaAccount(res.Stats), res.Stats
		if !pre {
			// the search starts from the greedy tour on the alpha
			// lists (above)
			r.pre = nil
		}
	}
	return res, err
}

// showBeforeAscent builds a greedy tour on the k nearest lists before
// the ascent behind alpha-nearness lists, shows it and keeps it as the
// start tour (r.pre); it returns the lists (nil with a given start tour).
func (r *ilsRun) showBeforeAscent(ctx context.Context, k int) (*neighbor.Lists, error) {
	if r.p.Start != nil {
		return nil, nil
	}
	near, err := neighbor.NearestContext(ctx, r.in, k)
	if err != nil {
		return nil, err
	}
	t, err := r.startTour(ctx, near)
	if err != nil {
		return nil, err
	}
	l := tour.LazyDist(r.in).Length(t)
	r.c.Offer(t, l)
	r.c.Snapshot(t, l, 0, 0, 0)
	r.pre = t
	return near, nil
}

// preSearch improves the start tour r.pre by the run's local search
// and kicks on quadrant lists until done is set or the run stops, and
// returns it. Started from it, the descent on the alpha-nearness lists
// is short and the search ahead of one from the greedy tour on them
// (docs/DECISIONS.md#alpha-start).
func (r *ilsRun) preSearch(ctx context.Context, k int, done *atomic.Bool) []int32 {
	q, err := neighbor.QuadrantContext(ctx, r.in, k)
	if err != nil {
		return r.pre
	}
	s := localsearch.New(tour.LazyDist(r.in), q.List, q.K, r.pre)
	r.o.configure(s)
	s.CacheNeighborDists()
	s.SetRand(newRNG(r.p.Seed, uint64(r.w)))
	s.SetJournal(true)
	s.SetFixed(r.in.FixedEdges)
	stop := func() bool {
		if done.Load() || r.c.Done() {
			return true
		}
		r.c.Offer(s.Tour(), s.Length())
		return false
	}
	s.PushAll()
	if s.Optimize(stop) {
		for !stop() {
			if _, ok := s.TryKick(r.o.cfg.maxSeg, r.o.cfg.acceptEqual, stop); !ok {
				break
			}
		}
	}
	r.c.Offer(s.Tour(), s.Length())
	return s.Tour()
}

// alphaLists are alpha-nearness lists an ascent in the background made,
// their account and the ascent's figures, or its error.
type alphaLists struct {
	l     *neighbor.Lists
	acc   solver.ListsAccount
	stats solver.Stats
	err   error // the ascent failed: the run stops and reports it
}

// alphaLater computes the alpha-nearness lists in the background
// (opts names where and how long); search gives them to the workers
// between two epochs. Without them by the end, the workers keep their
// lists (kind names them).
func (r *ilsRun) alphaLater(ctx context.Context, opts solver.AscentOptions, k int, kind solver.ListKind) {
	go func() {
		res, err := r.aid.Ascents.Alpha(ctx, r.in, k, opts)
		if err != nil {
			if ctx.Err() == nil && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
				// the run fails as it does when it waits for the
				// ascent; out of time, the workers keep their lists
				r.alpha.Store(&alphaLists{err: err})
			}
			return
		}
		l := &neighbor.Lists{K: res.K, List: res.List, Ranked: true}
		la := alphaAccount(res.Stats)
		la.DuringSearch = true
		r.alpha.Store(&alphaLists{l: l, acc: la, stats: res.Stats})
	}()
	r.lists = solver.ListsAccount{Kind: kind, AscentSeconds: opts.Time.Seconds()}
}

// takeAlpha gives every worker the background ascent's alpha lists once
// they are there (between epochs: no worker is searching); in the merge
// epochs each worker then descends its stretch on them.
func (r *ilsRun) takeAlpha() {
	a := r.alpha.Load()
	if a == nil || r.alphaTaken {
		return
	}
	r.alphaTaken = true
	if a.err != nil {
		r.c.Stop.Store(true)
		return
	}
	r.lists, r.stats = a.acc, a.stats
	r.stats.AlphaListsAt = time.Since(r.start)
	for _, s := range r.searches {
		s.SetNeighbors(a.l.List, a.l.K, nil)
		s.SetRanked(a.l.Ranked)
		s.CacheNeighborDists()
	}
	if r.mg.base != nil {
		// a descent of its stretch on the new lists before it kicks
		// (drain)
		r.pushStretches()
	}
}

// alphaAccount is the account of alpha lists from the ascent st.
func alphaAccount(st solver.Stats) solver.ListsAccount {
	return solver.ListsAccount{Kind: solver.ListsAlpha, AscentOnGPU: st.AscentOnGPU}
}

// startTour is the given start tour, or the engine's construction (greedy
// or nearest neighbour) with the fixed edges put in.
func (r *ilsRun) startTour(ctx context.Context, nb *neighbor.Lists) ([]int32, error) {
	if r.p.Start != nil {
		return runctl.To32(r.p.Start), nil
	}
	if r.pre != nil {
		return r.pre, nil
	}
	r.c.SetPhase(solver.PhaseStart)
	var t []int
	var err error
	if r.o.cfg.start == startNN {
		t, err = construct.NearestNeighborContext(ctx, r.in, 0, nb)
	} else {
		t, err = construct.GreedyContext(ctx, r.in, nb)
	}
	if err != nil {
		return nil, err
	}
	return runctl.To32(construct.KeepFixed(r.in, t)), nil
}

// search runs the workers: a descent from the start tour, then kicks, in
// epochs of cfg.sync kicks between best-tour exchanges.
func (r *ilsRun) search() {
	cfg, c := r.o.cfg, r.c
	budget := r.o.kicks
	epoch := cfg.sync
	if epoch <= 0 {
		epoch = 1 << 62
	}
	if budget > 0 {
		epoch = min(epoch, budget)
	}
	c.SetPhase(solver.PhaseDescent)
	// share merge: a first epoch of descents alone, whose shortest tour
	// becomes the base the workers kick in (setBase)
	merge := cfg.share == shareMerge && cfg.sync > 0 && r.w > 1 && r.in.N >= 8
	first := true
	if merge && r.together() {
		// the first descent on all workers, each on a segment of the
		// start tour (mergedsearch.go), then the kicks of the merge epochs
		r.takeAlpha()
		if !r.descendTogether() {
			return
		}
		first = false
	}
	for done := 0; !c.Stop.Load() && (budget == 0 || done < budget); {
		n := epoch
		if budget > 0 {
			n = min(epoch, budget-done)
		}
		r.takeAlpha()
		switch {
		case first && merge:
			n = 0
		case r.mg.base != nil && budget == 0:
			// timed runs: epochs of equal time, so that no worker
			// waits for the slowest one's kicks
			n = math.MaxInt32
			r.epochEnd = time.Now().Add(mergeEpoch)
		}
		var wg sync.WaitGroup
		for wk := range r.w {
			wg.Go(func() { r.work(wk, n, first) })
		}
		wg.Wait()
		done += n
		switch {
		case first && merge:
			b := r.searches[r.byLength()[0]]
			r.setBase(slices.Clone(b.Tour()), b.Length())
		case cfg.sync > 0 && r.w > 1:
			r.exchange()
			r.restartStep()
		}
		first = false
	}
}

// exchange gives every worker the shortest tour among them, or with
// share "merge" the base tour with their changes merged (exchangeMerge).
func (r *ilsRun) exchange() {
	if r.mg.base != nil {
		r.exchangeMerge()
		return
	}
	b := 0
	for i, s := range r.searches {
		if s.Length() < r.searches[b].Length() {
			b = i
		}
	}
	for i, s := range r.searches {
		if i != b && s.Length() > r.searches[b].Length() {
			s.CopyFrom(r.searches[b])
		}
	}
}

// byLength is the workers' indices, shortest tour first (ties in index
// order).
func (r *ilsRun) byLength() []int {
	order := make([]int, r.w)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(r.searches[a].Length(), r.searches[b].Length()) })
	return order
}

// take makes worker i go on from tour t (positions pos, length l): its
// best so far and its stale count start again from there.
func (r *ilsRun) take(i int, t, pos []int32, l int64) {
	s := r.searches[i]
	s.LoadPositions(t, pos, l)
	r.wbestLen[i] = math.MaxInt64
	r.stale[i] = 0
}

// kicksPerCheck is how many kicks a worker makes at most between looks
// at the clock when its kicks evaluate few moves (every distance 0, or
// tiny instances).
const kicksPerCheck = runctl.KicksPerCheck

// work is worker wk's part of one epoch: the first descent when first is
// set, then n kicks, each followed by a local search and kept or undone.
func (r *ilsRun) work(wk, n int, first bool) {
	cfg, c := r.o.cfg, r.c
	s := r.searches[wk]
	var buf []int32
	last := s.Evaluated()
	check := func() bool {
		c.Moves[wk].V.Store(s.Evaluated())
		last = s.Evaluated()
		if c.Done() {
			return true
		}
		if c.SnapshotDue() {
			// the best so far also while a long descent runs
			c.Offer(s.Tour(), s.Length())
			buf = append(buf[:0], s.Tour()...)
			c.Snapshot(buf, s.Length(), r.totalKicks(), r.frac(), 0)
		}
		return false
	}
	if first && !r.descend(wk, check) {
		return
	}
	kickCheck := r.untilEpochEnd(check)
	if r.mg.base != nil {
		r.draining[wk] = s.Queued() > 0
	}
	if s.Queued() > 0 {
		// the first descent's rest (mergedsearch.go): kicks once it is done
		if !r.drain(wk, check) || s.Queued() > 0 {
			c.Moves[wk].V.Store(s.Evaluated())
			return
		}
	}
	for k := 0; k < n; k++ {
		if (s.Evaluated()-last >= runctl.CheckEvery || k%kicksPerCheck == 0) && check() {
			return
		}
		if r.epochOver() {
			break
		}
		old, ok := s.TryKick(cfg.maxSeg, cfg.acceptEqual, kickCheck)
		if !ok {
			return // stopped inside: back at the last accepted tour
		}
		r.kicksDone[wk].V.Add(1)
		if s.Length() < old {
			r.stale[wk] = 0
			if s.Length() < r.wbestLen[wk] {
				c.Offer(s.Tour(), s.Length())
			}
			continue
		}
		r.stale[wk]++
		if r.staleLimit > 0 && r.stale[wk] >= r.staleLimit && !r.escape(wk, check) {
			return
		}
	}
	c.Moves[wk].V.Store(s.Evaluated())
}

// epochOver reports whether the timed merge epoch under way has ended
// (false outside one).
func (r *ilsRun) epochOver() bool {
	return !r.epochEnd.IsZero() && time.Now().After(r.epochEnd)
}

// untilEpochEnd is check that also stops at the end of the timed merge
// epoch: a kick's descent stopped there is undone. One that runs on into
// stretches other workers have not descended yet becomes a descent of
// the whole tour on one core, which held every other worker at the
// merge for seconds (docs/DECISIONS.md#kick-epoch-end).
func (r *ilsRun) untilEpochEnd(check func() bool) func() bool {
	return func() bool { return check() || r.epochOver() }
}

// escape takes worker wk out of a long stagnation: from its best tour, a
// burst of kicks accepted whatever they cost, then a local search. It
// returns false when the run stopped during the local search.
func (r *ilsRun) escape(wk int, check func() bool) bool {
	s := r.searches[wk]
	r.stale[wk] = 0
	if s.Length() < r.wbestLen[wk] {
		r.wbest[wk] = append(r.wbest[wk][:0], s.Tour()...)
		r.wbestLen[wk] = s.Length()
	} else if s.Length() > r.wbestLen[wk] {
		s.Load(r.wbest[wk])
	}
	s.SetJournal(false)
	for range r.burst {
		s.Kick(r.o.cfg.maxSeg)
	}
	s.SetJournal(true)
	s.ClearJournal()
	return s.Optimize(check)
}

// descend makes worker wk's tour a local optimum of its moves: workers 0
// and 1 descend from the start tour (they hold the two kinds of candidate
// lists); the others, whose descent would repeat one of theirs move for
// move (the descent draws no random numbers unless rkbi pivoting is on),
// take the result of the worker with their lists. It returns false when
// the run stopped first.
func (r *ilsRun) descend(wk int, check func() bool) bool {
	s, c := r.searches[wk], r.c
	if wk >= 2 && r.o.rkbi == 0 {
		from := wk % 2
		<-r.descended[from]
		if r.descent[from] == nil {
			return false
		}
		s.Load(r.descent[from])
		return true
	}
	s.PushAll()
	ok := s.Optimize(check)
	if wk < 2 {
		if ok && r.w > 2 {
			r.descent[wk] = slices.Clone(s.Tour())
		}
		close(r.descended[wk])
	}
	if !ok {
		return false
	}
	c.Offer(s.Tour(), s.Length())
	if wk == 0 {
		c.SetPhase(solver.PhaseSearch)
	}
	return true
}

// totalKicks sums the kicks of all workers.
func (r *ilsRun) totalKicks() int64 { return runctl.SumCounters(r.kicksDone) }

// frac is the fraction of the kick budget spent (0 without one).
func (r *ilsRun) frac() float64 {
	if r.o.kicks <= 0 {
		return 0
	}
	return float64(r.totalKicks()) / float64(int64(r.o.kicks)*int64(r.w))
}

// finish returns the shortest tour: the shortest search (ties to the
// lowest index, not to the first offered, which depends on timing), or
// the global best when that is strictly shorter (a tour offered during a
// search that the stop then undid, or the set-up's tour).
func (r *ilsRun) finish(searches []*localsearch.Search) (solver.Result, error) {
	c := r.c
	var best []int32
	bestLen := int64(math.MaxInt64)
	for i, s := range searches {
		t, l := s.Tour(), s.Length()
		if r.wbestLen[i] < l {
			t, l = r.wbest[i], r.wbestLen[i]
		}
		c.Offer(t, l)
		if l < bestLen {
			best, bestLen = t, l
		}
	}
	if g := c.BestLen.Load(); g < bestLen {
		best, bestLen = c.Best, g
	}
	steps := r.totalKicks()
	c.Snapshot(nil, bestLen, steps, max(r.frac(), 1), 0)
	stopped := c.Stopped.Load() || (r.o.kicks > 0 && c.Stop.Load() && !c.Optimal.Load()) || (searches == nil && !r.partitioned)
	if c.Optimal.Load() {
		stopped = false
	}
	res, err := solver.Finish(r.in, r.e, r.p, solver.Outcome{Tour: runctl.ToInt(best), Moves: c.TotalMoves(), Steps: steps, Start: r.start, Stopped: stopped, Device: runctl.DeviceName(r.w), Account: r.account()})
	res.Stats = r.stats
	return res, err
}

// unionNeighbors merges two candidate lists of every city: the union,
// nearest first, padded to a fixed width by repeating the farthest one (a
// repeat costs one evaluation; scans stop at the first too-far candidate).
func unionNeighbors(in *solver.Instance, a, b *neighbor.Lists) *neighbor.Lists {
	k := a.K + b.K
	out := &neighbor.Lists{K: k, List: make([]int32, 0, in.N*k)}
	row := make([]int32, 0, k)
	for i := 0; i < in.N; i++ {
		row = append(row[:0], a.Of(i)...)
		for _, c := range b.Of(i) {
			if !slices.Contains(row, c) {
				row = append(row, c)
			}
		}
		slices.SortStableFunc(row, func(x, y int32) int {
			return cmp.Compare(in.Dist(i, int(x)), in.Dist(i, int(y)))
		})
		for len(row) < k && len(row) > 0 {
			row = append(row, row[len(row)-1])
		}
		out.List = append(out.List, row...)
	}
	return out
}

// autoEngine is the auto engine.
var autoEngine = ilsEngine{runctl.Identity{ID: "auto", Desc: autoDesc},
	ilsConfig{orOpt: true, start: startGreedy, partAuto: true}, nil}

// autoDesc is auto's description; its searches by size are told in
// docs/ENGINES.md and shown for a file by tsp engines FILE (Plan).
const autoDesc = "the strongest CPU method for a time budget: iterated local search with 2-opt, Or-opt and the sequential 5-opt move on alpha-nearness lists, its search chosen by the instance's size (independent searches, a merged search, pop's population search, the partition search); best kept"

// AutoEngine is CPU auto as a Go value for an engine that composes it
// (GPU auto): it prepares its config once (Prepare), gives the facts a
// run's strategy is decided from (Facts), for the composing engine to add
// its own, decides it (Decide) and runs by the config and the strategy it
// is handed (Run), deciding nothing again.
type AutoEngine struct{ ilsEngine }

// Auto is CPU auto for an engine that composes it by a Go call.
func Auto() AutoEngine { return AutoEngine{autoEngine} }

// Prepare reads CPU auto's settings from p on in once: a *ParamError for
// a bad value or an option auto does not take. The composing engine has
// checked p with its own options and hands only auto's.
func (a AutoEngine) Prepare(in *solver.Instance, p solver.Params) (Config, error) {
	return a.prepare(in, p, false)
}

// Facts are what the strategy of a run of cfg on in is decided from, with
// limit the time left (0: none); the composing engine adds its devices.
func (a AutoEngine) Facts(cfg Config, in *solver.Instance, limit time.Duration) strategy.Facts {
	return a.facts(cfg.o, in, cfg.given, cfg.w, limit)
}

// Decide is the strategy of a run with facts f: the one decision a run
// makes.
func (a AutoEngine) Decide(f strategy.Facts) strategy.Strategy { return a.decide(f).Strategy }

// Run runs CPU auto with cfg by the strategy st decided for the run.
func (a AutoEngine) Run(ctx context.Context, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot, aid solver.Aid, cfg Config, st strategy.Strategy) (solver.Result, error) {
	start := time.Now()
	if err := runctl.CheckStart(in, p); err != nil {
		return solver.Result{}, err
	}
	return a.run(ctx, in, p, snaps, aid, cfg, st, start)
}

func init() {
	lab.Register(ilsEngine{runctl.Identity{ID: "2opt-ils", Desc: "iterated local search, 2-opt + Or-opt with neighbour lists and don't-look bits, double-bridge kicks (Rocki & Suda's method, sequential)"},
		ilsConfig{orOpt: true, start: startGreedy}, nil}, ilsSpecs["2opt-ils"])
	lab.Register(ilsEngine{runctl.Identity{ID: "3opt-ils", Desc: "iterated local search, sequential 3-opt + Or-opt, nearest-neighbour start, first or random-k-best improvement (Delévacq et al.)"},
		ilsConfig{orOpt: true, start: startNN}, nil}, ilsSpecs["3opt-ils"])
	solver.Register(autoEngine)
}

// solvePop runs the population search (solver/cpu/population) for auto
// on p's workers until p's deadline by auto's strategy st, and reports it
// as auto's run.
func (e ilsEngine) solvePop(ctx context.Context, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot, aid solver.Aid, st strategy.Strategy, start time.Time) (solver.Result, error) {
	q := p
	q.Algorithm = population.Name
	res, err := population.SolveDecided(ctx, in, q, snaps, aid, st)
	if err != nil {
		return res, err
	}
	res.Algorithm, res.Params = e.ID, p
	res.Elapsed = time.Since(start)
	return res, nil
}

// account is the run's account: the kind of search, its lists, the path
// improver beside a partition search and the restarts.
func (r *ilsRun) account() solver.Account {
	a := solver.Account{Workers: r.w, LKStart: r.lkAcc, Restarts: r.rs.account(), Windows: r.windows, TourWindows: r.tourWindows}
	a.Warn(r.besideWarn)
	if r.e.ID == autoEngine.ID {
		a.Search = searchKind(r.plan.Search)
	}
	if r.lists.Kind != "" {
		l := r.lists
		a.Lists = &l
	}
	return a
}

// searchKind is the account's name of a kind of search.
func searchKind(s strategy.Search) solver.SearchKind {
	switch s {
	case strategy.Merged:
		return solver.SearchMerged
	case strategy.Partition:
		return solver.SearchPartition
	case strategy.Population:
		return solver.SearchPopulation
	}
	return solver.SearchIndependent
}
