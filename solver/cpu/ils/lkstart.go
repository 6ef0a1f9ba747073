package ils

import (
	"slices"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/cpu/partition"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/tour"
)

// lkStart searches the whole tour by chained Lin–Kernighan, one search a
// worker from the quick Borůvka tour (partition.SoloLK), until the plan's
// LKStart has passed, and returns the best tour for the merged search to
// go on from: the merged search's descents stall above a percent on some
// instances where chained LK does not
// (docs/DECISIONS.md#lk-start). ok is false when the run ended meanwhile.
func (r *ilsRun) lkStart(t0 []int32, nb, nbOdd *neighbor.Lists, d *tour.Dist) (t []int32, ok bool) {
	end := r.c.Deadline
	if at := r.start.Add(r.plan.LKStart); at.Before(end) {
		r.c.Deadline = at
	}
	env := r.partEnv()
	env.Opts.Solo = partition.SoloLK
	partition.Run(env, t0, nb, nbOdd, d)
	if len(r.c.Best) == len(t0) {
		t0 = slices.Clone(r.c.Best) // its searches have ended: nothing offers meanwhile
	}
	r.lkAcc = &solver.LKStartAccount{Seconds: time.Since(r.start).Seconds(), Length: r.in.LengthValue(d.Length(t0))}
	return t0, r.c.Resume(end)
}
