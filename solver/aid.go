package solver

import (
	"context"
	"time"
)

// Aid is what an engine is handed beside its parameters by whoever runs
// it inside something larger: the run pipeline (the ascents it shares
// with the lower bound) or an engine that composes it (GPU auto).
type Aid struct {
	// FirstTour, when not nil, is closed once the engine's start tour is
	// ready and its search begins.
	FirstTour chan<- struct{}
	// Device, when not nil, opens the accelerator that the Held–Karp
	// ascent behind alpha-nearness lists runs on (nil: the cores).
	Device OpenAscentDevice
	// Ascents, when not nil, runs the engine's ascents, sharing one with
	// the lower bound the pipeline computes beside the run (nil: the
	// engine runs its own).
	Ascents Ascents
	// Paths, when not nil, improves a stretch of the tour beside the
	// workers of a partition search (an accelerator's search: GPU auto
	// hands its windows); nil: the workers take every segment.
	Paths PathImprover
	// Pool, when not nil, opens a TourPool on the accelerator for a
	// population search (GPU auto hands its device's); nil: the cores alone.
	Pool OpenTourPool
	// PathShare is the workers' worth of the tour Paths starts with in a
	// partition search (0: the search's default); the share then follows
	// the gain per city and second of Paths against the workers'.
	PathShare float64
}

// PathImprover improves paths with fixed ends, the stretches of one tour
// that a partition search leaves to it: the stretches of the improver
// and of the workers are disjoint, so the tour written back stays one
// cycle.
type PathImprover interface {
	// ImprovePath searches until until (or ctx's end) for a shorter path
	// through the cities of path (cities of in, in path order) between
	// the same first and last city, and writes it into path when it finds
	// one; it returns the gain (the old length minus the new, never
	// negative). The caller checks the path it gets back.
	ImprovePath(ctx context.Context, in *Instance, path []int32, until time.Time) (int64, error)
}

// Aided is an engine that takes an Aid: the pipeline hands it the shared
// ascents, and an engine that composes it (GPU auto around CPU auto)
// runs it through SolveAided.
type Aided interface {
	Engine
	// SolveAided is Solve with aid.
	SolveAided(ctx context.Context, in *Instance, p Params, snaps chan Snapshot, aid Aid) (Result, error)
}

// SolveWith runs e with aid when e takes one, else e.Solve.
func SolveWith(ctx context.Context, e Engine, in *Instance, p Params, snaps chan Snapshot, aid Aid) (Result, error) {
	if a, ok := e.(Aided); ok {
		return a.SolveAided(ctx, in, p, snaps, aid)
	}
	return e.Solve(ctx, in, p, snaps)
}

// Ascents runs Held–Karp ascents for the engines of one pipeline: a
// request for the ascent another caller runs (the lower bound beside the
// run) waits for that one, and the last whole ascent is kept for the next
// request (solver/bound's Ascents).
type Ascents interface {
	// Alpha returns k alpha-nearness candidates per city of in from the
	// ascent opts asks for, waiting for the same one under way or kept,
	// else running it, within opts.Time (0: none): an error wrapping
	// context.DeadlineExceeded when there was none in time.
	Alpha(ctx context.Context, in *Instance, k int, opts AscentOptions) (AlphaLists, error)
	// Underway reports whether Alpha for in with opts would be answered
	// by an ascent another caller started rather than run by the caller.
	Underway(in *Instance, opts AscentOptions) bool
}

// AscentOptions are what an engine asks of an ascent.
type AscentOptions struct {
	// Time bounds the wait and the ascent (0: none).
	Time time.Duration
	// Device opens the accelerator the ascent runs on (nil: the cores).
	Device OpenAscentDevice
}

// AlphaLists are K alpha-nearness candidates per city, row-major as
// neighbor.Lists keeps them, with the figures of the ascent behind them
// (Stats' ascent fields).
type AlphaLists struct {
	K     int
	List  []int32
	Stats Stats
}

// AscentHost is implemented by engines that run on an accelerator the
// Held–Karp ascent runs on too: the pipeline puts the lower bound of
// their runs there.
type AscentHost interface {
	// AscentDevice opens the accelerator for the ascent.
	AscentDevice() OpenAscentDevice
}

// OpenAscentDevice opens an accelerator for the Held–Karp ascent.
type OpenAscentDevice func() (AscentDevice, error)

// AscentDevice runs the Held–Karp ascent's arithmetic on an accelerator
// that keeps the graph, penalties, last subgradient and degrees, so that
// an iteration moves a few numbers; the schedule stays with the caller
// (solver/bound). Weights and penalties are in units of 1/bound.Precision.
type AscentDevice interface {
	// Start takes the graph, sets all penalties to zero and computes the
	// first 1-tree: its weight minus 2·Σπ and its norm Σ(d_i − 2)².
	Start(g AscentGraph) (w, norm int64, err error)
	// Step adds t·(7·v + 3·v_last)/10 (integer division, truncated) to
	// the penalty of every city whose degree excess v = d − 2 is not zero,
	// remembers v as v_last for every city, and computes the next 1-tree.
	Step(t int64) (w, norm int64, err error)
	// KeepBest records the current penalties as the best.
	KeepBest() error
	// Best copies the best penalties into pi.
	Best(pi []int64) error
	// Close frees the device's resources.
	Close() error
}

// AscentGraph is the candidate graph handed to an AscentDevice, in
// compressed rows: the neighbours of city i are Adj[Off[i]:Off[i+1]],
// ascending, at TSPLIB distance Dist[e]; Rev[e] is the index of the
// reverse of edge e. It holds a spanning tree, so every minimum 1-tree of
// it exists.
type AscentGraph struct {
	Off, Adj, Dist, Rev []int32
}
