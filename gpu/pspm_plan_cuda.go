//go:build cuda

package gpu

import (
	"gorgonia.org/cu"
)

func init() {
	for _, l := range pspmLayouts {
		registerKernels(l.kernels()...)
	}
	for _, m := range []string{"euc", "ceil", "att"} {
		registerKernels("pspm_init_"+m, "dist_check_"+m)
	}
	registerKernels("pspm_sync")
}

// sharedFits reports whether fn may take bytes of dynamic shared memory,
// raising its limit when needed.
func (r *run) sharedFits(fn cu.Function, bytes int) bool {
	return bytes <= r.d.limits.sharedOptin && (bytes <= r.d.limits.sharedStatic || setMaxDynamicShared(fn, bytes) == nil)
}

// occupancy is the device's pspmOccupancy: the blocks of layout l's
// kernel an SM holds, 0 where the kernel or its shared memory does not fit.
func (r *run) occupancy(l pspmLayout, blockDim, shared int) int {
	fn, ok := r.d.fns[l.name]
	if !ok || !r.sharedFits(fn, shared) {
		return 0
	}
	per, err := fn.MaxActiveBlocksPerMultiProcessor(blockDim, int64(shared))
	if err != nil {
		return 0
	}
	return per
}

// ready raises the dynamic shared memory limit of pl's kernels where pl
// needs more than the static limit.
func (r *run) ready(pl pspmPlan) error {
	if pl.shared <= r.d.limits.sharedStatic {
		return nil
	}
	for _, k := range pl.layout.kernels() {
		if err := setMaxDynamicShared(r.d.fns[k], pl.shared); err != nil {
			return err
		}
	}
	return nil
}

// planPSPM is pspmPlanFor on this device.
func (r *run) planPSPM(n, tpb, metric, tb, nbrBytes int) (pspmPlan, error) {
	pl, err := pspmPlanFor(n, tpb, metric, tb, r.d.info.Multiprocs, nbrBytes, r.occupancy)
	if err != nil {
		return pl, err
	}
	return pl, r.ready(pl)
}

// planDefault is pspmDefaultFor on this device.
func (r *run) planDefault(n, tpb, metric, nbrBytes int) (pspmPlan, int, error) {
	pl, tb, err := pspmDefaultFor(n, tpb, metric, r.d.info.Multiprocs, nbrBytes, r.occupancy)
	if err != nil {
		return pl, 0, err
	}
	return pl, tb, r.ready(pl)
}
