package main

import (
	"time"

	"github.com/tsplab/tsplab/solver"
)

// The ranges of the numeric flags that are not engine settings (those
// are checked by solver.Validate against the engine's option table). A
// value past one is refused before any work, with one line naming the
// flag and the range (exit 2).
const (
	maxRuns    = 1 << 20 // bench runs per configuration
	maxCities  = 1 << 24 // gen --n
	maxWorkers = solver.MaxWorkers
	// maxNeighbors bounds bound's candidate neighbours per city.
	maxNeighbors = 256
	maxTime      = solver.MaxTimeLimit
)

// intRange is the check of one integer flag.
type intRange struct {
	flag   string
	v      int64
	lo, hi int64
}

// checkInts fails with a usage error naming the first flag out of range.
func checkInts(cmd string, rs ...intRange) error {
	for _, r := range rs {
		if r.v < r.lo || r.v > r.hi {
			return usagef(cmd, "--%s %d is out of range: want %d..%d", r.flag, r.v, r.lo, r.hi)
		}
	}
	return nil
}

// checkTime fails with a usage error when a duration flag is negative or
// past maxTime.
func checkTime(cmd, flag string, d time.Duration) error {
	if d < 0 || d > maxTime {
		return usagef(cmd, "--%s %v is out of range: want 0 (none) up to %v", flag, d, maxTime)
	}
	return nil
}
