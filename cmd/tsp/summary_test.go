package main

import (
	"strings"
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// TestSummarySaysWhyARunEnded: a run ended by its time limit or by
// reaching its target is not reported as stopped early; an interrupted one is.
func TestSummarySaysWhyARunEnded(t *testing.T) {
	in := solver.NewCoordInstance("sq", solver.Euc2D, []float64{0, 1, 1, 0}, []float64{0, 0, 1, 1}, nil)
	base := solver.Result{Length: 4, Elapsed: 2 * time.Second, Stopped: true, Params: solver.Params{TimeLimit: 2 * time.Second}}
	cases := []struct {
		mod  func(r *solver.Result)
		want string
	}{
		{func(r *solver.Result) {}, "time limit reached"},
		{func(r *solver.Result) { r.Params.Target = 4; r.Elapsed = time.Second }, "target reached"},
		{func(r *solver.Result) { r.Elapsed = time.Second }, "stopped early"},
		{func(r *solver.Result) { r.Stopped = false }, ""},
	}
	for _, c := range cases {
		r := base
		c.mod(&r)
		got := summary(in, r)
		for _, w := range []string{"time limit reached", "target reached", "stopped early"} {
			if strings.Contains(got, w) != (w == c.want) {
				t.Errorf("summary %q: want only %q", got, c.want)
			}
		}
	}
}
