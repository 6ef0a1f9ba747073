package solver

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// PointTempScale and PointTEndScale multiply the default t0 and tend on a point list, scaled far above TSPLIB's
// (docs/DECISIONS.md#point-temp-scale).
const (
	PointTempScale = 50
	PointTEndScale = 500
)

// tempUnits returns in's units per file unit (t0 and tend's) and the default temperatures' multipliers (1 for TSPLIB).
func tempUnits(in *Instance) (unit, t0Scale, tendScale float64) {
	if in == nil || in.Points == nil {
		return 1, 1, 1
	}
	return math.Pow10(in.ScaleExp), PointTempScale, PointTEndScale
}

// TempInFileUnits is t, a temperature in in's units, in the file's.
func TempInFileUnits(in *Instance, t float64) float64 {
	unit, _, _ := tempUnits(in)
	return t / unit
}

// ScheduleRun describes the annealing schedule a run followed.
type ScheduleRun struct {
	// Fitted: the cooling was fitted to the time limit.
	Fitted bool    `json:"fitted"`
	T0     float64 `json:"t0"`
	TEnd   float64 `json:"tend"`
	// LamAlpha is the factor of the schedule as given (option alpha).
	LamAlpha float64 `json:"alpha_given"`
	// Alpha0 and Alpha are the first and last steps' factors.
	Alpha0 float64 `json:"alpha_first"`
	Alpha  float64 `json:"alpha_last"`
	// Steps are the temperature steps run, probe included; TLast the last temperature.
	Steps int64   `json:"steps"`
	TLast float64 `json:"t_last"`
	// Sweeps are the iterations per step in multiples of the cities.
	Sweeps float64 `json:"sweeps"`
	// Descent is the final greedy descent's time (0: none).
	Descent time.Duration `json:"descent_ns"`
}

// String is the schedule in one line: "fitted to the time limit: alpha 0.9971 → 0.9969 (given
// 0.99), 1,220 steps of 10 sweeps, T 10000 → 0.1, descent 12ms".
func (s *ScheduleRun) String() string {
	if s == nil {
		return ""
	}
	var b strings.Builder
	if s.Fitted {
		fmt.Fprintf(&b, "fitted to the time limit: alpha %.5g → %.5g (given %.4g)", s.Alpha0, s.Alpha, s.LamAlpha)
	} else {
		fmt.Fprintf(&b, "as given: alpha %.4g", s.LamAlpha)
	}
	fmt.Fprintf(&b, ", %s steps of %.3g sweeps, T %.4g → %.4g", GroupDigits(strconv.FormatInt(s.Steps, 10)), s.Sweeps, s.T0, s.TLast)
	if s.Descent > 0 {
		fmt.Fprintf(&b, ", descent %v", s.Descent.Round(time.Millisecond/10))
	}
	return b.String()
}

// InFileUnits returns s with its temperatures in in's file units.
func (s *ScheduleRun) InFileUnits(in *Instance) *ScheduleRun {
	unit, _, _ := tempUnits(in)
	if s == nil || unit == 1 {
		return s
	}
	c := *s
	c.T0, c.TEnd, c.TLast = s.T0/unit, s.TEnd/unit, s.TLast/unit
	return &c
}
