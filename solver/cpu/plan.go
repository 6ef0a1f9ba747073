package cpu

import (
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/tsplab/tsplab/solver"
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
}

// planLimits are the sizes at which a run's plan changes course: every
// run takes defaultLimits; a test of the paths they lead to gives its
// engine smaller ones (ilsEngine.limits) rather than changing them for
// every run.
type planLimits struct {
	crowdedMinPerWorker              int // the crowded set-up (crowded.go)
	besideEarlyMinN, besideEarlyMaxN int // the early phase beside a path improver (partbeside.go)
}

// defaultLimits are the limits of every run.
var defaultLimits = planLimits{crowdedMinPerWorker: crowdedMinPerWorker, besideEarlyMinN: besideEarlyMinN, besideEarlyMaxN: besideEarlyMaxN}

// planLimits are the limits e's runs take.
func (e ilsEngine) planLimits() planLimits {
	if e.limits != nil {
		return *e.limits
	}
	return defaultLimits
}

// decide makes the plan of a run of e with options o on in and w
// workers; given tells the options the user set, which the plan leaves
// as they are.
func (e ilsEngine) decide(o ilsOptions, in *solver.Instance, given func(string) bool, w int) ilsPlan {
	lim := e.planLimits()
	pl := ilsPlan{limits: lim, partition: partitionOn(o, in), crowded: lim.crowded(in.N, w)}
	pl.crowdSetUp = e.cfg.partAuto && pl.partition && pl.crowded
	pl.chain = e.cfg.partAuto && o.cfg.move == deepAdapt && w > 0 && in.N/w > adaptMaxPerWorker && !given(OptMove)
	return pl
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
}

// Tune shows on in the defaults that follow the cities a worker, as a
// run with the default workers takes them (solver.Tuner): the plan's
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
	pl := e.decide(o, in, none, w)
	d := map[string]string{}
	if pl.chain {
		d[OptMove] = "chain"
	}
	if pl.crowdSetUp {
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
	// stitchShare is the most the partition search's descent between
	// pieces takes of the time its round's pieces took: half
	// (docs/DECISIONS.md#stitch).
	stitchShare share = 2
	// regionMergeShare is the most a region round's merge spends checking
	// of the time its pieces took: a quarter.
	regionMergeShare share = 4
)

// nominalMovesPerSecond turns the moves a partition round evaluated into
// its cost in seconds under a kicks budget, which measures by moves
// instead of the clock so that the run stays deterministic.
const nominalMovesPerSecond = 1e7
