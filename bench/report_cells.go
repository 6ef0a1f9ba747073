package bench

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// nan marks a run that gave no figure.
var nan = math.NaN()

// seedRange is "1" or "1 / 2 / … / n", the seeds a cell lists.
func seedRange(n int) string {
	s := make([]string, n)
	for i := range s {
		s[i] = fmt.Sprint(i + 1)
	}
	return strings.Join(s, " / ")
}

// fmtD is a duration as the table headers write it ("10 s", "0.5 s").
func fmtD(d time.Duration) string {
	return fmt.Sprintf("%g s", d.Seconds())
}

// seedsCell is one figure per seed, in seed order, "a / b / c"; a run without a figure is "—".
func seedsCell(vals []float64, format string) string {
	if len(vals) == 0 {
		return "n/a"
	}
	s := make([]string, len(vals))
	for i, v := range vals {
		s[i] = "—"
		if !math.IsNaN(v) {
			s[i] = fmt.Sprintf(format, v)
		}
	}
	return strings.Join(s, " / ")
}

// spreadCell is the mean of vals with their range, "m (lo–hi)", or the one value; NaNs are left out.
func spreadCell(vals []float64, format string) string {
	var sum, lo, hi float64
	n := 0
	for _, v := range vals {
		if math.IsNaN(v) {
			continue
		}
		if n == 0 || v < lo {
			lo = v
		}
		if n == 0 || v > hi {
			hi = v
		}
		sum += v
		n++
	}
	switch n {
	case 0:
		return "n/a"
	case 1:
		return fmt.Sprintf(format, sum)
	}
	return fmt.Sprintf(format+" ("+format+"–"+format+")", sum/float64(n), lo, hi)
}
