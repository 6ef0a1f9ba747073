//go:build cuda

package gpu

import (
	"fmt"
	"testing"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/gpu/ils"
	"github.com/tsplab/tsplab/internal/gputest"
	"github.com/tsplab/tsplab/lab/gpu/climb"
	"github.com/tsplab/tsplab/lab/gpu/pspm"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/enginetest"
)

// TestEngineContractGPU runs the engine contract (solver/enginetest) on
// every registered GPU engine; without a usable device every case is
// skipped.
func TestEngineContractGPU(t *testing.T) {
	// 2opt-or's descent ends at its local optimum within milliseconds on
	// the cases' instances.
	descent := func(e solver.Engine) bool { return e.Name() == ils.AlgoTourLS }
	cfg := enginetest.Config{Budget: gpuBudget, Open: gpuOpen, Ready: deviceReady, Descent: descent}
	n := 0
	for _, e := range solver.Engines() {
		if e.Backend() != solver.BackendGPU {
			continue
		}
		n++
		t.Run(e.Name(), func(t *testing.T) { enginetest.Run(t, e, cfg) })
	}
	if n == 0 {
		t.Fatal("no GPU engine registered")
	}
}

// deviceReady says why the contract's cases cannot run here ("" when a
// device can run kernels).
func deviceReady() string {
	if _, err := device.GetDevice(); err != nil {
		return fmt.Sprintf("no usable CUDA device: %v", err)
	}
	return ""
}

// gpuBudget are the parameters of a short run of GPU engine e that ends
// by its own budget where it has one (else a time limit of 300 ms).
func gpuBudget(e solver.Engine) solver.Params {
	p := solver.Params{Seed: 1}
	switch e.Name() {
	case pspm.AlgoPSPM, pspm.AlgoPSSM:
		p = gputest.WithOpts(p, "t0=200", "tend=1", "alpha=0.8", "sweeps=4", "k=5")
	case pspm.AlgoSSPM:
		p = gputest.WithOpts(p, "t0=200", "tend=1", "alpha=0.8", "sweeps=4")
	case climb.AlgoTwoOptClimb:
		p = gputest.WithOpts(p, climb.OptRestarts+"=64")
	case ils.AlgoThreeOptILS:
		p = gputest.WithOpts(p, ils.OptKicks+"=50")
	case AlgoAuto:
		p = gputest.WithOpts(p, ils.OptKicks+"=300")
	}
	return p
}

// gpuOpen are the parameters of a run of GPU engine e that only the
// contract's cases stop: the annealers on a schedule far longer than the
// cases' time limits (else it is fitted to them).
func gpuOpen(e solver.Engine) solver.Params {
	switch e.Name() {
	case pspm.AlgoPSPM, pspm.AlgoPSSM, pspm.AlgoSSPM:
		return gputest.WithOpts(solver.Params{}, "t0=100", "tend=0.1", "alpha=0.9999", "sweeps=4")
	}
	return solver.Params{}
}
