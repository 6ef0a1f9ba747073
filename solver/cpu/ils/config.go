package ils

import (
	"github.com/tsplab/tsplab/solver/cpu/localsearch"
	"math"
	"strconv"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/cpu/partition"
	"github.com/tsplab/tsplab/solver/strategy"
)

// The iterated local searches' options (2opt-ils, 3opt-ils, auto), each
// declared once on ilsOptions; the engines differ in their defaults and
// in which options a user of each needs (the others are experimental).
// ilsConfig's orOpt and start are the engine's own (ilsEngine.cfg).
var ilsDecls = []solver.Decl[ilsOptions]{
	solver.SharedInt("workers", func(o *ilsOptions) *int { return &o.workers }).Auto("all cores"),
	solver.Int(OptKicks, func(o *ilsOptions) *int { return &o.kicks }, 0, 0, math.MaxInt32,
		"kicks per worker (0: until the time limit); with no time limit the run is deterministic"),
	solver.Enum(OptPivot, func(o *ilsOptions) *bool { return &o.pivotRKBI }, "first", []string{"first", "rkbi"}, []bool{false, true},
		"pivoting rule: first improvement or random-k-best improvement").Experimental(),
	solver.Int(OptRKBI, func(o *ilsOptions) *int { return &o.rkbi }, 3, 1, 64,
		"k of random-k-best-improvement (1: best improvement)").Experimental(),
	solver.Int(OptSync, func(o *ilsOptions) *int { return &o.cfg.sync }, 0, 0, math.MaxInt32,
		"kicks per worker between global-best exchanges (0: independent workers)").Experimental(),
	solver.Enum(OptShare, func(o *ilsOptions) *shareKind { return &o.cfg.share }, "best", []string{"best", "merge"}, []shareKind{shareBest, shareMerge},
		"what the exchange every sync kicks (with a time limit and merge: every 200 ms) gives every worker: the shortest tour, or one tour with every worker's changes that fit together, each worker kicking in its own stretch of it (merge)").Experimental(),
	solver.Int(OptStale, func(o *ilsOptions) *int { return &o.cfg.stale }, 0, 0, 1<<20,
		"escape after stale·n kicks without an improvement: restart from the best tour with a burst of kicks (0: never)").Experimental(),
	solver.Bool(OptThreeOpt, func(o *ilsOptions) *bool { return &o.cfg.threeOpt }, false,
		"sequential 3-opt moves besides 2-opt and Or-opt").Experimental(),
	solver.Bool(OptOr3, func(o *ilsOptions) *bool { return &o.cfg.or3 }, false,
		"with threeopt on, also the pure 3-opt moves two 2-opt steps cannot make (a segment moved without reversal, or two neighbouring segments reversed in place)").Experimental(),
	solver.Bool(OptBridge, func(o *ilsOptions) *bool { return &o.cfg.bridge }, false,
		"with the 5-opt move, also the non-sequential 4-opt move (two 2-exchanges that each split the tour, together one tour) where the 5-opt move finds nothing").Experimental(),
	solver.Int(OptDepth, func(o *ilsOptions) *int { return &o.cfg.depth }, 1, 1, localsearch.MaxDepth,
		"steps of a sequential move after its first 2-opt step, Lin–Kernighan style (1: 3-opt, 2: 4-opt, 3: 5-opt); with threeopt on").Experimental(),
	solver.Enum(OptMove, func(o *ilsOptions) *deepMove { return &o.cfg.move }, "chain", []string{"chain", "lk5", "adapt"}, []deepMove{deepChain, deepLK5, deepAdapt},
		"the deep move after 2-opt and Or-opt: a chain of 2-opt steps (threeopt, depth), the sequential 5-opt move of Lin–Kernighan–Helsgaun chained while it gains (lk5), or in the partition search each round the one that gained more per second in its last round (adapt; on clustered instances and elsewhere the chain)").Experimental(),
	solver.Enum(OptAccept, func(o *ilsOptions) *bool { return &o.cfg.acceptEqual }, "better", []string{"better", "equal"}, []bool{false, true},
		"kick acceptance: strictly shorter, or also ties (drift across plateaus)").Experimental(),
	solver.Int(OptSegment, func(o *ilsOptions) *int { return &o.cfg.maxSeg }, 30, 1, 1<<20,
		"longest segment of a kick's double bridge").Experimental(),
	solver.Int(OptNeighbors, func(o *ilsOptions) *int { return &o.cfg.neighbors }, 8, 2, 64,
		"candidate list size").Experimental(),
	solver.Enum(OptCandidates, func(o *ilsOptions) *listKind { return &o.cfg.candidates }, "nearest", []string{"nearest", "quadrant", "union", "mixed", "alpha"},
		[]listKind{listNearest, listQuadrant, listUnion, listMixed, listAlpha},
		"candidate lists: k nearest, k/4 nearest per quadrant, their union, nearest on even workers and quadrant on odd ones, or the k alpha-nearest of a Held–Karp ascent (which takes up to a fifth of the time limit; a partition search takes the mixed lists instead)"),
	solver.Enum(OptPartition, func(o *ilsOptions) *partMode { return &o.partition }, "auto", []string{"auto", "on", "off"}, []partMode{partAuto, partOn, partOff},
		"partition search: all workers improve one tour, each a segment of consecutive positions with fixed ends, the cut shifting every round (auto: on for the auto engine from 50,000 cities with coordinates)").Experimental(),
	solver.Int(OptPartSegment, func(o *ilsOptions) *int { return &o.partSeg }, 0, 0, 1<<20,
		"partition search: cities of a segment (0: about 5,000, 20,000 where chained LK searches the pieces; fewer, larger segments than workers are searched by several workers each, the best kept)").Experimental(),
	solver.Float(OptPartKicks, func(o *ilsOptions) *float64 { return &o.partKicks }, 1, 0, 1000,
		"partition search: kicks per city of a segment per round (the cut shifts every round)").Open(true, false).Experimental(),
	solver.Int(OptPartSlice, func(o *ilsOptions) *int { return &o.partSlice }, 300, 0, 60000,
		"partition search: milliseconds of a round's segment searches, which then end together (0: partkicks kicks each, as always with several searches per segment or a kicks budget)").Experimental(),
	solver.Enum(OptPartShape, func(o *ilsOptions) *partShape { return &o.partShape }, "auto", []string{"auto", "path", "region", "alternate"},
		[]partShape{shapeAuto, shapePath, shapeRegion, shapeAlternate},
		"partition search: its pieces, segments of consecutive tour positions (path), cells of the plane each holding several tour paths (region), the two by turns (alternate), or the one whose last round gained more per second (per kick under a kicks budget), the other every fourth round (auto)").Experimental(),
	solver.Float(OptPartDeep, func(o *ilsOptions) *float64 { return &o.partDeep }, 10, 0, 1e6,
		"partition search: kicks per city made with sequential moves of depth 1 before they take the depth option's steps (0: from the start)").Experimental(),
	solver.Enum(OptSolo, func(o *ilsOptions) *partition.SoloMode { return &o.solo }, "auto", []string{"auto", "off", "lk", "pieces"},
		[]partition.SoloMode{partition.SoloAuto, partition.SoloOff, partition.SoloLK, partition.SoloPieces},
		"partition search by chained Lin–Kernighan (steps with Mak–Morton moves and an alternate second level on a two-level list, local double-bridge kicks): the whole tour at once instead of its pieces, on two or more workers one search each from its own random stream, never with fixed edges (lk); or each piece in place of the local search, from a quick Borůvka tour unless the start tour was searched already, the piece's ends and the instance's fixed edges kept (pieces); or neither (off). auto: from 50,000 to 2,000,000 cities on an instance not clustered without fixed edges, the whole tour on one worker without GPU windows beside, else the pieces; from 10,000 to 50,000 cities, where auto runs the merged search, lk for the first 30 % of the time limit, the merged search going on from its tour (off: none)"),
	solver.Enum(OptWindows, func(o *ilsOptions) *strategy.Toggle { return &o.win.mode }, "auto", []string{"auto", "on", "off"},
		[]strategy.Toggle{strategy.ByStrategy, strategy.On, strategy.Off},
		"auto on a time limit: the partition search hands over, once its gain a second falls low, to the population search on windows of the tour, cells of the plane each holding the tour's paths through it, searched on their own cores and spliced back when shorter, the cuts turning every round (auto: from 50,000 to 400,000 cities on a limit of 30 s or more, 10 s under GPU auto, with 1 ms of cores × time limit a city; on: from 50,000)").Experimental(),
	solver.Int(OptWinSize, func(o *ilsOptions) *int { return &o.win.size }, 0, 0, 1<<20,
		"windows: about the cities of a window (0: one window a core, the tour covered at once, up to 12,500 cities a window)").Experimental(),
	solver.Int(OptWinCores, func(o *ilsOptions) *int { return &o.win.cores }, 1, 1, 1024,
		"windows: the cores each window's population search takes").Experimental(),
	solver.Int(OptWinSlice, func(o *ilsOptions) *int { return &o.win.slice }, 10000, 100, 600000,
		"windows: milliseconds of each window's search in a round").Experimental(),
	solver.Float(OptWinStart, func(o *ilsOptions) *float64 { return &o.win.start }, 0.1, 0, 1,
		"windows: the share of the time limit from which the partition search hands over to them, once its gain a second falls below winrate").Experimental(),
	solver.Float(OptWinLast, func(o *ilsOptions) *float64 { return &o.win.last }, 0.5, 0, 1,
		"windows: the share of the time limit at which the partition search hands over to them at the latest").Experimental(),
	solver.Float(OptWinRate, func(o *ilsOptions) *float64 { return &o.win.rate }, 150, 0, 1e6,
		"windows: the partition search hands over once its best tour gained less than this many millionths of its length a second over 2 s (0: at winstart)").Experimental(),
}

