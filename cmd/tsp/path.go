package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/session"
)

// route is how a solve's instance becomes the instance an engine runs on
// and its tour the route the user asked for: the tour itself, an open
// path (a tour through one more city at distance 0 from all), or a path
// between two ends (a tour with the edge between them fixed, then
// dropped).
type route struct {
	orig *solver.Instance // the instance read
	in   *solver.Instance // the instance the engine runs on
	open bool
	a, b int // the ends (0-based), -1 when free
}

// isPath reports whether the route is a path rather than a tour.
func (rt *route) isPath() bool { return rt.open || rt.a >= 0 }

// parseEnds reads --ends A,B: two ids of in's cities (TSPLIB's 1..N, or a
// point list's own).
func parseEnds(s string, in *solver.Instance) (a, b int, err error) {
	as, bs, ok := strings.Cut(s, ",")
	if !ok {
		return 0, 0, fmt.Errorf("--ends %q: want two city ids A,B", s)
	}
	city := func(f string) (int, error) {
		id, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("--ends %q: %q is not a city id", s, f)
		}
		for i := range in.N {
			if in.Points.ID(i) == id {
				return i, nil
			}
		}
		return 0, fmt.Errorf("--ends %q: id %d is not a city of %s", s, id, in.Name)
	}
	if a, err = city(as); err != nil {
		return 0, 0, err
	}
	if b, err = city(bs); err != nil {
		return 0, 0, err
	}
	if a == b {
		return 0, 0, fmt.Errorf("--ends %q: a path from a city to itself is a tour (leave --ends out)", s)
	}
	return a, b, nil
}

// newRoute makes the route the flags ask for on in for engine e; p.Start,
// when not nil, a tour of in, becomes a tour of the engine's instance.
func (f *routeFlags) newRoute(in *solver.Instance, e solver.Engine, p *solver.Params) (*route, error) {
	rt := &route{orig: in, in: in, open: f.open, a: -1, b: -1}
	switch {
	case f.open && f.ends != "":
		return nil, usagef("solve", "--open and --ends: a path with both ends free, or one from A to B; give one of them")
	case f.open:
		op, err := solver.OpenInstance(in)
		if err != nil {
			return nil, fmt.Errorf("--open: %v", err)
		}
		rt.in = op
		if p.Start != nil {
			p.Start = append(slices.Clone(p.Start), in.N) // the start read as a path, closed through the extra city
		}
	case f.ends != "":
		a, b, err := parseEnds(f.ends, in)
		if err != nil {
			return nil, usagef("solve", "%v", err)
		}
		ends, err := solver.WithEnds(in, a, b)
		if err != nil {
			return nil, fmt.Errorf("--ends: %v", err)
		}
		if !solver.KeepsFixedEdges(e) {
			return nil, fmt.Errorf("--ends: %s/%s does not keep fixed edges, which a path between fixed ends is made with: use auto, 2opt-ils or 3opt-ils on the CPU", e.Name(), e.Backend())
		}
		ends.Optimum, ends.OptimumSource = 0, "" // the optimum is a tour's
		rt.in, rt.a, rt.b = ends, a, b
	}
	return rt, nil
}

// adjust keeps the bound from a run on a path between fixed ends: a bound
// of the tours is none of the paths'.
func (rt *route) adjust(o *outputs) {
	if rt.a >= 0 {
		o.alongside, o.bound = false, 0
	}
}

// finish turns the engine's tour into the route's: the path, validated and
// its length recomputed (solver.FinishPath), the plan and the report made
// those of the instance read.
func (rt *route) finish(plan *session.Plan, out session.Outcome) (session.Outcome, error) {
	if !rt.isPath() {
		return out, nil
	}
	res := out.Result
	var path []int
	var err error
	if rt.open {
		path, err = solver.PathOfOpenTour(res.Tour, rt.orig.N)
	} else {
		path, err = solver.PathBetween(res.Tour, rt.a, rt.b)
	}
	if err != nil {
		return out, fmt.Errorf("%s/%s: %v", plan.Engine.Name(), plan.Engine.Backend(), err)
	}
	l, err := solver.FinishPath(rt.orig, path, rt.a, rt.b)
	if err != nil {
		return out, fmt.Errorf("%s/%s: %v", plan.Engine.Name(), plan.Engine.Backend(), err)
	}
	if rt.open && l != res.Length {
		return out, fmt.Errorf("%s/%s: open path of length %d from a tour of length %d", plan.Engine.Name(), plan.Engine.Backend(), l, res.Length)
	}
	in := *rt.orig
	in.Optimum, in.OptimumSource = 0, "" // the optimum is a tour's
	plan.In = &in
	res.Tour, res.Length = path, l
	what := "an open path, ends free"
	if !rt.open {
		what = fmt.Sprintf("a path from %d to %d", in.Points.ID(rt.a), in.Points.ID(rt.b))
	}
	res.Note = strings.TrimPrefix(res.Note+"; "+what+": the length has no closing edge", "; ")
	if !rt.open {
		out.Bound = nil
	}
	out.Result = res
	out.Report = solver.NewReport(&in, res)
	if out.Bound != nil {
		out.Report.SetLowerBound(&in, out.Bound.Bound)
	}
	return out, nil
}
