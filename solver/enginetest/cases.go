package enginetest

import (
	"context"
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// longLimit is the limit of runs a case stops from outside.
const longLimit = time.Hour

// stopGrace bounds how long after its limit or cancellation a run may take to return.
const stopGrace = 60 * time.Second

// testFinish: a run ending by its budget returns a valid, exact, unstopped tour.
func testFinish(t *testing.T, e solver.Engine, c Config) {
	in := Instance(c.n(), 1)
	p := c.budget(e)
	res := solveChecked(t, context.Background(), e, in, p, nil)
	if p.TimeLimit == 0 && res.Stopped {
		t.Errorf("a run that ended by its budget says Stopped (%s)", res.StopReason)
	}
	if res.Params.Seed != p.Seed {
		t.Errorf("Params.Seed %d, the run's %d", res.Params.Seed, p.Seed)
	}
}

// testSnapshots: snapshots come in order, their tours are permutations of their stated lengths, and the last carries the result's.
func testSnapshots(t *testing.T, e solver.Engine, c Config) {
	in := Instance(c.n(), 2)
	ch := make(chan solver.Snapshot, 1<<14)
	res := solveChecked(t, context.Background(), e, in, c.budget(e), ch)
	close(ch)
	var prev solver.Snapshot
	bestSeen, count := int64(-1), 0
	for s := range ch {
		count++
		if s.Elapsed < prev.Elapsed {
			t.Fatalf("snapshot %d: elapsed %v after %v", count, s.Elapsed, prev.Elapsed)
		}
		prev = s
		if s.Tour != nil && solver.ValidateTour(s.Tour, in.N) != nil {
			t.Fatalf("snapshot %d: its tour is not a permutation", count)
		}
		if s.Best != nil {
			if err := solver.ValidateTour(s.Best, in.N); err != nil {
				t.Fatalf("snapshot %d: best tour: %v", count, err)
			}
			if got := solver.TourLength(in, s.Best); got != s.BestLength {
				t.Fatalf("snapshot %d: best length %d, its tour's %d", count, s.BestLength, got)
			}
		}
		if s.Best == nil && s.BestLength == 0 {
			continue // no best yet (a phase's snapshot)
		}
		if bestSeen >= 0 && s.BestLength > bestSeen {
			t.Fatalf("snapshot %d: best length %d after %d", count, s.BestLength, bestSeen)
		}
		bestSeen = s.BestLength
		if res.Length > s.BestLength {
			t.Fatalf("result %d longer than a snapshot's best %d", res.Length, s.BestLength)
		}
	}
	if count == 0 {
		t.Fatal("no snapshot")
	}
	if bestSeen != res.Length {
		t.Errorf("the last snapshot's best is %d, the result %d", bestSeen, res.Length)
	}
}

// testCancellation: a cancelled long run returns a valid best tour marked Stopped.
func testCancellation(t *testing.T, e solver.Engine, c Config) {
	in := Instance(c.n(), 3)
	p := c.open(e)
	p.Seed, p.TimeLimit = 3, longLimit
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	res := solveChecked(t, ctx, e, in, p, nil)
	if !res.Stopped && !c.endedAlone(e, res) {
		t.Errorf("a cancelled run not marked Stopped (%s)", res.StopReason)
	}
	if el := time.Since(start); el > stopGrace {
		t.Errorf("returned %v after its start, cancelled after 100 ms", el)
	}
}

// testDeadline: the time limit ends a long run, which says so.
func testDeadline(t *testing.T, e solver.Engine, c Config) {
	in := Instance(c.n(), 4)
	p := c.open(e)
	p.Seed, p.TimeLimit = 4, 200*time.Millisecond
	start := time.Now()
	res := solveChecked(t, context.Background(), e, in, p, nil)
	if (!res.Stopped || res.StopReason != solver.StopTime) && !c.endedAlone(e, res) {
		t.Errorf("time limit: Stopped %v, reason %q, want %q", res.Stopped, res.StopReason, solver.StopTime)
	}
	if el := time.Since(start); el > p.TimeLimit+stopGrace {
		t.Errorf("returned %v after its start, limit %v", el, p.TimeLimit)
	}
}

// testTarget: a loose target stops a run long before its limit.
func testTarget(t *testing.T, e solver.Engine, c Config) {
	in := Instance(c.n(), 5)
	p := c.open(e)
	// a limit that ends the test where the target is never reached
	p.Seed, p.TimeLimit = 5, stopGrace
	p.Target = solver.TourLength(in, solver.IdentityTour(in.N)) / 3
	start := time.Now()
	res := solveChecked(t, context.Background(), e, in, p, nil)
	if res.Length > p.Target {
		t.Fatalf("ended at %d above the target %d (%s)", res.Length, p.Target, res.StopReason)
	}
	if !res.Stopped || res.StopReason != solver.StopTarget {
		t.Errorf("target: Stopped %v, reason %q, want %q", res.Stopped, res.StopReason, solver.StopTarget)
	}
	if el := time.Since(start); el >= stopGrace {
		t.Errorf("returned %v after its start for a loose target", el)
	}
}

// testFixedEdges: an engine either refuses fixed edges or returns a tour with all of them.
func testFixedEdges(t *testing.T, e solver.Engine, c Config) {
	in := Instance(c.n(), 6)
	for i := 0; i+1 < in.N; i += 10 {
		in.FixedEdges = append(in.FixedEdges, [2]int{i, i + 1})
	}
	res, err := solver.RunAided(context.Background(), e, in, c.budget(e), nil, solver.Aid{}, false)
	if err != nil {
		if solver.KeepsFixedEdges(e) {
			t.Fatalf("keeps fixed edges, yet: %v", err)
		}
		return
	}
	if err := solver.ValidateTour(res.Tour, in.N); err != nil {
		t.Fatal(err)
	}
	if err := in.CheckFixedEdges(res.Tour); err != nil {
		t.Fatal(err)
	}
}