// The typed values of the choice options, each mapped from its text once
// when the options are parsed (solver.Enum); those the partition search
// tells apart are its own.
type (
	// deepMove is OptMove: the deep move after 2-opt and Or-opt.
	deepMove = partition.Move
	// listKind is OptCandidates: the candidate lists.
	listKind = partition.ListKind
	// shareKind is OptShare: what the exchange gives the workers.
	shareKind int8
	// startKind is the engine's start tour construction.
	startKind int8
	// partMode is OptPartition: whether the partition search runs.
	partMode int8
	// partShape is OptPartShape: the partition search's pieces.
	partShape = partition.Shape
)

const (
	deepChain = partition.MoveChain // a chain of 2-opt steps (threeopt, depth)
	deepLK5   = partition.MoveLK5   // the sequential 5-opt move (localsearch/kopt.go)
	deepAdapt = partition.MoveAdapt // partition search: by round, whichever gained more per second
)

const (
	listNearest  = partition.ListNearest  // the k nearest cities
	listQuadrant = partition.ListQuadrant // k/4 nearest per quadrant
	listUnion    = partition.ListUnion    // nearest and quadrant lists merged
	listMixed    = partition.ListMixed    // nearest on even workers, quadrant on odd ones
	listAlpha    = partition.ListAlpha    // alpha-nearness of a Held–Karp ascent
)

