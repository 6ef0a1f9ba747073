//go:build cuda

package climb

import (
	"strconv"

	"github.com/tsplab/tsplab/gpu/device"
)

// climbBlocks sets 2opt-climb's blocks: the fused slots, else the batch climbers.
func climbBlocks(t *device.Tuning) {
	r, n := t.R, t.N
	var pl climbPlan
	if err := r.Do(func() (err error) { pl, err = planClimb(r, n, climbKernelFor(n)); return err }); err == nil {
		t.Set("blocks", strconv.Itoa(pl.slots), float64(pl.slots))
		return
	}
	_, tiles := evalGrid(n)
	b := max(1, (8*r.Dev.Info.Multiprocs+tiles-1)/tiles)
	t.Set("blocks", strconv.Itoa(min(b, max(1, int((1<<30)/(int64(n)*20))))), 0)
}
