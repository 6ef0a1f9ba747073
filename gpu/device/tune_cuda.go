//go:build cuda

package device

import (
	"github.com/tsplab/tsplab/solver"
)

var _ solver.Tuner = engine{}

// Tune fills the defaults that depend on the instance and the device with the values the engine will run (solver.Tuner).
func (e engine) Tune(in *solver.Instance, opts solver.OptionSet) solver.OptionSet {
	impl := e.impl
	if impl.Inherit != nil && in != nil {
		opts = impl.Inherit(in, opts)
	}
	if in == nil || in.N < 5 || Available() != nil {
		return opts
	}
	tune := impl.Tune
	if _, ok := opts.Lookup("threads"); !ok && tune == nil {
		// nothing to tune: no wait for the context opening (openAhead)
		return opts
	}
	r, err := NewRun()
	if err != nil {
		return opts
	}
	defer r.Close()
	t := Tuning{R: r, N: in.N, Opts: opts}
	t.Set("threads", "", float64(r.Dev.Limits.MaxThreads))
	if tune != nil {
		tune(&t, in)
	}
	return t.Opts
}

// Tuning is one Tune: the run R, the size N and the options it fills.
type Tuning struct {
	R    *Run
	N    int
	Opts solver.OptionSet
}

// Set gives option name default def where it has none ("": keep) and caps it at maxV (0: keep).
func (t *Tuning) Set(name, def string, maxV float64) {
	for i := range t.Opts {
		if t.Opts[i].Name != name {
			continue
		}
		if def != "" && t.Opts[i].Default == "" {
			t.Opts[i].Default = def
		}
		if maxV > 0 && maxV < t.Opts[i].Max {
			t.Opts[i].Max = maxV
		}
	}
}

// Plan is the strategy of a run of e on in (solver.Planner; "" for most engines).
func (e engine) Plan(in *solver.Instance) string {
	if e.impl.Plan != nil {
		return e.impl.Plan(in)
	}
	return ""
}
