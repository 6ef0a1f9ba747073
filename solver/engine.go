package solver

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

// Backends an engine runs on.
const (
	BackendCPU  = "cpu"
	BackendGPU  = "gpu"
	BackendAuto = "auto"
)

// Snapshot is a running engine's state at one moment; the receiver owns the slices.
type Snapshot struct {
	Tour        []int         // the current tour (nil if unchanged since the last snapshot)
	Length      int64         // its length
	Best        []int         // best tour so far (nil: none yet, or unchanged)
	BestLength  int64         // its length
	Temperature float64       // SA temperature, 0 for other methods
	Step        int64         // temperature steps, ILS kicks or passes done
	Progress    float64       // 0..1 of the schedule or time budget
	Moves       int64         // moves evaluated so far
	Elapsed     time.Duration // since the start of Solve
	// BestElapsed is when Best was found (0: at Elapsed), kept by Merge.
	BestElapsed time.Duration

	// Phase is the engine's part of the run ("": PhaseSearch); PhaseProgress its fraction done, negative when unknown.
	Phase         Phase
	PhaseProgress float64
	// Account is what the search did so far (nil: not said, or nothing new: Merge keeps the older).
	Account *Account
}

// Result is a run's outcome: the best tour, validated, its length recomputed exactly.
type Result struct {
	Tour      []int         // best tour, 0-based
	Length    int64         // exact length of Tour
	Moves     int64         // moves evaluated (solution space exploration)
	Steps     int64         // temperature steps, kicks or passes
	Elapsed   time.Duration // wall time of the search
	Device    string        // "cpu: 2 cores, AMD EPYC", "NVIDIA H100 (sm_90)"
	Algorithm string
	Backend   string
	Params    Params // the parameters used, defaults filled in
	// Limit is the time limit asked (0: none) and Granted the time the engine was given, less where the front end kept some.
	Limit, Granted time.Duration
	// Stopped: the run ended early (time limit, target or interrupt); StopReason says which.
	Stopped    bool
	StopReason StopReason
	// Schedule is the annealing schedule that ran (nil without one).
	Schedule *ScheduleRun
	// Account is what the search did, as typed figures (solver/report words them).
	Account Account
	// Stats are the figures code and tests read; Device names the hardware for people.
	Stats Stats
	// Settings are what the engine chose where the options left it the choice.
	Settings Settings
}

// MovesPerSecond is the solution space exploration speed (Lam et al., Eq. 4).
func (r Result) MovesPerSecond() float64 { return MovesPerSecond(r.Moves, r.Elapsed) }

// MovesPerSecond is moves evaluated per second of elapsed (0 with no time).
func MovesPerSecond(moves int64, elapsed time.Duration) float64 {
	if elapsed <= 0 {
		return 0
	}
	return float64(moves) / elapsed.Seconds()
}

// Engine is one algorithm on one backend.
type Engine interface {
	// Name is the algorithm's registry name ("pspm", "2opt-ils", ...).
	Name() string
	// Backend is BackendCPU or BackendGPU.
	Backend() string
	// Describe is a one-line description, at most MaxDescription characters.
	Describe() string
	// Available returns nil when the engine can run here, else why not.
	Available() error
	// Solve runs until the schedule ends, the limit passes, the target is reached or ctx ends, snapshots to snaps.
	Solve(ctx context.Context, in *Instance, p Params, snaps chan Snapshot) (Result, error)
}

// MaxDescription is the longest an engine's description may be: a line or two of a menu.
const MaxDescription = 300

var (
	regMu    sync.RWMutex
	registry = map[[2]string]Engine{}
)

// Register adds e; a later one of the same (name, backend) replaces it.
func Register(e Engine) {
	regMu.Lock()
	defer regMu.Unlock()
	registry[[2]string{e.Name(), e.Backend()}] = e
}

// Engines returns every registered engine, sorted by name then backend.
func Engines() []Engine {
	regMu.RLock()
	defer regMu.RUnlock()
	out := make([]Engine, 0, len(registry))
	for _, e := range registry {
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b Engine) int {
		return cmp.Or(strings.Compare(a.Name(), b.Name()), strings.Compare(a.Backend(), b.Backend()))
	})
	return out
}

