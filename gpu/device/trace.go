package device

import (
	"fmt"
	"os"
	"time"
)

// traceOn: TSP_TRACE set prints a timeline of the GPU work on stderr.
var traceOn = os.Getenv("TSP_TRACE") != ""

// Trace writes one timeline line, the Unix time in ns first (TSP_TRACE).
func Trace(format string, a ...any) {
	if traceOn {
		TraceAt(time.Now(), format, a...)
	}
}

// TraceAt is Trace at t.
func TraceAt(t time.Time, format string, a ...any) {
	if traceOn {
		fmt.Fprintf(os.Stderr, "trace %d %s\n", t.UnixNano(), fmt.Sprintf(format, a...))
	}
}
