package session

import (
	"context"
	"errors"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
)

// ErrNoTour is Run's error for a run stopped before it began, without a start tour.
var ErrNoTour = errors.New("stopped before any tour existed: nothing to write")

// Fallback is the tour a stopped run is measured against: the given start, else the space-filling curve kept to the
// fixed edges, made in milliseconds.
func Fallback(in *solver.Instance, p solver.Params) []int {
	if p.Start != nil && solver.ValidateTour(p.Start, in.N) == nil && in.CheckFixedEdges(p.Start) == nil {
		return p.Start
	}
	return construct.KeepFixed(in, construct.SpaceFillingCurve(in))
}

// keepBest returns the run's result, or the Fallback tour (fell) when a stopped run's tour is longer or missing;
// a run that ended by itself or its time limit keeps its tour unchecked.
func (pl *Plan) keepBest(ctx context.Context, res solver.Result, err error, p solver.Params) (_ solver.Result, fell bool, _ error) {
	if ctx.Err() == nil || (err == nil && errors.Is(context.Cause(ctx), solver.ErrTimeLimit)) {
		return res, false, err
	}
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
		return res, false, err // the engine failed: its error stands
	}
	fb := Fallback(pl.In, p)
	fl := solver.TourLength(pl.In, fb)
	valid := err == nil && solver.ValidateTour(res.Tour, pl.In.N) == nil
	if valid && res.Length <= fl {
		return res, false, nil
	}
	res.Tour, res.Length = append([]int(nil), fb...), fl
	res.Stopped = true
	res.StopReason = solver.StopInterrupt
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		res.StopReason = solver.StopTime
	}
	if res.Algorithm == "" {
		res.Params = p
	}
	return res, true, nil
}
