package solver

// StopReason says why a run ended.
type StopReason string

// The reasons a run ends.
const (
	// StopDone: the engine's schedule ended or its search converged.
	StopDone StopReason = "done"
	// StopTime: the time limit (given, the engine's default or ctx's deadline) passed.
	StopTime StopReason = "time"
	// StopTarget: a tour of at most Params.Target was found.
	StopTarget StopReason = "target"
	// StopOptimum: a tour of the known optimal length was found.
	StopOptimum StopReason = "optimum"
	// StopInterrupt: the caller cancelled the context (Ctrl-C, Stop, Pause).
	StopInterrupt StopReason = "interrupt"
	// StopError: the engine failed; Result holds no tour.
	StopError StopReason = "error"
)

// Early reports whether the run ended before its schedule: time, target or interrupt.
func (r StopReason) Early() bool {
	return r == StopTime || r == StopTarget || r == StopOptimum || r == StopInterrupt
}

// Describe is the phrase a summary line uses ("time limit reached").
func (r StopReason) Describe() string {
	switch r {
	case StopDone:
		return "schedule done"
	case StopTime:
		return "time limit reached"
	case StopTarget:
		return "target reached"
	case StopOptimum:
		return "optimum reached"
	case StopInterrupt:
		return "interrupted"
	case StopError:
		return "failed"
	}
	return "stopped"
}

// stopReason classifies a finished run by its target and whether it stopped early (RunAided refines by the cause).
func stopReason(p Params, length int64, stopped bool) StopReason {
	switch {
	case p.Target > 0 && length <= p.Target:
		return StopTarget
	case !stopped:
		return StopDone
	}
	return StopInterrupt
}
