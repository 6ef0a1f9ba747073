package gpu

import (
	"maps"
	"runtime"
	"strconv"

	"github.com/tsplab/tsplab/solver"
)

// AlgoPop is GPU pop: the CPU pop engine with the GPU's block search
// (OpenTourPool) on copies of its pool's members beside the workers.
const AlgoPop = "pop"

// popPoolMin is the smallest pool GPU pop keeps when the pool option is
// unset: with more workers the pool has one member a worker, so that the
// first round starts each worker on a tour of its own and later rounds
// cross distinct pairs.
const popPoolMin = 8

// popPoolMax is the pool option's upper bound (CPU pop's).
const popPoolMax = 256

// GPU pop takes CPU pop's options (those that set the GPU's rounds,
// gpuround and gpustart, are CPU pop's, read only with a pool), but for
// the pool's default, which follows the workers; all are listed as
// experimental (gpus too), as the engine is.
func init() {
	solver.Declare(AlgoPop, solver.BackendGPU, experimental{withGPUs{solver.Inherit(AlgoPop, solver.BackendCPU, solver.OptionSet{{
		Name: "pool", Kind: solver.KindInt, Min: 2, Max: popPoolMax, Auto: "one tour a worker, at least 8",
		Doc: "tours the pool keeps; a new tour replaces the member closest to it by edge distance, only if shorter, and never enters twice",
	}})}})
}

// experimental is a Declarer whose options are all marked experimental.
type experimental struct{ solver.Declarer }

// Options returns d's options marked experimental.
func (d experimental) Options(in *solver.Instance) solver.OptionSet {
	opts := d.Declarer.Options(in)
	for i := range opts {
		opts[i].Experimental = true
	}
	return opts
}

// popParams returns p for the CPU pop engine: its backend, and the pool
// option set to one tour a worker (at least popPoolMin) when unset.
func popParams(p solver.Params) solver.Params {
	q := p
	q.Backend = solver.BackendCPU
	if p.Extra["pool"] == "" {
		w := p.Workers
		if w <= 0 {
			w = runtime.NumCPU()
		}
		q.Extra = maps.Clone(p.Extra)
		if q.Extra == nil {
			q.Extra = map[string]string{}
		}
		q.Extra["pool"] = strconv.Itoa(min(max(w, popPoolMin), popPoolMax))
	}
	return q
}
