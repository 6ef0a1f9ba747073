package ils

import (
	"context"
	"github.com/tsplab/tsplab/solver/strategy"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// TestPopAndRestartPlan: auto runs the population search on a timed run
// from 1,000 to 20,000 cities, and to 50,000 with half a millisecond a
// city (twice that on two workers); neither with a kicks budget, fewer or more
// cities, or another engine; an option of its own given keeps the merged
// search, which restarts on more than two workers below 10,000 cities
// unless the option is restart or share=best.
func TestPopAndRestartPlan(t *testing.T) {
	auto, _ := solver.Lookup("auto", solver.BackendCPU)
	ils2, _ := solver.Lookup("2opt-ils", solver.BackendCPU)
	for _, tc := range []struct {
		name          string
		e             solver.Engine
		n, w          int
		limit         time.Duration
		set           func(*ilsOptions)
		given         []string // the options the user set
		pop, restarts bool
	}{
		{"two workers", auto, 2000, 2, 10 * time.Second, nil, nil, true, false},
		{"one worker", auto, strategy.DeepMinN, 1, 2 * time.Second, nil, nil, true, false},
		{"one worker, 1 ms a city", auto, strategy.DeepMinN, 1, time.Second, nil, nil, false, false},
		{"three workers", auto, 2000, 3, 10 * time.Second, nil, nil, true, false},
		{"sixteen workers", auto, strategy.PopMaxN - 1, 16, 10 * time.Second, nil, nil, true, false},
		{"kicks budget", auto, 2000, 2, 0, func(o *ilsOptions) { o.kicks = 100 }, []string{OptKicks}, false, false},
		{"kicks budget, four workers", auto, 2000, 4, 0, func(o *ilsOptions) { o.kicks = 100 }, []string{OptKicks}, false, false},
		{"an option given", auto, 2000, 2, 10 * time.Second, func(o *ilsOptions) { o.cfg.move = deepChain }, []string{OptMove}, false, false},
		{"an option given, four workers", auto, 2000, 4, 10 * time.Second, func(o *ilsOptions) { o.cfg.stale = 2 }, []string{OptStale}, false, true},
		{"share best", auto, 2000, 4, 10 * time.Second, func(o *ilsOptions) { o.cfg.share = shareBest }, []string{OptShare}, false, false},
		{"below 1,000", auto, strategy.DeepMinN - 1, 2, 10 * time.Second, nil, nil, false, false},
		{"below 1,000, four workers", auto, strategy.DeepMinN - 1, 4, 10 * time.Second, nil, nil, false, false},
		{"below 20,000", auto, strategy.PopMaxN - 1, 2, 20 * time.Second, nil, nil, true, false},
		{"below 20,000, two workers, 0.5 ms a city", auto, strategy.PopMaxN - 1, 2, 10 * time.Second, nil, nil, false, false},
		{"below 20,000, four workers, 0.5 ms a city", auto, strategy.PopMaxN - 1, 4, 10 * time.Second, nil, nil, true, false},
		{"from 20,000", auto, strategy.PopMaxN, 2, 5 * time.Second, nil, nil, false, false},
		{"from 20,000, four workers", auto, strategy.PopMaxN, 4, 5 * time.Second, nil, nil, false, false},
		{"from 20,000 with the time", auto, strategy.PopMaxN, 16, strategy.PopMaxN * strategy.PopPerCity, nil, nil, true, false},
		{"below 50,000 with the time", auto, strategy.PopLongMaxN - 1, 16, strategy.PopLongMaxN * strategy.PopPerCity, nil, nil, true, false},
		{"below 50,000 without the time", auto, strategy.PopLongMaxN - 1, 16, strategy.PopLongMaxN * strategy.PopPerCity / 2, nil, nil, false, false},
		{"from 50,000", auto, strategy.PopLongMaxN, 16, time.Hour, nil, nil, false, false},
		{"from 20,000, two workers, 0.5 ms a city", auto, strategy.PopMaxN, 2, strategy.PopMaxN * strategy.PopPerCity, nil, nil, false, false},
		{"from 20,000, two workers, 1 ms a city", auto, strategy.PopMaxN, 2, 2 * strategy.PopMaxN * strategy.PopPerCity, nil, nil, true, false},
		{"from 20,000, one worker, 1 ms a city", auto, strategy.PopMaxN, 1, 2 * strategy.PopMaxN * strategy.PopPerCity, nil, nil, false, false},
		{"an option given from 10,000, four workers", auto, strategy.RestartMaxN, 4, 10 * time.Second, func(o *ilsOptions) { o.cfg.stale = 2 }, []string{OptStale}, false, false},
		{"an option given below 10,000, sixteen workers", auto, strategy.RestartMaxN - 1, 16, 10 * time.Second, func(o *ilsOptions) { o.cfg.stale = 2 }, []string{OptStale}, false, true},
		{"partition sizes", auto, strategy.PartitionMinN, 2, 10 * time.Second, nil, nil, false, false},
		{"2opt-ils", ils2, 2000, 2, 10 * time.Second, nil, nil, false, false},
		{"2opt-ils, four workers", ils2, 2000, 4, 10 * time.Second, nil, nil, false, false},
	} {
		e := tc.e.(ilsEngine)
		in := uniformInstance(tc.n, 3)
		p := solver.Params{Workers: tc.w, TimeLimit: tc.limit, Config: tc.set}
		o, err := e.config(in, p)
		if err != nil {
			t.Fatal(err)
		}
		given := func(name string) bool { return slices.Contains(tc.given, name) }
		pl := e.decide(e.facts(o, in, given, tc.w, tc.limit))
		if pl.pop() != tc.pop || (pl.Restart > 0) != tc.restarts {
			t.Errorf("%s: pop %v, restart %v; want %v, %v", tc.name, pl.pop(), pl.Restart, tc.pop, tc.restarts)
		}
		pl.apply(&o, given)
		if want := map[bool]int{true: int(strategy.RestartStall / time.Millisecond)}[tc.restarts]; o.restart != want {
			t.Errorf("%s: the run's restart option %d, want %d", tc.name, o.restart, want)
		}
	}
}

// TestPartSliceApplied: the plan's round slice of the partition search
// replaces the option's default, and a partslice the user gave stays.
func TestPartSliceApplied(t *testing.T) {
	auto, _ := solver.Lookup("auto", solver.BackendCPU)
	e := auto.(ilsEngine)
	in := uniformInstance(2000, 3)
	for _, tc := range []struct {
		name  string
		given []string
		set   func(*ilsOptions)
		want  int
	}{
		{"default", nil, nil, 600},
		{"given", []string{OptPartSlice}, func(o *ilsOptions) { o.partSlice = 250 }, 250},
	} {
		o, err := e.config(in, solver.Params{Workers: 2, Config: tc.set})
		if err != nil {
			t.Fatal(err)
		}
		pl := ilsPlan{Strategy: strategy.Strategy{Search: strategy.Partition, PartSlice: 600 * time.Millisecond}}
		pl.apply(&o, func(name string) bool { return slices.Contains(tc.given, name) })
		if o.partSlice != tc.want {
			t.Errorf("%s: partslice %d ms, want %d", tc.name, o.partSlice, tc.want)
		}
	}
}

// TestAutoRunsPop: auto on two workers reports the population search's
// run as its own: a valid tour of exact length, auto's name and params,
// the note saying which search ran.
func TestAutoRunsPop(t *testing.T) {
	in := uniformInstance(1200, 5)
	e, _ := solver.Lookup("auto", solver.BackendCPU)
	p := solver.Params{Seed: 1, Workers: 2, TimeLimit: time.Second} // 0.75 ms a city on 2 workers: pop
	res, err := solver.RunAided(context.Background(), e, in, p, nil, solver.Aid{}, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := solver.ValidateTour(res.Tour, in.N); err != nil || res.Length != solver.TourLength(in, res.Tour) {
		t.Fatalf("tour: %v, length %d", err, res.Length)
	}
	if res.Algorithm != "auto" || res.Params.Algorithm != "auto" || res.Params.Workers != 2 {
		t.Errorf("reported as %s with params %+v", res.Algorithm, res.Params)
	}
	if a := res.Account; a.Search != solver.SearchPopulation || a.Workers != 2 || a.Pool == nil {
		t.Errorf("account %+v", a)
	}
}

// TestPlanPrintsTheStrategy: auto's Plan says the strategy Decide makes
// for the instance (the population search on 2,000 cities within the
// default time limit, the partition search from PartitionMinN), and the
// engines that follow their options print none.
func TestPlanPrintsTheStrategy(t *testing.T) {
	auto, _ := solver.Lookup("auto", solver.BackendCPU)
	ils2, _ := solver.Lookup("2opt-ils", solver.BackendCPU)
	for _, c := range []struct {
		e    solver.Engine
		n    int
		want string
	}{
		{auto, 2000, "population search"},
		{auto, strategy.PartitionMinN, "partition search"},
		{auto, 500, "independent searches"},
		{ils2, 2000, ""},
	} {
		got := c.e.(solver.Planner).Plan(uniformInstance(c.n, 1))
		if !strings.HasPrefix(got, c.want) || (c.want == "") != (got == "") {
			t.Errorf("%s on %d cities: plan %q, want it to start %q", c.e.Name(), c.n, got, c.want)
		}
	}
}

// TestAutoComposed: auto run by a composing engine (Auto) prepares its
// config once and runs by the strategy it is handed.
func TestAutoComposed(t *testing.T) {
	in := uniformInstance(300, 4)
	a := Auto()
	p := solver.Params{Seed: 1, Workers: 2, Config: func(o *ilsOptions) { o.kicks = 20 }}
	cfg, err := a.Prepare(in, p)
	if err != nil {
		t.Fatalf("prepare: %v", err)
	}
	st := a.Decide(a.Facts(cfg, in, 0))
	res, err := a.Run(context.Background(), in, p, nil, solver.Aid{}, cfg, st)
	if err != nil {
		t.Fatalf("composed: %v", err)
	}
	if err := solver.ValidateTour(res.Tour, in.N); err != nil {
		t.Fatal(err)
	}
}
