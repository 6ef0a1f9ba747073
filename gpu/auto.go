package gpu

import (
	"maps"

	"github.com/tsplab/tsplab/solver"
)

// AutoOrILSMinN is the size from which GPU auto runs or-ils beside the CPU
// auto engine until that engine's first tour
// (docs/DECISIONS.md#gpu-orils-min-n).
const AutoOrILSMinN = 200000

// AutoLSMinN is the size from which GPU auto starts from a 2-opt + Or-opt
// local optimum found on the GPU (2opt-or) instead of its engines' own
// start tours: ahead at a million cities, mixed below (behind on pla85900
// at 10 s: the CPU engine's greedy start suits its search better there).
const AutoLSMinN = AutoOrILSMinN

// autoOnly lists GPU auto's options that CPU auto does not take.
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

// windowParams returns p for GPU auto's or-ils without CPU auto's
// "segment" (the windows take OptWindowSegment).
func windowParams(p solver.Params) solver.Params {
	q := p
	q.Extra = maps.Clone(p.Extra)
	delete(q.Extra, "segment")
	return q
}

// earlyParams is windowParams without global passes, whose lists would
// compete with the engine's own
// (docs/DECISIONS.md#gpu-early-no-global).
func earlyParams(p solver.Params) solver.Params {
	q := windowParams(p)
	setOption(&q, OptGlobal, "0")
	return q
}
