//go:build cuda

package pspm

import (
	"strconv"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"
)

// pspmTuneBlocks sets the annealers' default blocks: a full wave, bounded.
func pspmTuneBlocks(t *device.Tuning, in *solver.Instance, name string, tpb int) {
	metric, err := device.MetricCode(in)
	if err != nil {
		return
	}
	r, n := t.R, t.N
	var tb int
	_ = r.Do(func() error {
		pl, def, err := planDefault(r, n, tpb, metric, pspmDefaultNbrBytes(n, pspmDefaultNNK(name, n)))
		if err != nil {
			return err
		}
		tb = def
		if maxTB := int(r.Dev.Info.GlobalMemory / 4 / pl.blockBytes(n)); tb > maxTB {
			tb = max(1, maxTB)
		}
		return nil
	})
	// the default lies in the option's range
	if o, ok := t.Opts.Lookup("blocks"); ok && o.Max > 0 {
		tb = min(tb, int(o.Max))
	}
	if tb > 0 {
		t.Set("blocks", strconv.Itoa(tb), 0)
	}
}
