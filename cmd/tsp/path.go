package main

import (
	"fmt"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/report"
	"github.com/tsplab/tsplab/solver/route"
	"github.com/tsplab/tsplab/solver/session"
)

// solveRoute is a solve's route.Route with the instance the engine runs on and the outputs adjusted to the file's instance.
type solveRoute struct {
	*route.Route
	in *solver.Instance // the instance the engine runs on
}

// newRoute makes the flags' route on in for e, p.Start made a tour of the engine's instance.
func (f *routeFlags) newRoute(in *solver.Instance, e solver.Engine, p *solver.Params) (*solveRoute, error) {
	if f.open && f.ends != "" {
		return nil, usagef("solve", "--open and --ends: a path with both ends free, or one from A to B; give one of them")
	}
	a, b := -1, -1
	if f.ends != "" {
		var err error
		if a, b, err = route.ParseEnds(f.ends, in); err != nil {
			return nil, usagef("solve", "--ends %v", err)
		}
	}
	rt, err := route.New(in, e, f.open, a, b)
	if err != nil {
		if f.open {
			return nil, fmt.Errorf("--open: %v", err)
		}
		return nil, fmt.Errorf("--ends: %v", err)
	}
	p.Start = rt.Start(p.Start)
	return &solveRoute{Route: rt, in: rt.In}, nil
}

// adjust drops the bound of a path run (a tour's bound is no path's) and has progress show the path's length.
func (rt *solveRoute) adjust(o *outputs) {
	if rt.A >= 0 {
		o.alongside, o.bound = false, 0
		o.pathLength = rt.Length
	}
}

// finish turns the engine's tour into the route's, the plan and report those of the instance read.
func (rt *solveRoute) finish(plan *session.Plan, out session.Outcome) (session.Outcome, error) {
	if !rt.IsPath() {
		return out, nil
	}
	res, err := rt.Finish(out.Result)
	if err != nil {
		return out, fmt.Errorf("%s/%s: %v", plan.Engine.Name(), plan.Engine.Backend(), err)
	}
	in := *rt.Orig
	in.Optimum, in.OptimumSource = 0, "" // the optimum is a tour's
	plan.In = &in
	if !rt.Open {
		out.Bound = nil
	}
	out.Result = res
	out.Report = report.New(&in, res)
	session.RecordBound(&out.Report, &in, out.Bound)
	return out, nil
}
