package solver

import (
	"fmt"
	"math"
	"strconv"
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
	T0, TEnd, Alpha float64
	Sweeps          int
}

// readAnneal reads the annealers' shared options from p; a value that does
// not parse reads as 0 (Validate reports it).
func readAnneal(p Params) Anneal {
	num := func(name string) float64 {
		v, _ := strconv.ParseFloat(p.sharedText(name), 64)
		return v
	}
	return Anneal{Params: p, Blocks: int(num("blocks")), Threads: int(num("threads")), K: int(num("k")),
		T0: num("t0"), TEnd: num("tend"), Alpha: num("alpha"), Sweeps: int(num("sweeps"))}
}

// AnnealOf reads an annealer's settings from p with the schedule's
// defaults filled in and checked (Schedule); Blocks and Threads stay 0
// where p does not give them, for the engine to choose.
func AnnealOf(p Params) (Anneal, error) { return Schedule(readAnneal(p)) }

// Schedule returns a with the schedule's unset fields (t0, tend, alpha,
// sweeps, k) at their defaults, checked: each in its range, t0 above tend
// and at most MaxScheduleSteps temperature steps.
func Schedule(a Anneal) (Anneal, error) {
	fields := []struct {
		o Option
		f *float64
	}{{optT0, &a.T0}, {optTEnd, &a.TEnd}, {optAlpha, &a.Alpha}}
	for _, x := range fields {
		if *x.f == 0 {
			_, *x.f, _ = x.o.parse(x.o.Default)
		} else if !x.o.inRange(*x.f) {
			return a, &ParamError{Flag: x.o.Flag(), Value: fmtNum(*x.f), Range: x.o.Range() + " (0: default)"}
		}
	}
	if a.Sweeps == 0 {
		a.Sweeps = DefaultSweeps
	}
	if a.K == 0 {
		a.K = DefaultK
	}
	if a.T0 <= a.TEnd {
		return a, &ParamError{Flag: "--t0", Value: fmtNum(a.T0), Range: "> tend = " + fmtNum(a.TEnd), Why: "the schedule cools from t0 down to tend"}
	}
	if steps := ScheduleSteps(a); steps > MaxScheduleSteps {
		hi := math.Pow(a.TEnd/a.T0, 1.0/MaxScheduleSteps)
		return a, &ParamError{Flag: "--alpha", Value: fmtNum(a.Alpha), Range: fmt.Sprintf("0 < x <= %.9g", hi),
			Why: fmt.Sprintf("from t0 %s to tend %s the schedule would take %d temperature steps, at most %s", fmtNum(a.T0), fmtNum(a.TEnd), steps, fmtNum(MaxScheduleSteps))}
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

// Report returns a's Params with the values the run used written into
// Params.Extra, for each of the shared options engine e declares: what
// Result.Params shows, and what reruns the same run.
func (a Anneal) Report(e Engine) Params {
	set := OptionsFor(e.Name(), e.Backend())
	vals := map[string]string{"blocks": strconv.Itoa(a.Blocks), "threads": strconv.Itoa(a.Threads), "k": strconv.Itoa(a.K),
		"t0": fmtNum(a.T0), "tend": fmtNum(a.TEnd), "alpha": fmtNum(a.Alpha), "sweeps": strconv.Itoa(a.Sweeps)}
	p := a.Params
	for name, v := range vals {
		if _, ok := set.Lookup(name); ok && v != "0" {
			p = p.WithExtra(name, v)
		}
	}
	return p
}
