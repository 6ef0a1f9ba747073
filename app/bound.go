package app

import (
	"fmt"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/bound"
	"github.com/tsplab/tsplab/solver/report"
	"github.com/tsplab/tsplab/solver/session"
)

// paneBound is the proven lower bound of the pane's instance, computed beside a run when no optimum is known.
type paneBound struct {
	in    *solver.Instance
	value int64 // 0 until computed
	// note says where the bound came from and whether it still converges ("" for this run's converged one)
	note string
	// src and converging are the same for the run's record (report.Report's fields)
	src        report.BoundSource
	converging bool
}

// resetBound forgets the previous instance's bound (p.mu held).
func (p *Pane) resetBound() { p.bound = paneBound{in: p.in} }

// setBound shows lb, the bound of in, if in is still the pane's instance and lb beats the bound shown.
func (p *Pane) setBound(in *solver.Instance, r bound.Result) {
	lb := r.Bound
	p.mu.Lock()
	if p.in != in || p.bound.in != in || lb <= p.bound.value {
		p.mu.Unlock()
		return
	}
	defer func() {
		// The gaps above the bound change: so does the compare summary.
		last := p.shownPr
		p.mu.Unlock()
		if p.OnUpdate != nil {
			p.OnUpdate(p, last)
		}
	}()
	p.bound.src, p.bound.converging = session.BoundOrigin(r)
	p.bound.value, p.bound.note = lb, report.BoundNote(p.bound.src, p.bound.converging)
	if !in.HasOptimum() && !p.isPath() {
		p.Curve.SetBound(lb)
	}
	if st := p.Runner.State(); st != session.Running && st != session.Idle {
		// a paused or finished run's numbers are its record's, which takes the bound (none for a path)
		if rep, rin, err := p.recordLocked(true); err == nil {
			p.showRecord(rep, rin)
			return
		}
	}
	switch {
	case p.best != nil:
		l := solver.TourLength(in, p.best)
		if p.isPath() {
			l = solver.PathLength(in, p.best)
		}
		p.setLengths(0, l)
	default:
		p.setNumber("Gap", p.boundLine())
	}
}

// boundLine is the Gap field before a tour: the bound and its note.
func (p *Pane) boundLine() string {
	s := "lower bound " + p.in.HumanLength(p.bound.value)
	if p.bound.note != "" {
		s += " (" + p.bound.note + ")"
	}
	return s
}

// gapOverBound is the Gap field's boundGap, shorter in a compare pane whose legend says it is over the bound.
func (p *Pane) gapOverBound(l, lb int64) string {
	g, ok := solver.GapPercent(l, lb)
	switch {
	case ok && p.numbers.compact && p.bound.note != "":
		return fmt.Sprintf("at most %.2f %% (%s)", g, p.bound.note)
	case ok && p.numbers.compact:
		return fmt.Sprintf("at most %.2f %%", g)
	case ok && p.bound.note != "":
		return fmt.Sprintf("at most %.2f %% (above the lower bound, %s)", g, p.bound.note)
	}
	return boundGap(l, lb)
}

// boundGap is the gap line of a tour of length l above lower bound lb ("at most": the font has no "≤").
func boundGap(l, lb int64) string {
	g, ok := solver.GapPercent(l, lb)
	if !ok {
		return fmt.Sprintf("lower bound %d", lb)
	}
	return fmt.Sprintf("at most %.2f %% (above the lower bound)", g)
}
