//go:build cuda

package gpu

import "github.com/tsplab/tsplab/solver"

// harvestClimbers is the host's step of a random-restart climber batch
// (2opt-climb, swap-climb): every climber whose flag is 0 has reached a
// local minimum; its tour (city, B tours of n cities, as copied back) is
// measured exactly, the shortest is kept in best/bestLen, climbs counts
// them, and restart starts each of them again from a new random tour on
// the context goroutine.
func harvestClimbers(r *run, in *solver.Instance, flags, city []int32, best *[]int, bestLen, climbs *int64, restart func(k int) error) error {
	n := len(city) / len(flags)
	var done []int
	for k, f := range flags {
		if f != 0 {
			continue
		}
		done = append(done, k)
		t := make([]int, n)
		for i := range t {
			t[i] = int(city[k*n+i])
		}
		*climbs++
		if l := solver.TourLength(in, t); *bestLen < 0 || l < *bestLen {
			*best, *bestLen = t, l
		}
	}
	return r.do(func() error {
		for _, k := range done {
			if err := restart(k); err != nil {
				return err
			}
		}
		return nil
	})
}
