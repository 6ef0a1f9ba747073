package gpu

import (
	"maps"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// AutoOrILSMinN is the size from which GPU auto runs or-ils beside the CPU
// auto engine until that engine's first tour, then or-ils's windows on a
// stretch of the tour beside its partition search (OptBeside)
// (docs/DECISIONS.md#gpu-orils-min-n).
const AutoOrILSMinN = 200000

// AutoLSMinN is the size from which GPU auto starts from a 2-opt + Or-opt
// local optimum found on the GPU (2opt-or) instead of its engines' own
// start tours: ahead at a million cities, mixed below (behind on pla85900
// at 10 s: the CPU engine's greedy start suits its search better there).
const AutoLSMinN = AutoOrILSMinN

// autoOnly lists GPU auto's options that CPU auto does not take.
var autoOnly = []string{OptWindow, OptWindowSegment, OptBeside}

// cpuParams returns p for the CPU auto engine when spent of the run has
// gone (the GPU's start tour): its backend, the time left of the run's
// limit (the engine counts its own from when it starts), and Params.Extra
// without GPU auto's own options.
func cpuParams(p solver.Params, spent time.Duration) solver.Params {
	q := p
	q.Backend = solver.BackendCPU
	q.TimeLimit = timeLeft(p.TimeLimit, spent)
	if p.Extra != nil {
		q.Extra = maps.Clone(p.Extra)
		for _, k := range autoOnly {
			delete(q.Extra, k)
		}
	}
	return q
}

// timeLeft is what is left of limit when spent has gone: 0 (no limit)
// stays 0, and at least a millisecond, so an engine still returns a tour
// rather than taking 0 as no limit.
func timeLeft(limit, spent time.Duration) time.Duration {
	if limit <= 0 {
		return limit
	}
	return max(limit-max(spent, 0), time.Millisecond)
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
