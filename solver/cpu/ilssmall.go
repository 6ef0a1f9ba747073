package cpu

import (
	"strconv"

	"github.com/tsplab/tsplab/solver"
)

// smallN bounds the instances on which auto takes its small-instance
// defaults (smallDefaults): every instance below the partition search's
// threshold, where each worker searches the whole tour. Measured on
// usa13509 with 2 workers (docs/PERF.md, "Small-instance defaults up to
// 15,000 cities"): 0.48 % against 0.54 % (mean of seven seeds) at a
// million kicks per worker, ahead on six of them; at equal time about
// even to slightly ahead.
const smallN = partMinN

// smallDefaults are auto's option defaults below smallN cities, where
// every worker searches the whole tour. Measured on pr2392 and fnl4461
// (docs/PERF.md, "Small instances"): the or-3opt moves and escapes after
// 3·n stale kicks instead of 20·n took 8 workers out of the trap pr2392
// falls into near 0.34 % (0.04–0.09 % against 0.13–0.42 % at equal
// kicks), and the quadrant lists that "mixed" gives the odd workers left
// them far behind the nearest-list workers there (0.62–0.81 % against
// 0.04–0.50 % for one worker).
var smallDefaults = map[string]string{
	OptOr3:        "on",
	OptStale:      "3",
	OptCandidates: "nearest",
}

// gpxMinN is the smallest instance on which auto's workers exchange
// their tours by partition crossover (share "gpx") every gpxSyncPerCity·n
// kicks; below it they search independently. Measured at equal kick
// budgets (docs/PERF.md, "Partition crossover"): on fnl4461 the crossover
// exchange ended 0.05–0.10 % below the independent searches, on pr2392
// 0.07–0.3 % above them (all workers on one tour fall into its traps).
const gpxMinN = 4000

// deepMinN and deepMaxN bound the instances on which auto's sequential
// moves take two 2-opt steps after the first (depth 2: 4-opt) instead of
// one, and its kicks swap segments of up to deepSegment cities instead of
// 30: from the crossover exchange's threshold to the partition search's.
// Measured (docs/PERF.md, "Deeper sequential moves and longer kicks"): on
// fnl4461, 8 workers at 200,000 kicks each went from 0.29–0.31 % with
// segments of up to 30 cities to 0.18–0.19 % (60), 0.15–0.21 % (100),
// 0.12–0.13 % (200) and 0.23 % (400), ahead at equal CPU time too, and
// depth 2 was ahead of depth 1 at equal CPU time; on the 16-core host at
// 20 s fnl4461 went from 0.25 % to 0.09–0.13 % and usa13509 at 30 s from
// 0.35 % to 0.26 %. On pr2392 (independent workers) both were mixed, so
// below deepMinN the search stays as it was.
const (
	deepMinN    = gpxMinN
	deepMaxN    = smallN
	deepSegment = 200
)

// alphaMinN is the smallest instance on which auto's candidate lists are
// alpha-nearness lists from a Held–Karp ascent, up to smallN (GPU auto
// runs the ascent on the GPU: 0.5 s on usa13509 against 4.7 s on 16
// cores). On usa13509 at 30 s on the 16-core host (docs/PERF.md,
// "Alpha-nearness lists from 10,000 cities"): 0.210 and 0.198 % for
// seeds 1 and 2 against 0.263 and 0.214 % on the nearest lists, the
// ascent's time included. In the partition search (from partMinN) the
// same lists were level or behind on d18512 and behind on pla85900 with
// the ascent on the GPU, over two seeds each.
const alphaMinN = 10000

// alphaNeighbors is the length of auto's alpha-nearness lists: with the
// sequential 5-opt move, 5 of them (as in LKH) were ahead of 8 on
// usa13509 at equal CPU time (docs/PERF.md, "The sequential 5-opt move").
const alphaNeighbors = 5

// lk5MaxN bounds the instances on which auto's deep move is the
// sequential 5-opt move (kopt.go): ahead of the 2-opt-step chain on
// pr2392 to d18512 at equal CPU time or wall clock, behind on pla85900
// at 30 s on 2 cores (docs/PERF.md, "The sequential 5-opt move").
const lk5MaxN = 50000

// gpxSyncPerCity is auto's exchange interval, in kicks per worker per
// city, where it takes the crossover exchange.
const gpxSyncPerCity = 1

// Tune implements solver.Tuner: auto's move (the sequential 5-opt move
// below lk5MaxN cities) and its defaults for instances below
// smallN cities (alpha-nearness lists from alphaMinN), its crossover exchange from gpxMinN cities and its
// deeper sequential moves and longer kicks from deepMinN to deepMaxN
// cities, and the partition search's from partMinN cities
// (partDefaults). The other engines keep the table's.
func (e ilsEngine) Tune(in *solver.Instance, opts solver.OptionSet) solver.OptionSet {
	if e.name != "auto" || in == nil {
		return opts
	}
	for i := range opts {
		if v, ok := smallDefaults[opts[i].Name]; ok && in.N < smallN {
			opts[i].Default, opts[i].Auto = v, ""
		}
		if opts[i].Name == OptCandidates && in.N >= alphaMinN && in.N < smallN {
			opts[i].Default, opts[i].Auto = "alpha", ""
		}
		if opts[i].Name == OptNeighbors && in.N >= alphaMinN && in.N < smallN {
			opts[i].Default, opts[i].Auto = strconv.Itoa(alphaNeighbors), ""
		}
		if opts[i].Name == OptMove && in.N < lk5MaxN {
			opts[i].Default, opts[i].Auto = "lk5", ""
		}
		if in.N >= deepMinN && in.N < deepMaxN {
			switch opts[i].Name {
			case OptDepth:
				opts[i].Default, opts[i].Auto = "2", ""
			case OptSegment:
				opts[i].Default, opts[i].Auto = strconv.Itoa(deepSegment), ""
			}
		}
		if v, ok := partDefaults[opts[i].Name]; ok && in.N >= partMinN {
			opts[i].Default, opts[i].Auto = v, ""
		}
		if in.N >= gpxMinN {
			switch opts[i].Name {
			case OptShare:
				opts[i].Default, opts[i].Auto = "gpx", ""
			case OptSync:
				opts[i].Default, opts[i].Auto = strconv.Itoa(gpxSyncPerCity*in.N), ""
			}
		}
	}
	return opts
}
