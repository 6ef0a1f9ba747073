package gpu

import (
	"time"

	"github.com/tsplab/tsplab/solver"
)

// mergeSnapshots returns two channels feeding snaps (nil: two nil channels) with the shortest best tour of either,
// b's Elapsed made late longer, and a function that closes both and waits for the last snapshot.
func mergeSnapshots(snaps chan solver.Snapshot, late time.Duration) (a, b chan solver.Snapshot, wait func()) {
	if snaps == nil {
		return nil, nil, func() {}
	}
	a, b = solver.Latest(), solver.Latest()
	done := make(chan struct{})
	go func(a, b chan solver.Snapshot) {
		defer close(done)
		var best []int
		bestLen := int64(-1)
		for a != nil || b != nil {
			var s solver.Snapshot
			var ok bool
			select {
			case s, ok = <-a:
				if !ok {
					a = nil
					continue
				}
			case s, ok = <-b:
				if !ok {
					b = nil
					continue
				}
				s.Elapsed += late
			}
			if s.Best != nil && (bestLen < 0 || s.BestLength < bestLen) {
				best, bestLen = s.Best, s.BestLength
			} else if best != nil {
				s.Best, s.BestLength = best, bestLen
			}
			solver.Offer(snaps, s)
		}
	}(a, b)
	return a, b, func() { close(a); close(b); <-done }
}
