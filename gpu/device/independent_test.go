package device

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// TestBestResult: the shortest result is kept (the first of equals), with
// the moves and steps of all, the longest elapsed, the run's seed and the
// contexts; a failed search is named, and with none left the first error.
func TestBestResult(t *testing.T) {
	sel := slotsOf([]int{0, 1, 1})
	res := []solver.Result{
		{Length: 120, Moves: 10, Steps: 1, Elapsed: time.Second, Device: "a", Params: solver.Params{Seed: 7}},
		{Length: 100, Moves: 20, Steps: 2, Elapsed: 2 * time.Second, Device: "b", Params: solver.Params{Seed: 99}},
		{Length: 100, Moves: 30, Steps: 3, Elapsed: time.Second, Device: "c"},
	}
	got, err := bestResult(res, []error{nil, nil, nil}, sel, solver.Params{Seed: 7})
	if err != nil || got.Length != 100 || !strings.HasPrefix(got.Device, "b;") || got.Moves != 60 || got.Steps != 6 ||
		got.Elapsed != 2*time.Second || got.Params.Seed != 7 || got.Settings.GPUs != "0,1,1" {
		t.Fatalf("best of three: %+v, %v", got, err)
	}
	if g := got.Account.GPUPart(); g.Contexts != 3 || g.PerContext != 1 {
		t.Errorf("contexts %d, searches a context %d; want 3 and 1", g.Contexts, g.PerContext)
	}
	lost := errors.New("lost")
	got, err = bestResult(res, []error{nil, lost, nil}, sel, solver.Params{Seed: 7})
	if err != nil || !strings.HasPrefix(got.Device, "c;") || got.Moves != 40 || got.Account.GPUPart().Contexts != 2 ||
		!strings.Contains(strings.Join(got.Account.Warnings, "\n"), "GPU 1.0 left out: lost") {
		t.Fatalf("search 1 failed: %+v, %v", got, err)
	}
	if _, err := bestResult(res, []error{lost, errors.New("later"), lost}, sel, solver.Params{}); err != lost {
		t.Fatalf("all failed: %v, want the first error", err)
	}
}

// TestBestOf: a search's snapshot goes on when its best is the shortest
// yet; the lead's others go on without a tour, the best so far kept; the
// others' are dropped; every one carries the moves of all.
func TestBestOf(t *testing.T) {
	out := make(chan solver.Snapshot, 10)
	b := newBestOf(out, 2)
	tour := []int{0, 1, 2}
	b.take(1, solver.Snapshot{Moves: 5, Best: tour, BestLength: 90, Tour: tour, Length: 90})
	b.take(0, solver.Snapshot{Moves: 3, Best: tour, BestLength: 95, Tour: tour, Length: 95})
	b.take(1, solver.Snapshot{Moves: 8, Best: tour, BestLength: 92})
	b.take(0, solver.Snapshot{Moves: 4, Best: tour, BestLength: 80, Tour: tour, Length: 80})
	close(out)
	var got []solver.Snapshot
	for s := range out {
		got = append(got, s)
	}
	if len(got) != 3 {
		t.Fatalf("%d snapshots, want 3: %+v", len(got), got)
	}
	if got[0].BestLength != 90 || got[0].Moves != 5 || got[0].Best == nil {
		t.Errorf("first: %+v; want search 1's best 90, 5 moves", got[0])
	}
	if got[1].BestLength != 90 || got[1].Length != 90 || got[1].Best != nil || got[1].Tour != nil || got[1].Moves != 8 {
		t.Errorf("second: %+v; want the lead's progress, no tour, best 90, 8 moves", got[1])
	}
	if got[2].BestLength != 80 || got[2].Moves != 12 || got[2].Best == nil {
		t.Errorf("third: %+v; want the lead's best 80, 12 moves", got[2])
	}
}
