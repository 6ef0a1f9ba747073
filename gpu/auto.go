package gpu

import (
	"maps"

	"github.com/tsplab/tsplab/solver"
)

// AutoOrILSMinN is the size from which GPU auto starts or-ils (GPU
// windows from the space-filling curve at once, no global passes) beside
// the CPU auto engine while that engine builds its candidate lists and
// start tour, stops it at the engine's first tour and then runs the
// engine alone with every core: or-ils gives a good tour within a second
// where the engine's set-up takes seconds on a million cities (measured
// in docs/PERF.md, "GPU auto on a million cities").
const AutoOrILSMinN = 200000

// autoOnly lists GPU auto's options that the CPU auto engine does not
// take.
var autoOnly = []string{OptWindow, OptWindowSegment}

// cpuParams returns p for the CPU auto engine: its backend, and
// Params.Extra without GPU auto's own options.
func cpuParams(p solver.Params) solver.Params {
	q := p
	q.Backend = solver.BackendCPU
	if p.Extra != nil {
		q.Extra = maps.Clone(p.Extra)
		for _, k := range autoOnly {
			delete(q.Extra, k)
		}
	}
	return q
}

// windowParams returns p for GPU auto's or-ils windows: Params.Extra
// without the CPU auto engine's "segment", which or-ils would otherwise
// read as its windows' kick segment with or-ils's lower ceiling; the
// windows take OptWindowSegment instead.
func windowParams(p solver.Params) solver.Params {
	q := p
	q.Extra = maps.Clone(p.Extra)
	delete(q.Extra, "segment")
	return q
}

// earlyParams returns p for or-ils before the CPU auto engine's first
// tour: windowParams without or-ils's global passes, whose candidate
// lists would be built on every core while the engine builds its own
// (docs/PERF.md, "Final check of main and the ttq suite on the large
// instances").
func earlyParams(p solver.Params) solver.Params {
	q := windowParams(p)
	setOption(&q, OptGlobal, "0")
	return q
}
