//go:build cuda

package pspm

import (
	"gorgonia.org/cu"

	"github.com/tsplab/tsplab/gpu/device"
)

func init() {
	for _, l := range pspmLayouts {
		device.RegisterKernels(l.kernels()...)
	}
	for _, m := range []string{"euc", "ceil", "att"} {
		device.RegisterKernels("pspm_init_"+m, "dist_check_"+m)
	}
	device.RegisterKernels("pspm_sync", "pspm_exchange")
}

// sharedFits reports whether fn may take bytes of dynamic shared memory, raising its limit.
func sharedFits(r *device.Run, fn cu.Function, bytes int) bool {
	return bytes <= r.Dev.Limits.SharedOptin && (bytes <= r.Dev.Limits.SharedStatic || device.SetMaxDynamicShared(fn, bytes) == nil)
}

// occupancy is the device's pspmOccupancy (0 where the kernel does not fit).
func occupancy(r *device.Run, l pspmLayout, blockDim, shared int) int {
	fn, ok := r.Dev.Fns[l.name]
	if !ok || !sharedFits(r, fn, shared) {
		return 0
	}
	per, err := fn.MaxActiveBlocksPerMultiProcessor(blockDim, int64(shared))
	if err != nil {
		return 0
	}
	return per
}

// ready raises pl's kernels' dynamic shared memory limits where needed.
func ready(r *device.Run, pl pspmPlan) error {
	if pl.shared <= r.Dev.Limits.SharedStatic {
		return nil
	}
	for _, k := range pl.layout.kernels() {
		if err := device.SetMaxDynamicShared(r.Dev.Fns[k], pl.shared); err != nil {
			return err
		}
	}
	return nil
}

// planPSPM is pspmPlanFor on this device.
func planPSPM(r *device.Run, n, tpb, metric, tb, nbrBytes int) (pspmPlan, error) {
	pl, err := pspmPlanFor(n, tpb, metric, tb, r.Dev.Info.Multiprocs, nbrBytes, func(l pspmLayout, blockDim, shared int) int { return occupancy(r, l, blockDim, shared) })
	if err != nil {
		return pl, err
	}
	return pl, ready(r, pl)
}

// planDefault is pspmDefaultFor on this device.
func planDefault(r *device.Run, n, tpb, metric, nbrBytes int) (pspmPlan, int, error) {
	pl, tb, err := pspmDefaultFor(n, tpb, metric, r.Dev.Info.Multiprocs, nbrBytes, func(l pspmLayout, blockDim, shared int) int { return occupancy(r, l, blockDim, shared) })
	if err != nil {
		return pl, 0, err
	}
	return pl, tb, ready(r, pl)
}
