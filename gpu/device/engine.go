package device

import (
	"context"

	"github.com/tsplab/tsplab/solver"
)

// engine is a GPU engine: one registered algorithm and its body (ErrNotBuilt without CUDA).
type engine struct {
	algorithm
	impl *Impl
}

var (
	_ solver.Aided          = engine{}
	_ solver.AscentHost     = engine{}
	_ solver.DefaultLimiter = engine{}
)

// algorithm is a GPU engine's name, description and what it takes.
type algorithm struct {
	name, desc string
	// anyMetric: the engine also takes other metrics through a distance matrix
	anyMetric bool
	// keepsFixed: the engine's tours keep the instance's fixed edges
	keepsFixed bool
}

// NewEngine returns GPU engine name with its description and body, in both builds, for solver.Register (or lab.Register);
// anyMetric: it takes other metrics through a distance matrix.
func NewEngine(name, desc string, anyMetric bool, impl Impl) solver.Engine {
	return engine{algorithm{name: name, desc: desc, anyMetric: anyMetric}, &impl}
}

// NewKeeping is NewEngine for an engine that keeps fixed edges, on coordinate metrics.
func NewKeeping(name, desc string, impl Impl) solver.Engine {
	return engine{algorithm{name: name, desc: desc, keepsFixed: true}, &impl}
}

// SolveFunc is one GPU engine's body; e is the engine (for solver.Finish).
type SolveFunc func(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot) (solver.Result, error)

// AidedSolveFunc is the body of a GPU engine that takes a solver.Aid.
type AidedSolveFunc func(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot, aid solver.Aid) (solver.Result, error)

// MultiSolveFunc is a body splitting its searches over contexts sel, p without OptGPUs.
type MultiSolveFunc func(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot, sel []DevSlot) (solver.Result, error)

// Ascent opens the GPU for the Held–Karp ascent, where the pipeline computes a GPU run's lower bound.
var Ascent solver.OpenAscentDevice

// AscentDevice returns Ascent.
func (engine) AscentDevice() solver.OpenAscentDevice { return Ascent }

// Name returns the algorithm's registry name.
func (e engine) Name() string { return e.name }

// Backend returns solver.BackendGPU.
func (engine) Backend() string { return solver.BackendGPU }

// Describe returns the one-line description.
func (e engine) Describe() string { return e.desc }

// KeepsFixedEdges reports whether the engine keeps fixed edges.
func (e engine) KeepsFixedEdges() bool { return e.keepsFixed }

// Available reports whether a CUDA device can run the kernels (nil, or an error saying what is missing).
func (engine) Available() error { return Available() }

// Solve runs the engine on the GPU; an instance it cannot take wraps ErrUnsupported.
func (e engine) Solve(ctx context.Context, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot) (solver.Result, error) {
	return e.SolveAided(ctx, in, p, snaps, solver.Aid{})
}
