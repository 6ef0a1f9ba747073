package solver

import (
	"fmt"
	"math"
)

// Anneal is an annealing run's settings on either backend: its Params and the shared options read from them (0: not given),
// so the same Params run the same schedule on the CPU and the GPU.
type Anneal struct {
	Params
	// Blocks (PSPM's TB), Threads (TPB) and K, the steps between global-best exchanges (Lam et al.'s Se).
	Blocks, Threads, K int
	// The schedule: T from T0 to TEnd, times Alpha each step of Sweeps (Sp) × N iterations, in the instance's units;
	// Unit of them make one of the file's, in which t0 and tend are given.
	T0, TEnd, Alpha float64
	Sweeps          int
	Unit            float64
}

// DefaultTemps returns the default t0 and tend on in in the file's units.
func DefaultTemps(in *Instance) (t0, tend float64) {
	unit, k0, kEnd := tempUnits(in)
	return DefaultT0 * k0 / unit, DefaultTEnd * kEnd / unit
}

// readAnneal reads the annealers' shared options from p as r read them.
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

// AnnealOf reads an annealer's settings for a run on in from p, the schedule filled in
// and checked (Blocks, Threads: 0 where not given).
func AnnealOf(in *Instance, p Params) (Anneal, error) {
	return fillSchedule(in, readAnneal(p, p.reading(sharedOptions)))
}

// fillSchedule returns a with the schedule's unset fields at their defaults, checked (t0 above tend, at most
// MaxScheduleSteps steps); T0 and TEnd go from the file's units to in's.
func fillSchedule(in *Instance, a Anneal) (Anneal, error) {
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

// ScheduleSteps is the temperature steps from T0 down to TEnd.
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

// Settings are the values the run of a used for each shared option e declares (t0, tend in the file's units).
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
