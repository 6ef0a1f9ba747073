//go:build cuda

package gpu

import (
	"testing"
	"time"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/gpu/ils"
	"github.com/tsplab/tsplab/internal/gputest"
	"github.com/tsplab/tsplab/lab/gpu/climb"
	"github.com/tsplab/tsplab/lab/gpu/pspm"
	"github.com/tsplab/tsplab/solver"
)

// The GPU engines without a natural end declare solver.DefaultTimeLimit
// for a run without a time limit (device.Impl.Limit), none where a budget
// ends the run; PSPM's schedule and 2opt-or's descent end by themselves.
// No device is needed: the declarations read the options alone.
func TestDefaultLimitsGPU(t *testing.T) {
	in := gputest.HostInstance(200, 1)
	def := solver.DefaultTimeLimit
	cases := []struct {
		algo string
		p    solver.Params
		want time.Duration
	}{
		{AlgoAuto, solver.Params{}, def},
		{AlgoPop, solver.Params{}, def},
		{AlgoPop, gputest.Ext("kicks", "10"), 0},
		{ils.AlgoOrILS, solver.Params{}, def},
		{ils.AlgoThreeOptILS, solver.Params{}, def},
		{ils.AlgoThreeOptILS, gputest.Ext(ils.OptKicks, "10"), 0},
		{ils.AlgoThreeOptILS, gputest.Ext(ils.OptKicks, "10", device.OptGPUs, "0"), 0},
		{ils.AlgoTourLS, solver.Params{}, 0},
		{climb.AlgoTwoOptILS, solver.Params{}, def},
		{climb.AlgoTwoOptClimb, solver.Params{}, def},
		{climb.AlgoTwoOptClimb, gputest.Ext(climb.OptRestarts, "5"), 0},
		{climb.AlgoSwapClimb, solver.Params{}, def},
		{climb.AlgoSwapClimb, gputest.Ext(climb.OptTabu, "100"), 0},
		{pspm.AlgoPSPM, solver.Params{}, 0},
	}
	for _, c := range cases {
		e, err := solver.Lookup(c.algo, solver.BackendGPU)
		if err != nil {
			t.Fatal(err)
		}
		if got := solver.DefaultLimitOf(e, in, c.p); got != c.want {
			t.Errorf("%s with %v: limit %v, want %v", c.algo, c.p.Extra, got, c.want)
		}
	}
}
