package ils

import (
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/cpu/partition"
)

// ilsPlan is what a run of an iterated local search decides once, from
// its options, the instance and its workers, before any search: the run
// follows it and Tune shows it, both from decide.
type ilsPlan struct {
	// partition: the partition search, all workers on pieces of one tour,
	// instead of whole-tour searches (partitionOn;
	// docs/DECISIONS.md#part-min-n)
	partition bool
	// limits: the sizes the plan was decided by, and the partition search
	// reads
	limits planLimits
	// crowded: so many cities a worker that the nearest lists come from a
	// grid of cells and the partition search prepares each segment right
	// before its search (crowded; docs/DECISIONS.md#crowded-min-per-worker)
	crowded bool
	// crowdSetUp: auto's crowded set-up, crowdedSet's options and the
	// space-filling-curve start, on a crowded partition search
	crowdSetUp bool
	// chain: auto takes the chain in place of the 5-opt move by the round,
	// with more than adaptMaxPerWorker cities a worker
	// (docs/DECISIONS.md#adapt-max-per-worker)
	chain bool
	// pop: auto runs the population search (the pop engine, with its EAX
	// population) instead, on a timed run from deepMinN cities below
	// popMaxN, or below popLongMaxN with popPerCity a city, with none of
	// its own options given (docs/DECISIONS.md#pop)
	pop bool
	// restart: auto's timed merged search (an option given) on more than
	// restartMinWorkers workers below restartMaxN cities restarts from its
	// best tour after restartStall without a gain (restart.go;
	// docs/DECISIONS.md#restart)
	restart bool
}

// restartStall is the stall after which auto's merged search restarts,
// and restartMaxN the cities below which it does: on 16 cores at 30 s it
// was ahead on fnl4461 and rl5915 in 5 of 6 paired runs and split on
// usa13509 (docs/DECISIONS.md#restart).
const (
	restartStall = 1500 // milliseconds
	restartMaxN  = 10_000
)

// popMaxN is the cities below which auto runs the population search:
// with its EAX population it ends ahead of the merged search on 2 and 16
// workers from 2,392 to 18,512 cities. Below popLongMaxN it does so with
// at least popPerCity of time a city, scaled by popFewWorkers/w on fewer
// workers: on 24,978 and 33,810 cities it is behind at 10 s and ahead
// from 20 s on 16 cores, and on 2 from about 1 ms a city
// (docs/DECISIONS.md#pop). The merged search restarts only on more than
// restartMinWorkers workers.
const (
	popMaxN           = 20_000
	popLongMaxN       = 50_000
	popPerCity        = 500 * time.Microsecond
	popFewWorkers     = 4
	restartMinWorkers = 2
)

// popSize reports whether auto's population search suits n cities in a
// run of limit on w workers.
func popSize(n, w int, limit time.Duration) bool {
	if n < deepMinN || limit <= 0 || w <= 0 || n >= popLongMaxN {
		return false
	}
	per := popPerCity
	if w < popFewWorkers {
		per = per * popFewWorkers / time.Duration(w)
	}
	return n < popMaxN || limit >= time.Duration(n)*per
}

// planLimits are the sizes at which a run's plan changes course: every
// run takes defaultLimits; a test of the paths they lead to gives its
// engine smaller ones (ilsEngine.limits) rather than changing them for
// every run.
type planLimits struct {
	crowdedMinPerWorker              int // the crowded set-up (lightsetup.go)
	crowdedShortMinPerWorker         int // the crowded set-up of a short run (lightsetup.go)
	besideEarlyMinN, besideEarlyMaxN int // the early phase beside a path improver (partition.Env)
}

// defaultLimits are the limits of every run.
var defaultLimits = planLimits{crowdedMinPerWorker: crowdedMinPerWorker, crowdedShortMinPerWorker: crowdedShortMinPerWorker, besideEarlyMinN: partition.DefaultEarlyMinN, besideEarlyMaxN: partition.DefaultEarlyMaxN}

// planLimits are the limits e's runs take.
func (e ilsEngine) planLimits() planLimits {
	if e.limits != nil {
		return *e.limits
	}
	return defaultLimits
}

// usePartition reports whether the run takes the partition search.
func (r *ilsRun) usePartition() bool { return r.plan.partition }

// partitionOn reports whether a run with options o takes the partition
// search on in.
func partitionOn(o ilsOptions, in *solver.Instance) bool {
	if in.Metric == solver.Explicit || !in.HasCoords() || in.N < 4*partition.MinSegment {
		return false
	}
	switch o.partition {
	case partOn:
		return true
	case partOff:
		return false
	}
	return o.cfg.partAuto && in.N >= partMinN
}

// searchCities is the size of the instance one worker searches: a
// partition search's workers each hold a piece (a few segments' worth at
// most, the region cells included), not the whole tour, so the memory
// bound on the workers follows the piece.
func searchCities(o ilsOptions, in *solver.Instance) int {
	if !partitionOn(o, in) {
		return in.N
	}
	return partition.PieceCities(in.N, o.partSeg)
}

