package gpu

import (
	"context"
	"fmt"

	"github.com/tsplab/tsplab/solver"
)

// engine is a GPU engine: a row of the algorithm table. In a build without
// CUDA it is unavailable (ErrNotBuilt) and Solve says so; with CUDA, Solve
// checks what every GPU engine needs and runs the row's solve function.
type engine struct{ algorithm }

var (
	_ solver.Aided      = engine{}
	_ solver.AscentHost = engine{}
)

// AscentDevice opens the GPU for the Held–Karp ascent: the run pipeline
// computes a GPU run's lower bound there.
func (engine) AscentDevice() solver.OpenAscentDevice { return BoundDevice }

// solveFunc is the body of one GPU engine; e is the engine itself (for
// solver.Finish), p the caller's parameters.
type solveFunc func(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot) (solver.Result, error)

// aidedSolveFunc is the body of a GPU engine that takes a solver.Aid.
type aidedSolveFunc func(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot, aid solver.Aid) (solver.Result, error)

// multiSolveFunc is the body of a GPU engine that splits its searches over
// the contexts sel (OptGPUs), p without OptGPUs.
type multiSolveFunc func(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot, sel []devSlot) (solver.Result, error)

// Name returns the algorithm's registry name.
func (e engine) Name() string { return e.name }

// Backend returns solver.BackendGPU.
func (engine) Backend() string { return solver.BackendGPU }

// Describe returns the one-line description.
func (e engine) Describe() string { return e.desc }

// Available reports whether a CUDA device can run the kernels: nil, or an
// error (ErrNotBuilt, or wrapping ErrNoDriver or ErrNoDevice) that says
// what is missing.
func (engine) Available() error { return available() }

// Solve runs the engine on the GPU (see the package documentation). An
// instance the engine cannot take gets an error wrapping ErrUnsupported.
func (e engine) Solve(ctx context.Context, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot) (solver.Result, error) {
	return e.SolveAided(ctx, in, p, snaps, solver.Aid{})
}

// SolveAided is Solve with aid, which the engines that compose others
// (GPU auto) pass on; the others run as Solve does.
func (e engine) SolveAided(ctx context.Context, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot, aid solver.Aid) (solver.Result, error) {
	if err := available(); err != nil {
		return solver.Result{}, err
	}
	if in == nil || in.N < 5 {
		return solver.Result{}, fmt.Errorf("%w: the GPU engines need at least 5 cities", ErrUnsupported)
	}
	// The same settings are refused with the same message on both
	// backends; params the pipeline prepared for this engine are not
	// checked again.
	if err := solver.Check(e, in, p); err != nil {
		return solver.Result{}, err
	}
	if !e.anyMetric {
		if _, err := metricCode(in); err != nil {
			return solver.Result{}, err
		}
	}
	if p.Start != nil {
		if err := solver.ValidateTour(p.Start, in.N); err != nil {
			return solver.Result{}, fmt.Errorf("start tour: %v", err)
		}
	}
	given := p.Given(OptGPUs)
	sel, err := selectDevices(p)
	if err != nil {
		return solver.Result{}, err
	}
	p = withoutGPUs(p)
	if solve := multiSolvers[e.name]; solve != nil {
		return solve(ctx, e, in, p, snaps, sel)
	}
	if given && len(sel) > 0 && sel[0] != (devSlot{}) {
		return solver.Result{}, fmt.Errorf("%w: %s runs on GPU 0 alone; --opt %s must name device 0 first", ErrUnsupported, e.name, OptGPUs)
	}
	var res solver.Result
	if solve := aidedSolvers[e.name]; solve != nil {
		res, err = solve(ctx, e, in, p, snaps, aid)
	} else if solve := solvers[e.name]; solve != nil {
		res, err = solve(ctx, e, in, p, snaps)
	} else {
		return solver.Result{}, fmt.Errorf("gpu: engine %s has no implementation in this build", e.name)
	}
	if err == nil && len(sel) > 1 {
		res.Note = joinNote(res.Note, fmt.Sprintf("%s ran on GPU 0 alone: it does not split its searches over the %d GPU contexts selected", e.name, len(sel)))
	}
	return res, err
}

func init() {
	for _, a := range algorithms {
		solver.Register(engine{a})
	}
}
