package ils

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// TestPopPlan: auto runs the population search on a timed run of at most
// two workers from 1,000 to 10,000 cities, and keeps its own search with
// more workers, a kicks budget, an option of its own given, fewer or more
// cities, or another engine.
func TestPopPlan(t *testing.T) {
	auto, _ := solver.Lookup("auto", solver.BackendCPU)
	ils2, _ := solver.Lookup("2opt-ils", solver.BackendCPU)
	for _, tc := range []struct {
		name  string
		e     solver.Engine
		n, w  int
		limit time.Duration
		extra map[string]string
		want  bool
	}{
		{"two workers", auto, 2000, 2, 10 * time.Second, nil, true},
		{"one worker", auto, deepMinN, 1, time.Second, nil, true},
		{"three workers", auto, 2000, 3, 10 * time.Second, nil, false},
		{"kicks budget", auto, 2000, 2, 0, map[string]string{OptKicks: "100"}, false},
		{"an option given", auto, 2000, 2, 10 * time.Second, map[string]string{OptMove: "chain"}, false},
		{"below 1,000", auto, deepMinN - 1, 2, 10 * time.Second, nil, false},
		{"below 10,000", auto, popMaxN - 1, 2, 10 * time.Second, nil, true},
		{"from 10,000", auto, popMaxN, 2, 10 * time.Second, nil, false},
		{"partition sizes", auto, solver.PartitionMinN, 2, 10 * time.Second, nil, false},
		{"2opt-ils", ils2, 2000, 2, 10 * time.Second, nil, false},
	} {
		e := tc.e.(ilsEngine)
		in := uniformInstance(tc.n, 3)
		p := solver.Params{Workers: tc.w, TimeLimit: tc.limit, Extra: tc.extra}
		o, err := e.config(in, p)
		if err != nil {
			t.Fatal(err)
		}
		if got := e.decide(o, in, p.Given, tc.w, tc.limit).pop; got != tc.want {
			t.Errorf("%s: pop %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestRestartPlan: auto's timed merged search restarts from its best
// tour on more than two workers from 1,000 to 10,000 cities, and not with
// a kicks budget, the restart option or share=best given, fewer or more
// cities, two workers (the population search), or another engine.
func TestRestartPlan(t *testing.T) {
	auto, _ := solver.Lookup("auto", solver.BackendCPU)
	ils2, _ := solver.Lookup("2opt-ils", solver.BackendCPU)
	for _, tc := range []struct {
		name  string
		e     solver.Engine
		n, w  int
		limit time.Duration
		extra map[string]string
		want  bool
	}{
		{"three workers", auto, 2000, 3, 10 * time.Second, nil, true},
		{"sixteen workers", auto, restartMaxN - 1, 16, 10 * time.Second, nil, true},
		{"another option given", auto, 2000, 4, 10 * time.Second, map[string]string{OptSegment: "100"}, true},
		{"two workers", auto, 2000, 2, 10 * time.Second, nil, false},
		{"kicks budget", auto, 2000, 4, 0, map[string]string{OptKicks: "100"}, false},
		{"restart given", auto, 2000, 4, 10 * time.Second, map[string]string{OptRestart: "0"}, false},
		{"share best", auto, 2000, 4, 10 * time.Second, map[string]string{OptShare: "best"}, false},
		{"below 1,000", auto, deepMinN - 1, 4, 10 * time.Second, nil, false},
		{"from 10,000", auto, restartMaxN, 4, 10 * time.Second, nil, false},
		{"2opt-ils", ils2, 2000, 4, 10 * time.Second, nil, false},
	} {
		e := tc.e.(ilsEngine)
		in := uniformInstance(tc.n, 3)
		p := solver.Params{Workers: tc.w, TimeLimit: tc.limit, Extra: tc.extra}
		o, err := e.config(in, p)
		if err != nil {
			t.Fatal(err)
		}
		pl := e.decide(o, in, p.Given, tc.w, tc.limit)
		if pl.restart != tc.want {
			t.Errorf("%s: restart %v, want %v", tc.name, pl.restart, tc.want)
		}
		pl.apply(e, &o, p.Given)
		if want := 0; tc.want && o.restart != restartStall || !tc.want && tc.extra[OptRestart] == "" && o.restart != want {
			t.Errorf("%s: the run's restart option %d", tc.name, o.restart)
		}
	}
}

// TestAutoRunsPop: auto on two workers reports the population search's
// run as its own: a valid tour of exact length, auto's name and params,
// the note saying which search ran.
func TestAutoRunsPop(t *testing.T) {
	in := uniformInstance(1200, 5)
	e, _ := solver.Lookup("auto", solver.BackendCPU)
	p := solver.Params{Seed: 1, Workers: 2, TimeLimit: 700 * time.Millisecond}
	res, err := e.Solve(context.Background(), in, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := solver.ValidateTour(res.Tour, in.N); err != nil || res.Length != solver.TourLength(in, res.Tour) {
		t.Fatalf("tour: %v, length %d", err, res.Length)
	}
	if res.Algorithm != "auto" || res.Params.Algorithm != "auto" || res.Params.Workers != 2 {
		t.Errorf("reported as %s with params %+v", res.Algorithm, res.Params)
	}
	if !strings.HasPrefix(res.Note, "the population search on 2 workers") {
		t.Errorf("note %q", res.Note)
	}
}