const (
	shareBest  shareKind = iota // every worker takes the shortest tour
	shareMerge                  // the workers' changes merged into one tour (merge.go)
)

const (
	startGreedy startKind = iota // greedy edge
	startNN                      // nearest neighbour
	startSFC                     // the space-filling curve (crowded runs)
)

const (
	partAuto partMode = iota // on for the auto engine from strategy.PartitionMinN cities with coordinates
	partOn
	partOff
)

const (
	shapeAuto      = partition.ShapeAuto      // the one that gained more per second
	shapePath      = partition.ShapePath      // segments of consecutive positions
	shapeRegion    = partition.ShapeRegion    // cells of the plane
	shapeAlternate = partition.ShapeAlternate // the two by turns
)

// Options of the partition search.
const (
	// OptPartition selects the partition search of the ILS engines:
	// "auto" (the auto engine from strategy.PartitionMinN cities with
	// coordinates),
	// "on" or "off".
	OptPartition = "partition"
	// OptPartSegment is the cities of a segment (0: about 5,000, 20,000 under chained LK).
	OptPartSegment = "partseg"
	// OptPartKicks is the kicks per city of a segment per round.
	OptPartKicks = "partkicks"
	// OptPartSlice is the milliseconds of a round's searches (0: by
	// kicks, OptPartKicks); a kicks budget (OptKicks) and several
	// searches per segment always count kicks.
	OptPartSlice = "partslice"
	// OptPartDeep is the kicks per city the partition search makes with
	// sequential moves of depth 1 before they take OptDepth's steps (0:
	// from the start). Early in a run a deeper move costs more than it
	// gains, later it is far ahead (docs/DECISIONS.md#partdeep).
	OptPartDeep = "partdeep"
	// OptPartShape selects the partition search's pieces: "path"
	// (segments of consecutive tour positions), "region" (cells of the
	// plane, several tour paths each), "alternate" (the two by turns) or
	// "auto" (the one whose last round gained more per second, per kick
	// under a kicks budget; the other every fourth round).
	OptPartShape = "partshape"
	// OptSolo puts chained Lin–Kernighan in the partition search: over
	// the whole tour or in each piece ("auto", "lk", "pieces", "off").
	OptSolo = "solo"
)

