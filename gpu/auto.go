package gpu

import (
	"time"

	"github.com/tsplab/tsplab/gpu/ils"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/strategy"
)

// autoLSGreedy is whether GPU auto's 2opt-or descent of its start tour
// starts from the greedy tour built on the GPU rather than the Hilbert
// curve (docs/DECISIONS.md#gls-greedy-start).
const autoLSGreedy = true

// autoSettings are GPU auto's own settings, read once from a run's
// Params (prepareAuto): the windows' or-ils settings, those of the early
// or-ils, and the windows' first share beside the partition search.
type autoSettings struct {
	windows ils.OrConfig
	// early is windows without global passes, whose lists would compete
	// with the engine's own (docs/DECISIONS.md#gpu-early-no-global)
	early ils.OrConfig
	// beside is OptBeside (0 unset: the partition search's own);
	// noWindows, that it was given as 0
	beside    float64
	noWindows bool
}

// autoFacts are what GPU auto's strategy is decided from: the instance,
// the time left to p's deadline (without one, p's time limit: the plan
// tsp engines shows), the GPU's devices and whether the windows were turned
// off (every instance counts as cuttable: the partition search's floor
// lies far below strategy.PartitionMinN).
func autoFacts(in *solver.Instance, p solver.Params, set autoSettings) strategy.Facts {
	f := strategy.Facts{Engine: strategy.GPUAuto, N: in.N, Cuttable: true, FixedEdges: len(in.FixedEdges) > 0,
		StartGiven: p.Start != nil, TimeLimit: p.LimitFrom(time.Now()),
		Options: strategy.Options{NoWindows: set.noWindows},
		Devices: strategy.Devices{GPU: true, OrSpan: ils.OrSpanOK(in)}}
	if in.Metric == solver.Explicit || !in.HasCoords() {
		f.Kind = strategy.Matrix
	}
	return f
}

// cpuParams returns p for the CPU auto engine once the GPU's start tour
// is there: its backend, the run's deadline as it was (the engine decides
// its own plan by the time left to it).
func cpuParams(p solver.Params) solver.Params {
	q := p
	q.Backend = solver.BackendCPU
	return q
}

// prepareAuto reads GPU auto's own settings from p once: the windows'
// (window, and wsegment as their kick segment; or-ils's defaults
// otherwise, CPU auto's segment aside), the early or-ils's and the
// windows' share.
func prepareAuto(p solver.Params, n int) (autoSettings, error) {
	var set autoSettings
	var err error
	if set.windows, err = ils.OrSpec.ParseKnown(&solver.Instance{N: n}, p.Without("segment")); err != nil {
		return set, err
	}
	opts := solver.OptionsFor(AlgoAuto, solver.BackendGPU)
	if set.windows.Segment, err = opts.Int(p, ils.OptWindowSegment); err != nil {
		return set, err
	}
	set.early = set.windows
	set.early.Global = 0
	if set.beside, err = opts.Float(p, ils.OptBeside); err != nil {
		return set, err
	}
	set.noWindows = p.Given(ils.OptBeside) && set.beside <= 0
	return set, nil
}
