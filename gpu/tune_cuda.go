//go:build cuda

package gpu

import (
	"strconv"

	"github.com/tsplab/tsplab/solver"
)

var _ solver.Tuner = engine{}

// Tune fills the defaults that depend on the instance and the device with
// the values the engine will run (solver.Tuner): PSPM's and the climbers'
// blocks, 3opt-ils's 4 × SMs, and the threads' upper bound.
func (e engine) Tune(in *solver.Instance, opts solver.OptionSet) solver.OptionSet {
	if in == nil || in.N < 5 || available() != nil {
		return opts
	}
	r, err := newRun()
	if err != nil {
		return opts
	}
	defer r.close()
	n := in.N
	info := r.d.info
	set := func(name, def string, maxV float64) {
		for i := range opts {
			if opts[i].Name != name {
				continue
			}
			if def != "" && opts[i].Default == "" {
				opts[i].Default = def
			}
			if maxV > 0 && maxV < opts[i].Max {
				opts[i].Max = maxV
			}
		}
	}
	set("threads", "", float64(r.d.limits.maxThreads))
	switch e.name {
	case AlgoPSPM, AlgoPSSM:
		metric, err := metricCode(in)
		if err != nil {
			return opts
		}
		tpb := 32
		if e.name == AlgoPSSM {
			tpb = 1
		}
		var tb int
		_ = r.do(func() error {
			pl, def, err := r.planDefault(n, tpb, metric, pspmDefaultNbrBytes(n, pspmDefaultNNK(e.name, n)))
			if err != nil {
				return err
			}
			tb = def
			if maxTB := int(info.GlobalMemory / 4 / pl.blockBytes(n)); tb > maxTB {
				tb = max(1, maxTB)
			}
			return nil
		})
		// the default lies in the option's range
		if o, ok := opts.Lookup("blocks"); ok && o.Max > 0 {
			tb = min(tb, int(o.Max))
		}
		if tb > 0 {
			set("blocks", strconv.Itoa(tb), 0)
		}
	case AlgoTwoOptClimb:
		var pl climbPlan
		if err := r.do(func() (err error) { pl, err = r.planClimb(n, climbKernelFor(n)); return err }); err == nil {
			set("blocks", strconv.Itoa(pl.slots), float64(pl.slots))
			break
		}
		_, tiles := evalGrid(n)
		b := max(1, (8*info.Multiprocs+tiles-1)/tiles)
		set("blocks", strconv.Itoa(min(b, max(1, int((1<<30)/(int64(n)*20))))), 0)
	case AlgoThreeOptILS:
		set("blocks", strconv.Itoa(4*info.Multiprocs), 0)
	case AlgoSwapClimb:
		set("blocks", strconv.Itoa(int(min(max(int64(1<<19)/swapMoves(n), 1), 4096))), 0)
	}
	return opts
}
