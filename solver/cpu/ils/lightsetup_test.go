package ils

import (
	"context"
	"github.com/tsplab/tsplab/solver/strategy"
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// TestCrowdedRule: the crowded set-up follows the cities per worker and
// the time limit, so that 10,000,000 cities on 2 cores take it at any
// limit, a million on 2 cores take it under 25 s, and 16 cores or a kicks
// budget keep auto's usual one.
func TestCrowdedRule(t *testing.T) {
	for _, tc := range []struct {
		n, w  int
		limit time.Duration
		want  bool
	}{
		{10_000_000, 2, time.Hour, true}, {10_000_000, 4, 0, true}, {10_000_000, 6, 30 * time.Second, false},
		{10_000_000, 16, 10 * time.Second, false}, {4_000_000, 2, time.Minute, true}, {4_000_000, 3, 2 * time.Minute, false},
		{4_000_000, 3, 30 * time.Second, true}, {2_000_000, 1, 0, true}, {1_000_000, 2, 0, false},
		{1_000_000, 2, 10 * time.Second, true}, {1_000_000, 2, 24 * time.Second, true}, {1_000_000, 2, 30 * time.Second, false},
		{1_000_000, 1, time.Minute, false}, {1_000_000, 1, 40 * time.Second, true}, {900_000, 2, 10 * time.Second, false},
		{2_000_000, 4, 10 * time.Second, true}, {4_000_000, 8, 10 * time.Second, false},
		{50_000_000, 16, time.Minute, true}, {10_000_000, 0, time.Second, false},
	} {
		if got := defaultLimits.crowd.Crowded(tc.n, tc.w, tc.limit); got != tc.want {
			t.Errorf("crowded(%d cities, %d workers, %v) = %v, want %v", tc.n, tc.w, tc.limit, got, tc.want)
		}
	}
}

// lowCrowd is the plan limits with the crowded threshold lowered, so that
// a small instance takes the crowded set-up.
func lowCrowd(perWorker int) planLimits {
	lim := defaultLimits
	lim.crowd.CrowdedMinPerWorker = perWorker
	return lim
}

// TestCrowdSettings: auto on a crowded run takes nearest lists, the
// space-filling-curve start, path rounds and a few kicks per city, keeps
// what the user set, and other engines and uncrowded runs keep theirs.
func TestCrowdSettings(t *testing.T) {
	lim := lowCrowd(30000)
	in := uniformInstance(60000, 5)
	cfg := func(name string, w int, set func(*ilsOptions)) ilsOptions {
		eng, _ := solver.Lookup(name, solver.BackendCPU)
		e := eng.(ilsEngine)
		e.limits = &lim
		p := solver.Params{Seed: 1, Workers: w, Config: set}
		o, err := e.config(in, p)
		if err != nil {
			t.Fatal(err)
		}
		planned(e, &o, in, p, w)
		return o
	}
	o := cfg("auto", 2, nil)
	if o.cfg.candidates != listNearest || o.cfg.neighbors != strategy.CrowdedNeighbors || o.cfg.start != startSFC ||
		o.partShape != shapePath || o.partSlice != 0 || o.partKicks != strategy.CrowdedPartKicks {
		t.Fatalf("auto crowded: %+v", o)
	}
	if o := cfg("auto", 4, nil); o.cfg.candidates != listMixed || o.cfg.start != startGreedy || o.partSlice == 0 {
		t.Fatalf("auto on 15,000 cities a worker took the crowded set-up: %+v", o)
	}
	if o := cfg("auto", 2, func(o *ilsOptions) { o.cfg.candidates, o.partShape = listQuadrant, shapeRegion }); o.cfg.candidates != listQuadrant || o.partShape != shapeRegion {
		t.Fatalf("crowded set-up overrode the user's lists: %+v", o)
	}
	if o := cfg("3opt-ils", 1, nil); o.cfg.start == startSFC || o.cfg.candidates != listNearest || o.cfg.neighbors != 8 {
		t.Fatalf("3opt-ils took the crowded set-up: %+v", o)
	}
}

// TestCrowdedCancel: a crowded run cancelled once its search has begun
// returns a valid tour of the length it reports, marked Stopped.
func TestCrowdedCancel(t *testing.T) {
	e := autoWith(t, lowCrowd(20000))
	in := uniformInstance(60000, 11)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	snaps := make(chan solver.Snapshot, 64)
	go func() {
		for s := range snaps {
			if s.Phase == solver.PhaseSearch {
				cancel()
			}
		}
	}()
	// the time limit only bounds a failing test; the cancel ends the run
	res, err := solver.RunAided(ctx, e, in, solver.Params{Seed: 1, Workers: 2, TimeLimit: time.Minute}, snaps, solver.Aid{}, false)
	close(snaps)
	if err != nil {
		t.Fatal(err)
	}
	if err := solver.ValidateTour(res.Tour, in.N); err != nil {
		t.Fatal(err)
	}
	if !res.Stopped || ctx.Err() == nil {
		t.Fatalf("run not stopped by the cancel: stopped %v", res.Stopped)
	}
	if l := solver.TourLength(in, res.Tour); l != res.Length {
		t.Fatalf("reported %d, tour %d", res.Length, l)
	}
}
