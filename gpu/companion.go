package gpu

import (
	"maps"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// AutoCompanionMinN is the size from which GPU auto, below AutoOrILSMinN,
// can run the or-ils windows on the GPU as a companion of the CPU auto
// engine (solver.Companion; asked for with OptCompanion, off by default):
// the CPU engine searches on every core as it would alone, and where its
// tour settles (each round of its partition search, each crossover
// exchange of its whole-tour workers) it folds in the windows' newest
// tour by partition crossover and publishes the result, from which the
// windows go on. Measured in docs/PERF.md, "GPU auto's windows as a
// companion of CPU auto". Below it the windows measured a loss against
// CPU auto alone: usa13509 (30 s, five paired runs) 0.027 % behind on
// average, behind in four; d18512 (20 s) behind in six of seven paired
// runs (docs/PERF.md, "usa13509 and d18512 with and without the
// windows"). From it, level on average: see companionEvery.
const AutoCompanionMinN = 50000

// AutoOrILSMinN is the size from which GPU auto starts or-ils (GPU
// windows from the space-filling curve at once, global passes on the
// CPU) beside the CPU auto engine while that engine builds its candidate
// lists and greedy tour, and then runs the engine alone (solveCompanion
// with early). On 1,000,000 uniform cities or-ils is within 5 % in under
// a second, the engine's greedy tour 13.6 % above after about 1.5 s; on
// 100,000 cities the engine's set-up takes a fraction of a second
// (docs/PERF.md, "GPU or-ils and the ttq suite", "GPU auto on a million
// cities").
const AutoOrILSMinN = 200000

// OptCompanion is GPU auto's option for the seconds between two offers of
// the GPU windows to the CPU auto engine, from AutoCompanionMinN cities
// (default 0: the CPU auto engine alone).
const OptCompanion = "companion"

// OptClaim is GPU auto's option for the fraction of the tour the windows
// claim for a period when the CPU auto engine runs its partition search
// (solver.Companion, "Division of labour"): that engine leaves the
// claimed path alone meanwhile, and the windows search only inside it,
// in windows of claimWindow cities unless OptWindow is set (default 0:
// the windows search the whole tour). The first claim comes once the
// windows' device is ready; until then the engine searches the whole
// tour. Measured on the H100 machine with 0.35 against CPU auto alone
// (docs/PERF.md, "GPU auto: division of labour" and "GPU auto from
// 10,000 cities: merged window replicas"): level, as the windows over
// the whole tour are, so not the default: the windows' gains survive
// the fold, but the CPU engine, kept off a third of the tour, finds as
// much less.
const OptClaim = "claim"

// AutoAlphaStartMinN is the size from which GPU auto, below
// AutoOrILSMinN, can start the CPU auto engine from the greedy tour on
// alpha-nearness lists of a Held–Karp ascent run on the GPU (under a
// second: 0.56–0.66 s on pla85900, 1.03 s on 100,000 uniform cities)
// when OptAlphaStart is "on". Not the default: on pla85900 at 60 s,
// GPU and CPU auto in the same calls (docs/PERF.md, "The start from the
// GPU's alpha lists, off by default"), the run from that start was
// behind CPU auto from 1 to 12 s in all three seeds (0.5 % at 9.0–10.0
// s against 5.4–7.3 s) and ended at 0.303, 0.314, 0.276 % against
// 0.298, 0.285, 0.267 %, although the two greedy tours are equally long
// (11.64 and 11.69 % above the optimum); earlier runs in separate calls
// had it ahead (0.264, 0.275, 0.255 %). Below 50,000 cities d18512 (30 s)
// was behind with it: 0.210, 0.212 % against 0.188–0.205 %.
const AutoAlphaStartMinN = 50000

// OptAlphaStart is GPU auto's option for the start from the GPU's alpha
// lists ("on" or "off", the default).
const OptAlphaStart = "alphastart"

// companionOnly lists GPU auto's options that the CPU auto engine does
// not take.
var companionOnly = []string{OptCompanion, OptClaim, OptWindow, OptWindowMoves, OptWindowSegment, OptAlphaStart}

// cpuParams returns p for the CPU auto engine: its backend, and
// Params.Extra without GPU auto's own options.
func cpuParams(p solver.Params) solver.Params {
	q := p
	q.Backend = solver.BackendCPU
	if p.Extra != nil {
		q.Extra = maps.Clone(p.Extra)
		for _, k := range companionOnly {
			delete(q.Extra, k)
		}
	}
	return q
}

// windowParams returns p for GPU auto's or-ils windows (the companion,
// and the or-ils phase from AutoOrILSMinN cities): Params.Extra without
// the CPU auto engine's "segment", which or-ils would otherwise read as
// its windows' kick segment, with or-ils's lower ceiling; the windows take
// OptWindowSegment instead.
func windowParams(p solver.Params) solver.Params {
	q := p
	if _, ok := p.Extra["segment"]; ok {
		q.Extra = maps.Clone(p.Extra)
		delete(q.Extra, "segment")
	}
	return q
}

// earlyParams returns p for or-ils before the CPU auto engine's first
// tour (solveCompanion with early): windowParams without or-ils's global
// passes. Their candidate lists would be built on every core while the
// engine builds its own, which its set-up then waits on, and the first
// pass would start 2 s in, after the engine's greedy tour on a million
// cities (1.4 s on the 16-core H100 host, docs/PERF.md, "Final check of
// main and the ttq suite on the large instances").
func earlyParams(p solver.Params) solver.Params {
	q := windowParams(p)
	q.Extra = maps.Clone(q.Extra)
	if q.Extra == nil {
		q.Extra = map[string]string{}
	}
	q.Extra[OptGlobal] = "0"
	return q
}

// companionEvery returns the seconds between the windows' offers that p
// asks for (OptCompanion), 0 for none, the default. Paired runs of GPU
// auto with the windows every half second against CPU auto alone, 60 s
// unless said (docs/PERF.md): pla85900 0.385 / 0.389 % and 0.403 / 0.370 %
// (20 s), 0.297 / 0.316 %, 0.344 / 0.275 % (the last with the faster
// candidate lists): 0.02 % behind on average; 100,000 uniform cities
// level (0.628 / 0.638 %, 0.617 / 0.609 %); a million cities 0.09 %
// behind (the folds and publications of million-city tours took 8.7 s of
// the engine's 60).
func companionEvery(p solver.Params) (time.Duration, error) {
	if p.Extra[OptCompanion] == "" {
		return 0, nil
	}
	sec, err := solver.OptionsFor(AlgoAuto, solver.BackendGPU).Float(p, OptCompanion)
	if err != nil {
		return 0, err
	}
	return time.Duration(sec * float64(time.Second)), nil
}

// companionClaim returns the fraction of the tour the windows claim
// (OptClaim), 0 for none.
func companionClaim(p solver.Params) (float64, error) {
	return solver.OptionsFor(AlgoAuto, solver.BackendGPU).Float(p, OptClaim)
}