// Algorithms returns the registered algorithm names, sorted, without duplicates.
func Algorithms() []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range Engines() {
		if !seen[e.Name()] {
			seen[e.Name()] = true
			out = append(out, e.Name())
		}
	}
	return out
}

// ErrUnknownEngine is returned by Lookup for an unregistered pair.
var ErrUnknownEngine = errors.New("unknown engine")

// Lookup returns the engine for (algorithm, backend) with backend "cpu" or "gpu".
func Lookup(algorithm, backend string) (Engine, error) {
	regMu.RLock()
	e, ok := registry[[2]string{algorithm, backend}]
	regMu.RUnlock()
	if !ok {
		if !slices.Contains(Algorithms(), algorithm) {
			return nil, &ParamError{Flag: "--algo", Value: algorithm, Range: "one of " + strings.Join(Algorithms(), ", "), Err: ErrUnknownEngine}
		}
		return nil, fmt.Errorf("%w: no %q engine for backend %q (have: %s)", ErrUnknownEngine, algorithm, backend, strings.Join(Algorithms(), ", "))
	}
	return e, nil
}

// Resolve picks the engine for an (algorithm, backend) choice: "auto" takes the available GPU engine, else the CPU's,
// note saying why; "gpu" fails when the GPU engine is unavailable.
func Resolve(algorithm, backend string) (e Engine, note string, err error) {
	if algorithm == "" {
		algorithm = "auto"
	}
	switch backend {
	case BackendCPU, BackendGPU:
		e, err = Lookup(algorithm, backend)
		if err != nil {
			return nil, "", err
		}
		if aerr := e.Available(); aerr != nil {
			return nil, "", fmt.Errorf("%s on %s is not available: %w", algorithm, backend, aerr)
		}
		return e, "", nil
	case BackendAuto, "":
		note = fmt.Sprintf("no GPU engine for %s; running it on the CPU", algorithm)
		if g, gerr := Lookup(algorithm, BackendGPU); gerr == nil {
			aerr := g.Available()
			if aerr == nil {
				return g, "", nil
			}
			note = fmt.Sprintf("GPU not used (%v); running %s on the CPU", aerr, algorithm)
		}
		c, cerr := Lookup(algorithm, BackendCPU)
		if cerr != nil {
			return nil, "", cerr
		}
		return c, note, nil
	}
	return nil, "", &ParamError{Flag: "--backend", Value: backend, Range: "one of cpu, gpu, auto"}
}

// Outcome is what an engine hands Finish at the end of a run.
type Outcome struct {
	Tour  []int // the best tour found, 0-based
	Moves int64 // moves evaluated
	Steps int64 // temperature steps, kicks or passes
	// Start is when Solve began: Result.Elapsed runs from it.
	Start time.Time
	// Stopped: the engine ended before its schedule.
	Stopped bool
	// Reason, when set, is why it stopped, where the engine knows better than its end time
	Reason  StopReason
	Device  string  // Result.Device: the device only
	Account Account // Result.Account: what the search did
	// Settings is Result.Settings: what the engine chose for the run.
	Settings Settings
}

// Finish validates o.Tour, recomputes its length exactly and fills every engine's Result.
func Finish(in *Instance, e Engine, p Params, o Outcome) (Result, error) {
	if err := ValidateTour(o.Tour, in.N); err != nil {
		return Result{StopReason: StopError}, fmt.Errorf("%s/%s produced an invalid tour: %v", e.Name(), e.Backend(), err)
	}
	if err := in.CheckFixedEdges(o.Tour); err != nil {
		return Result{StopReason: StopError}, fmt.Errorf("%s/%s: %v", e.Name(), e.Backend(), err)
	}
	length := TourLength(in, o.Tour)
	elapsed := time.Since(o.Start)
	reason := stopReason(p, length, o.Stopped)
	if o.Reason != "" && reason != StopTarget {
		reason = o.Reason
	}
	return Result{
		Tour:       append([]int(nil), o.Tour...),
		Length:     length,
		Moves:      o.Moves,
		Steps:      o.Steps,
		Elapsed:    elapsed,
		Device:     o.Device,
		Account:    o.Account,
		Settings:   o.Settings,
		Algorithm:  e.Name(),
		Backend:    e.Backend(),
		Params:     p,
		Stopped:    reason.Early(),
		StopReason: reason,
	}, nil
}
