package app

import (
	"fmt"
	"path/filepath"

	"github.com/tsplab/tsplab/canvas/export"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/instfile"
	"github.com/tsplab/tsplab/solver/session"
)

// startTour is a tour the user opened for the pane's instance (Open
// tour…): the next runs start from it.
type startTour struct {
	tour []int  // nil: none
	file string // where it was read from
}

// isPath reports whether the pane's last run is a path (p.mu held).
func (p *Pane) isPath() bool { return p.route != nil && p.route.IsPath() }

// shown is the instance the pane's numbers are of: for a path, the
// instance without its optimum, which is a tour's (p.mu held).
func (p *Pane) shown() *solver.Instance {
	if !p.isPath() {
		return p.in
	}
	in := *p.in
	in.Optimum, in.OptimumSource = 0, ""
	return &in
}

// onRoute turns an update of a path run, whose tours are those of the
// route's instance, into the path's: tours as paths of the pane's
// instance, lengths without the edge between fixed ends. A tour that does
// not give a path (a start without the ends' edge) is left out.
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

// idleScene is what the pane shows with no run: the instance, its optimal
// tour, and the start tour once one is opened (p.mu held).
func (p *Pane) idleScene() export.Scene {
	s := export.SceneFor(p.in, p.start.tour, nil, p.optimal)
	if p.start.tour != nil {
		s.Title += " · start " + filepath.Base(p.start.file)
	}
	return s
}

// SetStartTour makes t, a tour of the pane's instance read from file, the
// start of the next runs, and shows it (nil: none).
func (p *Pane) SetStartTour(t []int, file string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.in == nil {
		return
	}
	p.start = startTour{tour: t, file: file}
	if st := p.Runner.State(); st == session.Idle {
		p.View.SetScene(p.idleScene())
		// The numbers are of the tour drawn: the opened one.
		if t != nil {
			l := solver.TourLength(p.in, t)
			p.setLengths(l, l)
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

// OpenStartTour reads the tour at path (a TSPLIB .tour, or city ids in
// tour order) for the instance on screen and makes it every pane's start:
// the reader's error, FILE:LINE and the problem, as it gives it.
func (a *App) OpenStartTour(path string) error {
	in := a.Single.Instance()
	if in == nil {
		return fmt.Errorf("open tour: no instance loaded: open the instance the tour is of first")
	}
	t, err := instfile.ReadStartTour(path, in)
	if err != nil {
		return err
	}
	for _, p := range []*Pane{a.Single, a.Left, a.Right} {
		p.SetStartTour(t, path)
	}
	return nil
}

// bestRoute is the pane's best tour as the route's (a path for a path
// run) with its length, and whether it is a path; nil before any tour.
func (p *Pane) bestRoute() (tour []int, length int64, path bool) {
	t, l := p.Runner.Best()
	p.mu.Lock()
	rt := p.route
	p.mu.Unlock()
	if t == nil || rt == nil || !rt.IsPath() {
		return t, l, false
	}
	pt, err := rt.PathOf(t)
	if err != nil {
		return nil, 0, true
	}
	return pt, solver.PathLength(rt.Orig, pt), true
}

// resultRoute is the run's result as the route's (route.Route.Finish).
func (p *Pane) resultRoute() (solver.Result, bool, error) {
	res, ok := p.Runner.Result()
	p.mu.Lock()
	rt := p.route
	p.mu.Unlock()
	if !ok || rt == nil {
		return res, ok, nil
	}
	res, err := rt.Finish(res)
	return res, ok, err
}