// partEnv is what the partition search of r reads of it: the instance,
// the settings, the plan's values, the run's control and kick counters,
// and the path improver beside it.
func (r *ilsRun) partEnv() *partition.Env {
	o := r.o
	return &partition.Env{In: r.in, Seed: r.p.Seed, Workers: r.w,
		Opts: partition.Options{Kicks: o.kicks, RKBI: o.rkbi,
			OrOpt: o.cfg.orOpt, ThreeOpt: o.cfg.threeOpt, Or3: o.cfg.or3, Depth: o.cfg.depth, Move: o.cfg.move,
			MaxSeg: o.cfg.maxSeg, AcceptEqual: o.cfg.acceptEqual, Candidates: o.cfg.candidates,
			Seg: o.partSeg, KicksPerCity: o.partKicks, SliceMS: o.partSlice, Shape: o.partShape, DeepPerCity: o.partDeep,
			Stitch: o.partStitch},
		Crowded: r.plan.crowded, EarlyMinN: r.plan.limits.besideEarlyMinN, EarlyMaxN: r.plan.limits.besideEarlyMaxN,
		Control: r.c, KicksDone: r.kicksDone, Aid: r.aid}
}

// decide makes the plan of a run of e with options o on in, w workers
// and the time limit limit (0: none); given tells the options the user
// set, which the plan leaves as they are.
func (e ilsEngine) decide(o ilsOptions, in *solver.Instance, given func(string) bool, w int, limit time.Duration) ilsPlan {
	lim := e.planLimits()
	pl := ilsPlan{limits: lim, partition: partitionOn(o, in), crowded: lim.crowded(in.N, w, limit)}
	pl.crowdSetUp = e.cfg.partAuto && pl.partition && pl.crowded
	pl.chain = e.cfg.partAuto && o.cfg.move == deepAdapt && w > 0 && in.N/w > adaptMaxPerWorker && !given(OptMove)
	pl.pop = e.cfg.partAuto && !pl.partition && popSize(in.N, w, limit) && o.kicks == 0 && !e.givenAny(given)
	pl.restart = e.cfg.partAuto && !pl.partition && !pl.pop && in.N >= deepMinN && in.N < restartMaxN && w > restartMinWorkers && limit > 0 &&
		o.kicks == 0 && o.cfg.share == shareMerge && !given(OptRestart)
	return pl
}

// givenAny reports whether the user set any of e's own options (the
// workers aside).
func (e ilsEngine) givenAny(given func(string) bool) bool {
	for _, o := range ilsSpecs[e.ID].Options(nil) {
		if given(o.Name) && o.Name != "workers" {
			return true
		}
	}
	return false
}

// apply gives the options o of engine e the settings the plan takes; an
// option given keeps its value.
func (pl ilsPlan) apply(e ilsEngine, o *ilsOptions, given func(string) bool) {
	if pl.crowdSetUp {
		for name, text := range crowdedSet {
			if !given(name) {
				// constant texts of declared options: TestTuneShowsTheRun
				// runs them through this
				_ = ilsSpecs[e.ID].Set(o, name, text)
			}
		}
		o.cfg.start = startSFC
	}
	if pl.chain {
		o.cfg.move = deepChain
	}
	if pl.restart {
		o.restart = restartStall
	}
}

// Tune shows on in the defaults that follow the cities a worker, as a
// run with the default workers and time limit takes them (solver.Tuner): the plan's
// settings (decide, apply) on the defaults by size.
func (e ilsEngine) Tune(in *solver.Instance, set solver.OptionSet) solver.OptionSet {
	w := 0
	if o, ok := set.Lookup("workers"); ok {
		w, _ = strconv.Atoi(o.Default)
	}
	if w <= 0 {
		return set
	}
	o, err := ilsSpecs[e.ID].Parse(in, solver.Params{})
	if err != nil {
		return set
	}
	o.cfg.orOpt, o.cfg.start, o.cfg.partAuto = e.cfg.orOpt, e.cfg.start, e.cfg.partAuto
	none := func(string) bool { return false }
	pl := e.decide(o, in, none, w, DefaultTimeLimit)
	d := map[string]string{}
	if pl.chain {
		d[OptMove] = "chain"
	}
	if pl.crowdSetUp {
		maps.Copy(d, crowdedSet)
	}
	if pl.restart {
		d[OptRestart] = strconv.Itoa(restartStall)
	}
	out := slices.Clone(set)
	for i := range out {
		if v, ok := d[out[i].Name]; ok {
			out[i].Default, out[i].Auto = v, ""
		}
	}
	return out
}

// share is a part of a run's time limit a phase takes: one d-th of it.
type share int64

// of is the share of limit.
func (s share) of(limit time.Duration) time.Duration { return limit / time.Duration(s) }

// The shares of the time limit the phases of an iterated local search
// take, each named once.
const (
	// ascentShare is the Held–Karp ascent's behind the alpha-nearness
	// lists: a fifth (docs/DECISIONS.md#ascent-share).
	ascentShare share = 5
	// ascentWaitShare is how long the workers search on the nearest lists
	// while another caller's ascent is under way before they take its
	// alpha lists: half (docs/DECISIONS.md#alpha-start).
	ascentWaitShare share = 2
)
