package main

import (
	"bytes"
	"io"
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

// TestSummaryWordsFromTheAccount: the summary's second line is made from
// the result's account, in the file's units with digits grouped, and a
// result without one adds no line; --verbose adds the whole account.
func TestSummaryWordsFromTheAccount(t *testing.T) {
	in := solver.NewCoordInstance("sq", solver.Euc2D, []float64{0, 1, 1, 0}, []float64{0, 0, 1, 1}, nil)
	r := solver.Result{Length: 4, Elapsed: time.Second, StopReason: solver.StopTime, Stopped: true}
	var out bytes.Buffer
	e := &env{stdout: &out, stderr: io.Discard}
	printSolveSummary(e, in, r, nil, outputs{})
	if n := strings.Count(out.String(), "\n"); n != 1 {
		t.Errorf("%d lines without an account: %q", n, out.String())
	}
	r.Account = solver.Account{Search: solver.SearchPopulation, Workers: 2, LastGain: solver.SourceCrossover,
		Pool: &solver.PoolAccount{Tours: 8, Capacity: 8, Crossovers: 1234, Gained: 1},
		EAX:  &solver.EAXAccount{Populations: 1, Tours: 8, Generations: 29, FirstBest: 4776.9125, Best: 4700.3281}}
	out.Reset()
	printSolveSummary(e, in, r, nil, outputs{})
	want := "evolved 1 population by edge assembly crossover, then recombined a pool of 8 tours (1,234 crossovers, 1 gave a child shorter than its parents); the last improvement came from a descent of a recombined tour"
	if lines := strings.Split(strings.TrimSpace(out.String()), "\n"); len(lines) != 2 || lines[1] != want {
		t.Errorf("summary %q, want its second line %q", out.String(), want)
	}
	out.Reset()
	printSolveSummary(e, in, r, nil, outputs{verbose: true})
	for _, w := range []string{"search on 2 workers:", "29 generations", "best 4,776.9125 to 4,700.3281"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("verbose summary %q lacks %q", out.String(), w)
		}
	}
}
