//go:build cuda

package ils

import (
	"strconv"
	"time"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"
)

// The bodies of this package's GPU engines (ils_algos.go registers them).
var (
	orILSImpl    = device.Impl{Solve: solveOrILS, Limit: device.AlwaysDefault}
	tourLSImpl   = device.Impl{Multi: device.Independent(solveTourLS)}
	threeOptImpl = device.Impl{Multi: device.Independent(solveThreeOptILS), Limit: threeOptLimit, Tune: func(t *device.Tuning, _ *solver.Instance) {
		t.Set("blocks", strconv.Itoa(4*t.R.Dev.Info.Multiprocs), 0)
	}}
)

// threeOptLimit is 3opt-ils's default time limit: none with a kicks budget.
func threeOptLimit(in *solver.Instance, p solver.Params) time.Duration {
	if cfg, err := ThreeOptSpec.Parse(in, p); err == nil && cfg.Kicks > 0 {
		return 0
	}
	return solver.DefaultTimeLimit
}
