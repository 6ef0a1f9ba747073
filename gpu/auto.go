package gpu

import (
	"maps"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// AutoOrILSMinN is the size from which GPU auto runs or-ils beside the CPU
// auto engine until that engine's first tour
// (docs/DECISIONS.md#gpu-orils-min-n).
const AutoOrILSMinN = 200000

// AutoBesideMinN is the size from which GPU auto's windows improve a
// stretch of the tour beside the CPU auto engine's partition search
// (OptBeside): the size from which that engine runs it
// (docs/DECISIONS.md#partition-beside).
const AutoBesideMinN = solver.PartitionMinN

// AutoLSMinN is the size from which GPU auto starts from a 2-opt + Or-opt
// local optimum found on the GPU (2opt-or) instead of its engines' own
// start tours: ahead at a million cities, mixed below (behind on pla85900
// at 10 s: the CPU engine's greedy start suits its search better there).
const AutoLSMinN = AutoOrILSMinN

// autoLSGreedy is whether that 2opt-or descent starts from the greedy tour
// built on the GPU rather than the Hilbert curve
// (docs/DECISIONS.md#gls-greedy-start).
const autoLSGreedy = true

// autoLSDescentMax is the time limit per city up to which GPU auto
// descends its greedy start with 2opt-or; with more time the cores'
// search from the greedy tour itself ends shorter, a 2-opt local optimum
// being a poorer start for their deeper moves
// (docs/DECISIONS.md#gls-greedy-start).
const autoLSDescentMax = 25 * time.Microsecond

// autoLSShare is the part of the time limit GPU auto's 2opt-or descent
// of its start tour may take: one autoLSShare-th, a quarter.
const autoLSShare = 4

// autoLSDeadline is the end of GPU auto's 2opt-or descent of its start
// tour on n cities within limit from start: autoLSShare of the limit, or
// start itself (no descent) when the limit is over autoLSDescentMax a
// city or there is none.
func autoLSDeadline(n int, limit time.Duration, start time.Time) time.Time {
	if limit <= 0 || limit > time.Duration(n)*autoLSDescentMax {
		return start
	}
	return start.Add(limit / autoLSShare)
}

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

// autoPlan is how GPU auto composes its searches on one instance.
type autoPlan struct {
	// orOnly: or-ils alone, there being no CPU engine
	orOnly bool
	// early: or-ils until the CPU engine's first tour (AutoOrILSMinN)
	early bool
	// beside: the windows beside the partition search (AutoBesideMinN)
	beside bool
}

// planAuto returns GPU auto's composition on in: or-ils needs
// coordinates within its span, the early or-ils and the windows a CPU
// engine and no fixed edges (those stay with the CPU engine's searches).
func planAuto(in *solver.Instance, hasCPU bool) autoPlan {
	if !orSpanOK(in) {
		return autoPlan{}
	}
	if !hasCPU {
		return autoPlan{orOnly: in.N >= AutoOrILSMinN}
	}
	free := len(in.FixedEdges) == 0
	return autoPlan{early: free && in.N >= AutoOrILSMinN, beside: free && in.N >= AutoBesideMinN}
}
