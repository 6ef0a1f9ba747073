package app

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/tsplab/tsplab/canvas/export"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/instfile"
	"github.com/tsplab/tsplab/solver/report"
	"github.com/tsplab/tsplab/solver/session"
)

// startTour is a tour opened for the pane's instance (Open tour…), the next runs' start.
type startTour struct {
	tour []int  // nil: none
	file string // where it was read from
	path bool   // the file says the tour is an open path
}

// isPath reports whether the pane's last run is a path (p.mu held).
func (p *Pane) isPath() bool { return p.route != nil && p.route.IsPath() }

// shown is the instance the numbers are of: for a path, without the (tour's) optimum (p.mu held).
func (p *Pane) shown() *solver.Instance {
	if !p.isPath() {
		return p.in
	}
	in := *p.in
	in.Optimum, in.OptimumSource = 0, ""
	return &in
}

// onRoute turns an update of a path run into the path's: tours as paths of the pane's instance, lengths without the ends' edge.
func (p *Pane) onRoute(pr session.Progress) session.Progress {
	if !p.isPath() {
		return pr
	}
	conv := func(t []int) []int {
		if t == nil {
			return nil
		}
		path, err := p.route.PathOf(t)
		if err != nil {
			return nil
		}
		return path
	}
	pr.Tour, pr.Best = conv(pr.Tour), conv(pr.Best)
	pr.Length, pr.BestLength = p.route.Length(pr.Length), p.route.Length(pr.BestLength)
	return pr
}

// idleScene is the pane without a run: instance, optimal tour and any opened start (p.mu held).
func (p *Pane) idleScene() export.Scene {
	opt := p.optimal
	if t := p.start.tour; t != nil && !p.start.path && p.in.HasOptimum() && solver.TourLength(p.in, t) == p.in.Optimum {
		opt = nil // as short as the optimal tour: nothing to draw as a difference
	}
	s := export.SceneFor(p.in, p.start.tour, nil, opt)
	if p.start.path {
		s.Path, s.Title = true, export.TitleFor(p.in, p.start.tour, true)
	}
	if p.start.tour != nil {
		s.Title += " · start " + filepath.Base(p.start.file)
	}
	return s
}

// SetStartTour makes t, read from file, the start of the next runs and shows it (nil: none), as a path when isPath.
func (p *Pane) SetStartTour(t []int, file string, isPath bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.in == nil {
		return
	}
	p.start = startTour{tour: t, file: file, path: isPath && t != nil}
	p.hasStart.Store(t != nil)
	if st := p.Runner.State(); st == session.Idle {
		p.View.SetScene(p.idleScene())
		// The numbers are of the tour drawn: the opened one.
		if t != nil {
			l := solver.TourLength(p.in, t)
			if isPath {
				l = solver.PathLength(p.in, t)
			}
			p.setLengths(l, l)
			if isPath {
				p.setNumber("Gap", "none: the optimum is a tour's")
			}
		}
	}
	if t != nil {
		p.setStatus("ready · starts from " + filepath.Base(file))
	}
}

// StartTour is the tour the pane's next run starts from, and its file.
func (p *Pane) StartTour() ([]int, string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.start.tour, p.start.file
}

// OpenStartTour reads the tour at path for the instance on screen and makes it every pane's start.
func (a *App) OpenStartTour(path string) error {
	in := a.Single.Instance()
	if in == nil {
		return fmt.Errorf("open tour: no instance loaded: open the instance the tour is of first")
	}
	t, isPath, err := instfile.ReadRoute(path, in)
	if err != nil {
		return err
	}
	for _, p := range []*Pane{a.Single, a.Left, a.Right} {
		p.SetStartTour(t, path, isPath)
	}
	a.refreshExport()
	return nil
}

// record is the run's Report with the instance its lengths are of: the finished result, or the best so far;
// a path run's is the route's.
func (p *Pane) record(finished bool) (report.Report, *solver.Instance, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.recordLocked(finished)
}

// recordLocked is record with p.mu held.
func (p *Pane) recordLocked(finished bool) (report.Report, *solver.Instance, error) {
	res, ok := p.Runner.Result()
	if finished && !ok {
		return report.Report{}, nil, errors.New("export: no finished run to report: stop or pause the run first")
	}
	rt, in, lb, start, bnd := p.route, p.shown(), int64(0), p.start, p.bound
	if p.bound.in == p.in {
		lb = p.bound.value
	}
	if !finished {
		t, l := p.Runner.Best()
		if t == nil && start.tour != nil {
			// a tour or path opened before any run (a path from its first city to its last)
			t, l, rt = start.tour, solver.TourLength(in, start.tour), nil
			if start.path {
				// no gap: the optimum is a tour's
				path := *in
				path.Optimum, path.OptimumSource = 0, ""
				in, l, lb = &path, solver.PathLength(in, t), 0
				res.Account.Route = &solver.RouteAccount{From: in.CityLabel(t[0]), To: in.CityLabel(t[len(t)-1])}
			}
		}
		if t == nil {
			return report.Report{}, nil, errors.New("export: no tour yet: run a solver first")
		}
		res.Tour, res.Length = t, l
	}
	if rt != nil {
		var err error
		if res, err = rt.Finish(res); err != nil {
			return report.Report{}, nil, fmt.Errorf("export: %v", err)
		}
	}
	rep := report.New(in, res)
	if lb > 0 && (rt == nil || !rt.IsPath()) {
		rep.SetLowerBound(in, lb)
		rep.BoundSource, rep.BoundConverging = bnd.src, bnd.converging
	}
	return rep, in, nil
}
