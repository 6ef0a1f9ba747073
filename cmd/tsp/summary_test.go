package main

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/report"
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
		got := summary(in, report.New(in, r), r.Elapsed, runClock{}.stopWords(r, r.Elapsed))
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
	printSolveSummary(e, in, r, report.New(in, r), outputs{})
	if n := strings.Count(out.String(), "\n"); n != 1 {
		t.Errorf("%d lines without an account: %q", n, out.String())
	}
	r.Account = solver.Account{Search: solver.SearchPopulation, Workers: 2, LastGain: solver.SourceCrossover,
		Pool: &solver.PoolAccount{Tours: 8, Capacity: 8, Crossovers: 1234, Gained: 1},
		EAX:  &solver.EAXAccount{Populations: 1, Tours: 8, Generations: 29, FirstBest: 4776.9125, Best: 4700.3281}}
	out.Reset()
	printSolveSummary(e, in, r, report.New(in, r), outputs{})
	want := "evolved 1 population by edge assembly crossover, then recombined a pool of 8 tours (1,234 crossovers, 1 gave a child shorter than its parents); the last improvement came from a descent of a recombined tour"
	if lines := strings.Split(strings.TrimSpace(out.String()), "\n"); len(lines) != 2 || lines[1] != want {
		t.Errorf("summary %q, want its second line %q", out.String(), want)
	}
	out.Reset()
	printSolveSummary(e, in, r, report.New(in, r), outputs{verbose: true})
	for _, w := range []string{"search on 2 workers:", "29 generations", "best 4,776.9125 to 4,700.3281"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("verbose summary %q lacks %q", out.String(), w)
		}
	}
}

// TestSummaryTimeIsTheCommands: the summary's time is the command's, from
// the start --time counts from (reading the instance included), not the
// engine's shorter one; a stop by time is "time limit reached" only where
// that time is at the limit, short of it by the reserve for the run's end
// at most, and otherwise says that the engine ended early.
func TestSummaryTimeIsTheCommands(t *testing.T) {
	in := solver.NewCoordInstance("sq", solver.Euc2D, []float64{0, 1, 1, 0}, []float64{0, 0, 1, 1}, nil)
	r := solver.Result{Length: 4, Elapsed: 7050 * time.Millisecond, Stopped: true, StopReason: solver.StopTime, Algorithm: "auto", Backend: "cpu", Device: "cpu"}
	c := runClock{start: time.Now().Add(-7900 * time.Millisecond), limit: 8 * time.Second, reserve: 300 * time.Millisecond}
	el := c.elapsed(r)
	if el < 7900*time.Millisecond {
		t.Errorf("elapsed %v, want the command's 7.9 s at least", el)
	}
	if got := summary(in, report.New(in, r), el, c.stopWords(r, el)); !strings.Contains(got, ", 7.9") || !strings.HasSuffix(got, ", time limit reached") {
		t.Errorf("at the limit: %q", got)
	}
	early := 7050 * time.Millisecond
	if got := c.stopWords(r, early); strings.Contains(got, "time limit reached") || !strings.Contains(got, "0.95 s before the time limit") {
		t.Errorf("7.05 s of 8 s: %q", got)
	}
	r.StopReason = solver.StopTarget
	if got := c.stopWords(r, early); got != "target reached" {
		t.Errorf("target: %q", got)
	}
	r.StopReason = solver.StopDone
	if got := c.stopWords(r, early); !strings.Contains(got, "schedule ended 0.95 s before the time limit") {
		t.Errorf("schedule done early: %q", got)
	}
	if got := c.stopWords(r, el); got != "" {
		t.Errorf("schedule done at the limit: %q", got)
	}
}
