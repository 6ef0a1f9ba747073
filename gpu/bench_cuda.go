//go:build cuda

package gpu

import (
	"context"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// TwoOptDescent runs 2opt-ils's GPU local search (whole-neighbourhood
// passes, many disjoint improving moves applied per pass) from start until
// no improving move survives the exact re-check, for the rocki suite. It
// returns the tour, the passes and moves evaluated, the time and the
// device.
func TwoOptDescent(in *solver.Instance, start []int) (t []int, passes, moves int64, elapsed time.Duration, device string, err error) {
	r, err := newRun()
	if err != nil {
		return nil, 0, 0, 0, "", err
	}
	defer r.close()
	if _, err := metricCode(in); err != nil {
		return nil, 0, 0, 0, "", err
	}
	if err := solver.ValidateTour(start, in.N); err != nil {
		return nil, 0, 0, 0, "", err
	}
	var b *twoOptBatch
	if err := r.do(func() (err error) { b, err = r.newBatch(in.N, 1); return err }); err != nil {
		return nil, 0, 0, 0, "", err
	}
	defer r.do(b.free)
	t = append([]int(nil), start...)
	t0 := time.Now()
	moves, passes, _, err = twoOptLocalSearch(context.Background(), b, in, shiftedCoords(in), rawScale(in), t, time.Time{})
	return t, passes, moves, time.Since(t0), r.d.label, err
}
