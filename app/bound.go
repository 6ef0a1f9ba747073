package app

import (
	"context"
	"fmt"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/bound"
)

// boundTime bounds the background Held–Karp ascent of an instance without
// a known optimum: pla85900 needs about 7 s on 16 cores.
const boundTime = 20 * time.Second

// paneBound is the proven lower bound of the pane's instance, computed in
// the background when the instance has no known optimum.
type paneBound struct {
	in     *solver.Instance
	cancel context.CancelFunc
	value  int64 // 0 until computed
}

// startBound cancels the previous instance's bound and, when the new one
// has no known optimum, computes one in the background (p.mu held).
func (p *Pane) startBound() {
	if p.bound.cancel != nil {
		p.bound.cancel()
	}
	in := p.in
	p.bound = paneBound{in: in}
	if in == nil || in.HasOptimum() || in.N < 4 {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	p.bound.cancel = cancel
	go func() {
		res, err := bound.Compute(ctx, in, bound.Options{Time: boundTime})
		if err != nil {
			return // cancelled (another instance is on screen), or no bound within boundTime
		}
		uiDo(func() { p.setBound(in, res.Bound) })
	}()
}

// setBound shows lb, the bound of in, if in is still the pane's instance.
func (p *Pane) setBound(in *solver.Instance, lb int64) {
	p.mu.Lock()
	if p.in != in || p.bound.in != in {
		p.mu.Unlock()
		return
	}
	defer func() {
		// The gaps above the bound change: the compare summary too.
		last := p.Runner.Last()
		p.mu.Unlock()
		if p.OnUpdate != nil {
			p.OnUpdate(p, last)
		}
	}()
	p.bound.value = lb
	p.Curve.SetOptimum(lb)
	if p.best != nil {
		p.setNumber("Gap", boundGap(solver.TourLength(in, p.best), lb))
	} else {
		p.setNumber("Gap", fmt.Sprintf("lower bound %d", lb))
	}
}

// boundGap is the gap line of a tour of length l above the lower bound lb,
// "at most" spelt out (the bundled font has no "≤").
func boundGap(l, lb int64) string {
	g, ok := solver.GapPercent(l, lb)
	if !ok {
		return fmt.Sprintf("lower bound %d", lb)
	}
	return fmt.Sprintf("at most %.2f %% (above the lower bound)", g)
}
