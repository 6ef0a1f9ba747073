package ils

import (
	"maps"
	"runtime"
	"slices"
	"strconv"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/cpu/partition"
	"github.com/tsplab/tsplab/solver/strategy"
)

// ilsPlan is what a run of an iterated local search decides once, from
// its options, the instance and its workers, before any search: the
// strategy (solver/strategy) and the limits it was decided by. The run
// follows it and Tune shows it, both from decide.
type ilsPlan struct {
	strategy.Strategy
	// limits: the sizes the plan was decided by, and the partition search
	// reads
	limits planLimits
}

// partition reports whether the run takes the partition search, all
// workers on pieces of one tour, instead of whole-tour searches.
func (pl ilsPlan) partition() bool { return pl.Search == strategy.Partition }

// pop reports whether auto runs the population search (the pop engine,
// with its EAX population) instead.
func (pl ilsPlan) pop() bool { return pl.Search == strategy.Population }

// planLimits are the sizes at which a run's plan changes course: every
// run takes defaultLimits; a test of the paths they lead to gives its
// engine smaller ones (ilsEngine.limits) rather than changing them for
// every run.
type planLimits struct {
	crowd           strategy.Limits // the crowded set-up (lightsetup.go)
	besideEarlyMinN int             // the early phase beside a path improver (partition.Env)
}

// defaultLimits are the limits of every run.
var defaultLimits = planLimits{besideEarlyMinN: partition.DefaultEarlyMinN}

// planLimits are the limits e's runs take.
func (e ilsEngine) planLimits() planLimits {
	if e.limits != nil {
		return *e.limits
	}
	return defaultLimits
}

// usePartition reports whether the run takes the partition search.
func (r *ilsRun) usePartition() bool { return r.plan.partition() }

// facts are what decides the strategy of a run of e with options o on
// in, w workers (0: not counted yet) and the time limit limit (0: none);
// given tells the options the user set.
func (e ilsEngine) facts(o ilsOptions, in *solver.Instance, given func(string) bool, w int, limit time.Duration) strategy.Facts {
	f := strategy.Facts{Engine: strategy.ILS, N: in.N, Cuttable: in.N >= 4*partition.MinSegment, FixedEdges: len(in.FixedEdges) > 0,
		Workers: w, TimeLimit: limit, Kicks: o.kicks, Limits: e.planLimits().crowd,
		Options: strategy.Options{Partition: [...]strategy.Toggle{partAuto: strategy.ByStrategy, partOn: strategy.On, partOff: strategy.Off}[o.partition],
			Any: e.givenAny(given), Move: given(OptMove), Merge: o.cfg.share == shareMerge, NoLK: o.solo == partition.SoloOff,
			Windows: o.win.mode}}
	if e.cfg.partAuto {
		f.Engine = strategy.Auto
	}
	if in.Metric == solver.Explicit || !in.HasCoords() {
		f.Kind = strategy.Matrix
	}
	return f
}

// partitionOn reports whether a run of e with options o takes the
// partition search on in.
func (e ilsEngine) partitionOn(o ilsOptions, in *solver.Instance) bool {
	return strategy.UsesPartition(e.facts(o, in, func(string) bool { return false }, 0, 0))
}

// searchCities is the size of the instance one worker searches: a
// partition search's workers each hold a piece (a few segments' worth at
// most, the region cells included), not the whole tour, so the memory
// bound on the workers follows the piece.
func (e ilsEngine) searchCities(o ilsOptions, in *solver.Instance) int {
	if !e.partitionOn(o, in) {
		return in.N
	}
	return partition.PieceCities(in.N, o.partSeg)
}

// soloMode is the partition search's Solo: auto's only for the auto
// engine, the others keeping the pieces.
func (r *ilsRun) soloMode() partition.SoloMode {
	if r.o.solo == partition.SoloAuto && !r.o.cfg.partAuto {
		return partition.SoloOff
	}
	return r.o.solo
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
			Seg: o.partSeg, KicksPerCity: o.partKicks, SliceMS: o.partSlice, Shape: o.partShape, DeepPerCity: o.partDeep, Solo: r.soloMode()},
		Crowded: r.plan.Crowded, EarlyMinN: r.plan.limits.besideEarlyMinN,
		Control: r.c, KicksDone: r.kicksDone, Aid: r.aid}
}

// decide makes the plan of a run of e with facts f (facts): the one call
// of strategy.Decide for the iterated local searches, CPU auto and GPU
// auto (through AutoEngine.Decide).
func (e ilsEngine) decide(f strategy.Facts) ilsPlan {
	return ilsPlan{Strategy: strategy.Decide(f), limits: e.planLimits()}
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

// apply gives the options o the settings the plan takes; an option
// given keeps its value.
func (pl ilsPlan) apply(o *ilsOptions, given func(string) bool) {
	if pl.CrowdSetUp {
		crowdSetUp(o, given)
		o.cfg.start = startSFC
	}
	if pl.ShortLists && !given(OptCandidates) {
		o.cfg.candidates = listMixed
	}
	if pl.partition() && pl.LocalSearch.Lists == strategy.Alpha && !given(OptCandidates) {
		// the size's alpha lists: the partition search takes the mixed
		// ones in their place (runPartition)
		o.cfg.candidates = listAlpha
	}
	if pl.Chain {
		o.cfg.move = deepChain
	}
	if pl.PartSlice > 0 && !given(OptPartSlice) {
		o.partSlice = int(pl.PartSlice / time.Millisecond)
	}
	if pl.Restart > 0 {
		o.restart = int(pl.Restart / time.Millisecond)
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
	pl, ok := e.defaultPlan(in, w)
	if !ok {
		return set
	}
	d := map[string]string{}
	if pl.Chain {
		d[OptMove] = "chain"
	}
	if pl.CrowdSetUp {
		maps.Copy(d, crowdedSet)
	}
	out := slices.Clone(set)
	for i := range out {
		if v, ok := d[out[i].Name]; ok {
			out[i].Default, out[i].Auto = v, ""
		}
	}
	return out
}

// defaultPlan is the plan of a run of e on in with w workers, its
// default options and time limit; false when w is not known or the
// defaults do not parse.
func (e ilsEngine) defaultPlan(in *solver.Instance, w int) (ilsPlan, bool) {
	if w <= 0 {
		return ilsPlan{}, false
	}
	o, err := ilsSpecs[e.ID].Parse(in, solver.Params{})
	if err != nil {
		return ilsPlan{}, false
	}
	o.cfg.orOpt, o.cfg.start, o.cfg.partAuto = e.cfg.orOpt, e.cfg.start, e.cfg.partAuto
	return e.decide(e.facts(o, in, func(string) bool { return false }, w, solver.DefaultTimeLimit)), true
}

// Plan says auto's strategy for a run on in with all cores and the
// default time limit (solver.Planner); "" for the other engines, which
// follow their options.
func (e ilsEngine) Plan(in *solver.Instance) string {
	pl, ok := e.defaultPlan(in, runtime.NumCPU())
	if !ok || !e.cfg.partAuto {
		return ""
	}
	return pl.String()
}
