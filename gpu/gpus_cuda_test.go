//go:build cuda

package gpu

import (
	"testing"

	"github.com/tsplab/tsplab/gpu/climb"
	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/gpu/ils"
	"github.com/tsplab/tsplab/gpu/pspm"
	"github.com/tsplab/tsplab/solver"
)

// TestFirstGPUOnly: the engines that share their work out between the
// selected GPUs say so; the others run on the first (no device needed).
func TestFirstGPUOnly(t *testing.T) {
	for name, first := range map[string]bool{
		AlgoAuto: true, AlgoPop: true, ils.AlgoOrILS: true,
		pspm.AlgoPSPM: false, climb.AlgoTwoOptClimb: false, climb.AlgoTwoOptILS: false,
		ils.AlgoThreeOptILS: false, ils.AlgoTourLS: false, climb.AlgoSwapClimb: false,
	} {
		e, err := solver.Lookup(name, solver.BackendGPU)
		if err != nil {
			t.Fatal(err)
		}
		if got := device.FirstGPUOnly(e); got != first {
			t.Errorf("%s: FirstGPUOnly %v, want %v", name, got, first)
		}
	}
}
