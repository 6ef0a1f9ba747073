package main

import (
	"strings"
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// TestSummarySaysWhyARunEnded: the summary names the result's stop reason
// and says nothing when the schedule ended.
func TestSummarySaysWhyARunEnded(t *testing.T) {
	in := solver.NewCoordInstance("sq", solver.Euc2D, []float64{0, 1, 1, 0}, []float64{0, 0, 1, 1}, nil)
	base := solver.Result{Length: 4, Elapsed: 2 * time.Second, Stopped: true, Params: solver.Params{TimeLimit: 2 * time.Second}}
	phrases := []string{"time limit reached", "target reached", "interrupted"}
	cases := []struct {
		reason solver.StopReason
		want   string
	}{
		{solver.StopTime, "time limit reached"},
		{solver.StopTarget, "target reached"},
		{solver.StopInterrupt, "interrupted"},
		{solver.StopDone, ""},
	}
	for _, c := range cases {
		r := base
		r.StopReason = c.reason
		got := summary(in, r)
		for _, w := range phrases {
			if strings.Contains(got, w) != (w == c.want) {
				t.Errorf("summary %q: want only %q", got, c.want)
			}
		}
	}
}

// TestSummaryCarriesTheNote: a result's note ends the summary line; no
// note, nothing added.
func TestSummaryCarriesTheNote(t *testing.T) {
	in := solver.NewCoordInstance("sq", solver.Euc2D, []float64{0, 1, 1, 0}, []float64{0, 0, 1, 1}, nil)
	r := solver.Result{Length: 4, Elapsed: time.Second, StopReason: solver.StopTime, Stopped: true}
	plain := summary(in, r)
	r.Note = "no climb finished in the time given"
	if got := summary(in, r); got != plain+"; no climb finished in the time given" {
		t.Errorf("summary %q, want %q and the note", got, plain)
	}
}
