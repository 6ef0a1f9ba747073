//go:build cuda

package gpu

import (
	"strconv"

	"github.com/tsplab/tsplab/solver"
)

var _ solver.Tuner = engine{}

// Tune fills the defaults that depend on the instance and the device with
// the values the engine will run (solver.Tuner): PSPM's and the climbers'
// blocks, 3opt-ils's 4 × SMs, and the threads' upper bound; GPU auto's
// those of the CPU engine it runs (the defaults that follow the cities a
// worker).
func (e engine) Tune(in *solver.Instance, opts solver.OptionSet) solver.OptionSet {
	if e.name == AlgoAuto && in != nil {
		if c, err := solver.Lookup(AlgoAuto, solver.BackendCPU); err == nil {
			if t, ok := c.(solver.Tuner); ok {
				opts = t.Tune(in, opts)
			}
		}
	}
	if in == nil || in.N < 5 || available() != nil {
		return opts
	}
	tune := tuners[e.name]
	if _, ok := opts.Lookup("threads"); !ok && tune == nil {
		// nothing to tune: no wait for the context opening (openAhead)
		return opts
	}
	r, err := newRun()
	if err != nil {
		return opts
	}
	defer r.close()
	t := tuning{r: r, n: in.N, opts: opts}
	t.set("threads", "", float64(r.d.limits.maxThreads))
	if tune != nil {
		tune(&t, in)
	}
	return t.opts
}

// tuning is one Tune: the device's run, the instance's size and the
// options whose defaults and bounds it fills.
type tuning struct {
	r    *run
	n    int
	opts solver.OptionSet
}

// set gives option name the default def where it has none ("": keep)
// and lowers its upper bound to maxV (0: keep).
func (t *tuning) set(name, def string, maxV float64) {
	for i := range t.opts {
		if t.opts[i].Name != name {
			continue
		}
		if def != "" && t.opts[i].Default == "" {
			t.opts[i].Default = def
		}
		if maxV > 0 && maxV < t.opts[i].Max {
			t.opts[i].Max = maxV
		}
	}
}

// tuners are the engines' own defaults, by engine.
var tuners = map[string]func(t *tuning, in *solver.Instance){
	AlgoPSPM:        func(t *tuning, in *solver.Instance) { t.pspmBlocks(in, AlgoPSPM, 32) },
	AlgoPSSM:        func(t *tuning, in *solver.Instance) { t.pspmBlocks(in, AlgoPSSM, 1) },
	AlgoTwoOptClimb: func(t *tuning, _ *solver.Instance) { t.climbBlocks() },
	AlgoThreeOptILS: func(t *tuning, _ *solver.Instance) {
		t.set("blocks", strconv.Itoa(4*t.r.d.info.Multiprocs), 0)
	},
	AlgoSwapClimb: func(t *tuning, _ *solver.Instance) {
		t.set("blocks", strconv.Itoa(int(min(max(int64(1<<19)/swapMoves(t.n), 1), 4096))), 0)
	},
}

// pspmBlocks sets the annealers' default blocks of tpb threads: a full
// wave, bounded by a quarter of the device's memory and the option's range.
func (t *tuning) pspmBlocks(in *solver.Instance, name string, tpb int) {
	metric, err := metricCode(in)
	if err != nil {
		return
	}
	r, n := t.r, t.n
	var tb int
	_ = r.do(func() error {
		pl, def, err := r.planDefault(n, tpb, metric, pspmDefaultNbrBytes(n, pspmDefaultNNK(name, n)))
		if err != nil {
			return err
		}
		tb = def
		if maxTB := int(r.d.info.GlobalMemory / 4 / pl.blockBytes(n)); tb > maxTB {
			tb = max(1, maxTB)
		}
		return nil
	})
	// the default lies in the option's range
	if o, ok := t.opts.Lookup("blocks"); ok && o.Max > 0 {
		tb = min(tb, int(o.Max))
	}
	if tb > 0 {
		t.set("blocks", strconv.Itoa(tb), 0)
	}
}

// climbBlocks sets 2opt-climb's blocks: the fused climber's slots, else
// the batch climber's climbers that fill the device.
func (t *tuning) climbBlocks() {
	r, n := t.r, t.n
	var pl climbPlan
	if err := r.do(func() (err error) { pl, err = r.planClimb(n, climbKernelFor(n)); return err }); err == nil {
		t.set("blocks", strconv.Itoa(pl.slots), float64(pl.slots))
		return
	}
	_, tiles := evalGrid(n)
	b := max(1, (8*r.d.info.Multiprocs+tiles-1)/tiles)
	t.set("blocks", strconv.Itoa(min(b, max(1, int((1<<30)/(int64(n)*20))))), 0)
}
