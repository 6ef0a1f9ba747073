// Package proftrace writes a run's phase timings to stderr when the
// environment sets TSP_PROFILE: a temporary instrument for profiling.
package proftrace

import (
	"fmt"
	"os"
	"time"
)

// On tells whether TSP_PROFILE is set.
var On = os.Getenv("TSP_PROFILE") != ""

var t0 = time.Now()

// Printf writes one line, prefixed by PROF and the seconds since the
// process started, when On.
func Printf(format string, args ...any) {
	if !On {
		return
	}
	fmt.Fprintf(os.Stderr, "PROF %.3f "+format+"\n", append([]any{time.Since(t0).Seconds()}, args...)...)
}
