package cpu

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

// Temporary experiment knobs (E1M_* environment variables); removed
// before the branch lands.

func xEnvF(name string, def float64) float64 {
	if v, err := strconv.ParseFloat(os.Getenv(name), 64); err == nil {
		return v
	}
	return def
}

var (
	xMaxShare = xEnvF("E1M_MAXSHARE", besideMaxShare)
	xStitch   = xEnvF("E1M_STITCH", 0.5)
	xTrace    = os.Getenv("E1M_TRACE") != ""
	xT0       = time.Now()
)

func xTracef(format string, a ...any) {
	if xTrace {
		fmt.Fprintf(os.Stderr, "E1M %7.3f "+format+"\n", append([]any{time.Since(xT0).Seconds()}, a...)...)
	}
}
