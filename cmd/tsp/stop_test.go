package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/instfile"
	"github.com/tsplab/tsplab/solver/session"
)

// TestSolveStoppedWritesBestTour stops tsp solve with the default engine
// at several moments, in its set-up and in its search, and checks that
// the tour written is no longer than the start construction and that
// stderr warns of the early stop.
func TestSolveStoppedWritesBestTour(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "u.tsp")
	if code, _, stderr := tsp(t, "gen", "--kind", "uniform", "--n", "3000", "--out", p); code != 0 {
		t.Fatalf("gen: %s", stderr)
	}
	in, err := instfile.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	fb := solver.TourLength(in, session.Fallback(in, solver.Params{}))
	for _, after := range []time.Duration{100 * time.Millisecond, 300 * time.Millisecond, 900 * time.Millisecond} {
		out := filepath.Join(dir, "stop.tour")
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(after, cancel)
		code, _, stderr := tspCtx(t, ctx, "solve", p, "--backend", "cpu", "--time", "60s", "--out", out)
		cancel()
		if code != exitInterrupt {
			t.Fatalf("stopped after %v: exit %d: %s", after, code, stderr)
		}
		if !strings.Contains(stderr, "warning: stopped early") {
			t.Errorf("stopped after %v: no warning in %q", after, stderr)
		}
		tour, err := instfile.ReadStartTour(out, in)
		if err != nil {
			t.Fatalf("stopped after %v: %v", after, err)
		}
		if l := solver.TourLength(in, tour); l > fb {
			t.Errorf("stopped after %v: tour of length %d, longer than the start construction's %d", after, l, fb)
		}
	}
}

// TestSolveStoppedBeforeRunWritesNothing checks that a solve stopped
// before its run began writes no tour and says so.
func TestSolveStoppedBeforeRunWritesNothing(t *testing.T) {
	p := genCircle(t, 40)
	out := filepath.Join(filepath.Dir(p), "none.tour")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	code, stdout, stderr := tspCtx(t, ctx, "solve", p, "--backend", "cpu", "--out", out)
	if code != exitInterrupt || !strings.Contains(stderr, "nothing to write") || stdout != "" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("%s written by a run stopped before it began", out)
	}
}

// TestSolveStopsAtProvenOptimum: on a 12-city cost matrix with names the
// default engine stops at the optimum proven by the exact solve, long
// before its time, and the tour written keeps the matrix's names.
func TestSolveStopsAtProvenOptimum(t *testing.T) {
	kinds := roundTripKinds()
	dir := t.TempDir()
	p := writeTestFile(t, dir, "named.csv", kinds["named.csv"])
	out := filepath.Join(dir, "t.csv")
	code, stdout, stderr := tsp(t, "solve", p, "--time", "60", "--out", out)
	if code != 0 || !strings.Contains(stdout, "optimum reached") {
		t.Fatalf("exit %d: %s%s", code, stdout, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil || !strings.HasPrefix(string(data), "name\nCity ") {
		t.Errorf("tour written: %q %v; want the matrix's names", data, err)
	}
}
