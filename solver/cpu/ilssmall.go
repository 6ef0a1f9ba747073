package cpu

import "github.com/tsplab/tsplab/solver"

// smallN bounds the instances on which auto takes its small-instance
// defaults (smallDefaults).
const smallN = 10000

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

// Tune implements solver.Tuner: auto's defaults for instances below
// smallN cities. The other engines keep the table's.
func (e ilsEngine) Tune(in *solver.Instance, opts solver.OptionSet) solver.OptionSet {
	if e.name != "auto" || in == nil || in.N >= smallN {
		return opts
	}
	for i := range opts {
		if v, ok := smallDefaults[opts[i].Name]; ok {
			opts[i].Default, opts[i].Auto = v, ""
		}
	}
	return opts
}
