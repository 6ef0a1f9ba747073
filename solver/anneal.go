package solver

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Anneal is a simulated annealing run's settings on either backend: the
// run's Params and the shared options the annealers take, read from them
// (0: not given). Schedule fills the schedule's defaults, so the same
// Params run the same schedule on the CPU and the GPU.
type Anneal struct {
	Params
	// Blocks is the number of parallel searches (PSPM's TB), Threads the
	// moves tried in parallel per search (PSPM's TPB), K the temperature
	// steps between global-best exchanges (Lam et al.'s Se).
	Blocks, Threads, K int
	// The schedule: T from T0 down to TEnd, multiplied by Alpha each step
	// of Sweeps (Lam et al.'s Sp) × N iterations.
	// T0 and TEnd are in the instance's units (Dist's); Unit is how many
	// of them make one of the file's own, which the options t0 and tend
	// are given in (1 for TSPLIB files, 10^ScaleExp for point lists).
	T0, TEnd, Alpha float64
	Sweeps          int
	Unit            float64
}

// PointTempScale multiplies the default t0 on a point list, and
// PointTEndScale the default tend. The defaults are Lam et al.'s for
// TSPLIB files, whose coordinates span about 10^3–10^4; a point list's
// are scaled to span 10^6–10^7, where those temperatures are too cold to
// anneal, and a schedule ending ten times warmer than t0's scale gives
// spends less of a fitted run below any useful temperature
// (docs/DECISIONS.md#point-temp-scale).
const (
	PointTempScale = 50
	PointTEndScale = 500
)

// tempUnits returns how many of in's units make one of the file's own,
// in which t0 and tend are given, and what the default t0 and tend are
// multiplied by: 1 for TSPLIB files and a nil instance, so those keep
// the papers' schedule exactly.
func tempUnits(in *Instance) (unit, t0Scale, tendScale float64) {
	if in == nil || in.Points == nil {
		return 1, 1, 1
	}
	return math.Pow10(in.ScaleExp), PointTempScale, PointTEndScale
}

// TempInFileUnits is t, a temperature in in's units (a Snapshot's), in
// the file's own, those of t0, tend and the schedule's report.
func TempInFileUnits(in *Instance, t float64) float64 {
	unit, _, _ := tempUnits(in)
	return t / unit
}

// DefaultTemps returns the default t0 and tend on in in the file's units:
// what `tsp engines FILE` and the app show.
func DefaultTemps(in *Instance) (t0, tend float64) {
	unit, k0, kEnd := tempUnits(in)
	return DefaultT0 * k0 / unit, DefaultTEnd * kEnd / unit
}

// readAnneal reads the annealers' shared options from p as r read them;
// a value that does not read reads as 0 (Validate reports it).
func readAnneal(p Params, r reading) Anneal {
	num := func(name string) float64 {
		if x := r[name]; p.sharedText(name) != "" && x.fail == readOK {
			return x.v
		}
		return 0
	}
	return Anneal{Params: p, Blocks: int(num("blocks")), Threads: int(num("threads")), K: int(num("k")),
		T0: num("t0"), TEnd: num("tend"), Alpha: num("alpha"), Sweeps: int(num("sweeps"))}
}

// AnnealOf reads an annealer's settings for a run on in from p with the
// schedule's defaults filled in and checked (Schedule); Blocks and
// Threads stay 0 where p does not give them, for the engine to choose.
func AnnealOf(in *Instance, p Params) (Anneal, error) {
	return Schedule(in, readAnneal(p, p.reading(sharedOptions)))
}

