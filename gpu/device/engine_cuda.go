//go:build cuda

package device

import (
	"context"
	"fmt"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// Impl is a GPU engine's body in a CUDA build: one of Solve, Aided and Multi, and optionally Tune (empty without CUDA).
type Impl struct {
	Solve SolveFunc
	Aided AidedSolveFunc
	Multi MultiSolveFunc
	// Tune sets the defaults depending on the instance and device, the run open.
	Tune func(t *Tuning, in *solver.Instance)
	// Inherit fills the defaults of the engine an engine runs (GPU auto's of CPU auto).
	Inherit func(in *solver.Instance, opts solver.OptionSet) solver.OptionSet
	// Plan says a run's strategy (solver.Planner; nil: the options decide).
	Plan func(in *solver.Instance) string
	// Limit is a run's default time limit without OptGPUs (nil: the engine ends by itself).
	Limit func(in *solver.Instance, p solver.Params) time.Duration
	// AnyInstance: the body takes the instances the kernels cannot (under
	// 5 cities, no coordinates), running on the cores alone there.
	AnyInstance bool
}

// DefaultLimit is the implementation's default limit (Impl.Limit; 0: none).
func (e engine) DefaultLimit(in *solver.Instance, p solver.Params) time.Duration {
	if f := e.impl.Limit; f != nil {
		return f(in, WithoutGPUs(p))
	}
	return 0
}

// FirstGPUOnly reports whether GPU engine e runs on the first context selected only (device 0 must come first).
func FirstGPUOnly(e solver.Engine) bool {
	g, ok := e.(engine)
	return ok && g.impl.Multi == nil
}

// AlwaysDefault is Impl.Limit of engines always on solver.DefaultTimeLimit.
func AlwaysDefault(*solver.Instance, solver.Params) time.Duration {
	return solver.DefaultTimeLimit
}

// SolveAided is Solve passing aid to composing engines (GPU auto).
func (e engine) SolveAided(ctx context.Context, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot, aid solver.Aid) (solver.Result, error) {
	if err := Available(); err != nil {
		return solver.Result{}, err
	}
	if in == nil || in.N < 5 && !e.impl.AnyInstance {
		return solver.Result{}, fmt.Errorf("%w: the GPU engines need at least 5 cities", ErrUnsupported)
	}
	// The same settings are refused alike on both backends; params the pipeline prepared are not checked again.
	if err := solver.Check(e, in, p); err != nil {
		return solver.Result{}, err
	}
	if err := solver.CheckDevice(e, in, p); err != nil {
		return solver.Result{}, err
	}
	if !e.anyMetric && !e.impl.AnyInstance {
		if _, err := MetricCode(in); err != nil {
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
	p = WithoutGPUs(p)
	impl := e.impl
	if impl.Multi != nil {
		return impl.Multi(ctx, e, in, p, snaps, sel)
	}
	if given && len(sel) > 0 && sel[0] != (DevSlot{}) {
		return solver.Result{}, fmt.Errorf("%w: %s runs on GPU 0 alone; --opt %s must name device 0 first", ErrUnsupported, e.name, OptGPUs)
	}
	var res solver.Result
	switch {
	case impl.Aided != nil:
		res, err = impl.Aided(context.WithValue(ctx, selKey{}, sel), e, in, p, snaps, aid)
	case impl.Solve != nil:
		res, err = impl.Solve(ctx, e, in, p, snaps)
	default:
		return solver.Result{}, fmt.Errorf("gpu: engine %s has no implementation in this build", e.name)
	}
	if err == nil && len(sel) > 1 {
		g := res.Account.GPUPart()
		g.Contexts, g.Selected = max(g.Contexts, 1), len(sel)
	}
	return res, err
}
