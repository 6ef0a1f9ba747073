package solver

import (
	"context"
	"time"
)

// Aid is what an engine is handed beside its parameters by whoever runs it inside something larger.
type Aid struct {
	// FirstTour, when not nil, is closed once the start tour is ready.
	FirstTour chan<- struct{}
	// Device, when not nil, opens the accelerator for the alpha lists' ascent.
	Device OpenAscentDevice
	// Ascents, when not nil, runs the engine's ascents, sharing one with the pipeline's lower bound.
	Ascents Ascents
	// Paths, when not nil, improves a stretch of the tour beside a partition search's workers.
	Paths PathImprover
	// Pool, when not nil, opens a TourPool for a population search.
	Pool OpenTourPool
	// PathShare is the workers' worth of the tour Paths starts with (0: the default), then following the gains.
	PathShare float64
}

// PathImprover improves paths with fixed ends, stretches of one tour disjoint from the workers', so the tour stays one cycle.
type PathImprover interface {
	// ImprovePath searches until until (or ctx's end) for a shorter path through path's cities between the same ends,
	// writes it into path and returns the gain (never negative); the caller checks the path.
	ImprovePath(ctx context.Context, in *Instance, path []int32, until time.Time) (int64, error)
}

// Aided is an engine that takes an Aid, from the pipeline or from an engine composing it (SolveAided).
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

// Ascents runs a pipeline's Held–Karp ascents: a request for one under way waits for it, and the last whole one is kept.
type Ascents interface {
	// Alpha returns k alpha-nearness candidates per city of in from the ascent opts asks for, waiting for the same one or
	// running it within opts.Time (0: none; late: an error wrapping context.DeadlineExceeded).
	Alpha(ctx context.Context, in *Instance, k int, opts AscentOptions) (AlphaLists, error)
	// Underway reports whether Alpha for in with opts would be answered by another's ascent.
	Underway(in *Instance, opts AscentOptions) bool
}

// AscentOptions are what an engine asks of an ascent.
type AscentOptions struct {
	// Time bounds the wait and the ascent (0: none).
	Time time.Duration
	// Device opens the accelerator the ascent runs on (nil: the cores).
	Device OpenAscentDevice
}

// AlphaLists are K alpha-nearness candidates per city, row-major, each row ranked by alpha-nearness as
// bound.Result.AlphaCandidates lists it (not nearest first), with the ascent's figures.
type AlphaLists struct {
	K     int
	List  []int32
	Stats Stats
}

// AscentHost is an engine on an accelerator the ascent runs on too, where the pipeline puts its runs' lower bound.
type AscentHost interface {
	// AscentDevice opens the accelerator for the ascent.
	AscentDevice() OpenAscentDevice
}

// OpenAscentDevice opens an accelerator for the Held–Karp ascent.
type OpenAscentDevice func() (AscentDevice, error)

// AscentDevice runs the ascent's arithmetic on an accelerator that keeps the graph, penalties and degrees; the schedule
// stays with the caller (solver/bound). Units: 1/bound.Precision.
type AscentDevice interface {
	// Start takes the graph, sets all penalties to zero and computes the
	// first 1-tree: its weight minus 2·Σπ and its norm Σ(d_i − 2)².
	Start(g AscentGraph) (w, norm int64, err error)
	// Step adds t·(7·v + 3·v_last)/10 (truncated) to each city's penalty with degree excess v = d − 2 ≠ 0, keeps v as
	// v_last and computes the next 1-tree.
	Step(t int64) (w, norm int64, err error)
	// KeepBest records the current penalties as the best.
	KeepBest() error
	// Best copies the best penalties into pi.
	Best(pi []int64) error
	// Close frees the device's resources.
	Close() error
}

// AscentGraph is the candidate graph in compressed rows: city i's neighbours Adj[Off[i]:Off[i+1]] ascending at Dist[e],
// Rev[e] the reverse edge's index. It holds a spanning tree.
type AscentGraph struct {
	Off, Adj, Dist, Rev []int32
}
