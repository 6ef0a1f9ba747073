package cpu

import (
	"fmt"
	"os"
	"time"
)

// earlyTrace turns on a temporary trace of the merge search's phases on
// stderr (TSP_EARLYTRACE set).
var earlyTrace = os.Getenv("TSP_EARLYTRACE") != ""

// trace prints what happened, the time since the run's start, the best
// length and the kicks so far, when earlyTrace is on.
func (r *ilsRun) trace(what string) {
	if !earlyTrace {
		return
	}
	fmt.Fprintf(os.Stderr, "T %.3f %s best=%d kicks=%d\n", time.Since(r.start).Seconds(), what, r.c.bestLen.Load(), r.totalKicks())
}

// Temporary experiment knobs: TSP_ALPHA_AT is the fraction of the time
// limit before which the workers do not take the background ascent's
// alpha lists; TSP_ALPHA_CHEAP set takes them without a re-descent.
var (
	alphaAtFrac = envFloat("TSP_ALPHA_AT")
	alphaCheap  = os.Getenv("TSP_ALPHA_CHEAP") != ""
	drainOld    = os.Getenv("TSP_DRAIN_OLD") != ""
)

// envFloat is the environment variable name read as a number (0 when
// unset or not a number).
func envFloat(name string) float64 {
	var f float64
	fmt.Sscan(os.Getenv(name), &f)
	return f
}

// alphaTooEarly reports whether the lists wait by TSP_ALPHA_AT.
func (r *ilsRun) alphaTooEarly() bool {
	return alphaAtFrac > 0 && r.p.TimeLimit > 0 && time.Since(r.start) < time.Duration(alphaAtFrac*float64(r.p.TimeLimit))
}