// Options of the windows after the partition search (windows.go).
const (
	// OptWindows turns on the population search on windows of the tour
	// after the partition search (solver/cpu/window).
	OptWindows = "windows"
	// OptWinSize is about the cities of a window.
	OptWinSize = "winsize"
	// OptWinCores is the cores each window's search takes.
	OptWinCores = "wincores"
	// OptWinSlice is the milliseconds of a window's search in a round.
	OptWinSlice = "winslice"
	// OptWinStart is the share of the time limit from which the
	// partition search may hand over to the windows.
	OptWinStart = "winstart"
	// OptWinLast is the share of the time limit at which the partition
	// search hands over to the windows at the latest.
	OptWinLast = "winlast"
	// OptWinRate is the partition search's gain a second, in millionths
	// of the tour's length, below which it hands over (0: at winstart).
	OptWinRate = "winrate"
)

// stable marks a declaration as one a user of the engine needs.
func stable(d solver.Decl[ilsOptions]) solver.Decl[ilsOptions] { return d.Stable() }

// ilsSpecs are the iterated local searches' options by engine name.
//
// Each engine keeps the experimental options a suite, a test, a decision's
// figure or scripts/same-tours.sh runs it with; the others are fixed at the
// engine's default (solver.Spec.Fixed).
var ilsSpecs = map[string]*solver.Spec[ilsOptions]{
	"2opt-ils": solver.NewSpec(ilsDecls...).Modify(OptNeighbors, stable).
		Fixed(OptPivot, OptRKBI, OptStale, OptThreeOpt, OptOr3, OptBridge, OptDepth, OptMove, OptAccept, OptSegment,
			OptPartSegment, OptPartSlice, OptPartShape, OptPartDeep, OptSolo, OptWindows, OptWinSize, OptWinCores, OptWinSlice, OptWinStart, OptWinLast, OptWinRate),
	"3opt-ils": solver.NewSpec(ilsDecls...).With(OptThreeOpt, "on").
		Modify(OptPivot, stable).Modify(OptRKBI, stable).Modify(OptNeighbors, stable).
		Fixed(OptSync, OptShare, OptStale, OptThreeOpt, OptOr3, OptBridge, OptDepth, OptAccept, OptSegment,
			OptPartSegment, OptPartSlice, OptPartShape, OptPartDeep, OptSolo, OptWindows, OptWinSize, OptWinCores, OptWinSlice, OptWinStart, OptWinLast, OptWinRate),
	"auto": solver.NewSpec(ilsDecls...).With(OptThreeOpt, "on").With(OptAccept, "equal").BySize(autoBySize).
		Fixed(OptPivot, OptRKBI, OptSync, OptThreeOpt, OptBridge, OptDepth, OptAccept, OptSegment, OptNeighbors, OptPartSlice,
			OptWinSize, OptWinCores, OptWinSlice, OptWinStart, OptWinLast, OptWinRate),
}

// autoBySize are auto's defaults by instance size, as options' texts:
// strategy.Sizes, the one place they are set.
var autoBySize = sizeTable(strategy.Sizes())

// sizeTable is rows as a table of the options' texts.
func sizeTable(rows []strategy.SizeRow) solver.SizeTable {
	t := make(solver.SizeTable, len(rows))
	onOff := map[bool]string{true: "on", false: "off"}
	for i, r := range rows {
		l := r.LocalSearch
		share := map[bool]string{true: "merge", false: "best"}[l.Merge]
		t[i] = solver.SizeRow{From: r.From, To: r.To, Set: map[string]string{
			OptOr3: onOff[l.Or3], OptStale: strconv.Itoa(l.Stale), OptCandidates: l.Lists.Text(), OptNeighbors: strconv.Itoa(l.Neighbors),
			OptDepth: strconv.Itoa(l.Depth), OptSegment: strconv.Itoa(l.Segment), OptShare: share, OptSync: strconv.Itoa(l.Sync),
			OptMove: l.Move.Text(), OptBridge: onOff[l.Bridge]}}
	}
	return t
}

func init() { solver.Declare("auto", solver.BackendCPU, ilsSpecs["auto"]) }

// AutoOptions are CPU auto's option declarations, for an engine that
// composes it (GPU auto) to declare the options it hands down.
var AutoOptions solver.Declarer = ilsSpecs["auto"]