// Schedule returns a with the schedule's unset fields (t0, tend, alpha,
// sweeps, k) at their defaults, checked: each in its range, t0 above tend
// and at most MaxScheduleSteps temperature steps. a's T0 and TEnd are
// given in the file's units; the result's are in in's (Unit says how
// many make one of the file's), the defaults scaled to a point list.
func Schedule(in *Instance, a Anneal) (Anneal, error) {
	unit, k0, kEnd := tempUnits(in)
	given := a
	fields := []struct {
		o     Option
		f     *float64
		scale float64 // the default's on in (0: not a temperature)
	}{{optT0, &a.T0, k0}, {optTEnd, &a.TEnd, kEnd}, {optAlpha, &a.Alpha, 0}}
	for _, x := range fields {
		switch {
		case *x.f == 0:
			_, *x.f, _ = x.o.parse(x.o.Default)
			if x.scale > 0 {
				*x.f *= x.scale
			}
		case !x.o.inRange(*x.f):
			return a, &ParamError{Flag: x.o.Flag(), Value: fmtNum(*x.f), Range: x.o.Range() + " (0: default)"}
		case x.scale > 0:
			*x.f *= unit
		}
	}
	a.Unit = unit
	// in the file's units, for the messages below
	t0, tend := a.T0/unit, a.TEnd/unit
	if given.T0 != 0 {
		t0 = given.T0
	}
	if given.TEnd != 0 {
		tend = given.TEnd
	}
	if a.Sweeps == 0 {
		a.Sweeps = DefaultSweeps
	}
	if a.K == 0 {
		a.K = DefaultK
	}
	if a.T0 <= a.TEnd {
		return a, &ParamError{Flag: "--t0", Value: fmtNum(t0), Range: "> tend = " + fmtNum(tend), Why: "the schedule cools from t0 down to tend"}
	}
	if steps := ScheduleSteps(a); steps > MaxScheduleSteps {
		hi := math.Pow(a.TEnd/a.T0, 1.0/MaxScheduleSteps)
		return a, &ParamError{Flag: "--alpha", Value: fmtNum(a.Alpha), Range: fmt.Sprintf("0 < x <= %.9g", hi),
			Why: fmt.Sprintf("from t0 %s to tend %s the schedule would take %d temperature steps, at most %s", fmtNum(t0), fmtNum(tend), steps, fmtNum(MaxScheduleSteps))}
	}
	return a, nil
}

// ScheduleSteps is the number of temperature steps from T0 down to TEnd
// (T0, T0·α, … while above TEnd) of a schedule Schedule has accepted.
func ScheduleSteps(a Anneal) int {
	if a.T0 <= a.TEnd || !(a.Alpha > 0 && a.Alpha < 1) {
		return 1
	}
	s := math.Ceil(math.Log(a.TEnd/a.T0) / math.Log(a.Alpha))
	if s > math.MaxInt32 {
		return math.MaxInt32
	}
	return int(s)
}

// unit is a.Unit, 1 when unset.
func (a Anneal) unit() float64 {
	if a.Unit > 0 {
		return a.Unit
	}
	return 1
}

// Settings are the values the run of a used (Result.Settings), for each
// of the shared options engine e declares; t0 and tend in the file's
// units, as they are given.
func (a Anneal) Settings(e Engine) Settings {
	set := OptionsFor(e.Name(), e.Backend())
	has := func(name string) bool { _, ok := set.Lookup(name); return ok }
	var s Settings
	if has("blocks") {
		s.Blocks = a.Blocks
	}
	if has("threads") {
		s.Threads = a.Threads
	}
	if has("k") {
		s.K = a.K
	}
	if has("t0") {
		s.T0, s.TEnd = a.T0/a.unit(), a.TEnd/a.unit()
	}
	if has("alpha") {
		s.Alpha = a.Alpha
	}
	if has("sweeps") {
		s.Sweeps = a.Sweeps
	}
	return s
}

// ScheduleRun describes the annealing schedule a run followed: Lam et
// al.'s as given, or one fitted to the time limit.
type ScheduleRun struct {
	// Fitted is true when the cooling was fitted to the time limit
	// (false: the factor Alpha every step throughout).
	Fitted bool    `json:"fitted"`
	T0     float64 `json:"t0"`
	TEnd   float64 `json:"tend"`
	// LamAlpha is the factor of the schedule as given (option alpha).
	LamAlpha float64 `json:"alpha_given"`
	// Alpha0 and Alpha are the factors of the first and the last step
	// (both LamAlpha when not fitted).
	Alpha0 float64 `json:"alpha_first"`
	Alpha  float64 `json:"alpha_last"`
	// Steps are the temperature steps run, the probe included; TLast is
	// the temperature of the last.
	Steps int64   `json:"steps"`
	TLast float64 `json:"t_last"`
	// Sweeps are the iterations per step in multiples of the cities.
	Sweeps float64 `json:"sweeps"`
	// Descent is the time of the greedy descent the schedule ended in
	// (0: none ran).
	Descent time.Duration `json:"descent_ns"`
}

// String is the schedule in one line, as the CLI summary and the app show
// it: "fitted to the time limit: alpha 0.9971 → 0.9969 (given 0.99), 1,220
// steps of 10 sweeps, T 10000 → 0.1, descent 12ms".
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

// InFileUnits returns s with its temperatures in the file's units of in
// (t0 and tend as the options give them), s itself on TSPLIB files.
func (s *ScheduleRun) InFileUnits(in *Instance) *ScheduleRun {
	unit, _, _ := tempUnits(in)
	if s == nil || unit == 1 {
		return s
	}
	c := *s
	c.T0, c.TEnd, c.TLast = s.T0/unit, s.TEnd/unit, s.TLast/unit
	return &c
}
