package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/session"
)

// TestBatchGapAsSolve: a batch gives a small instance the optimum and gap
// that solve gives it (the exact optimum of up to session.ExactMaxN
// cities), on the CPU path and in the GPU path's instances.
func TestBatchGapAsSolve(t *testing.T) {
	sq := writeTestFile(t, t.TempDir(), "sq.txt", "0 0\n1 0\n1 1\n0 1\n")
	code, out, stderr := tsp(t, "batch", sq, "--time-each", "0.2", "--out", "-", "--quiet")
	if code != 0 {
		t.Fatalf("batch: exit %d: %s", code, stderr)
	}
	var line struct {
		Optimum *json.Number `json:"optimum"`
		Gap     *float64     `json:"gap_percent"`
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &line); err != nil {
		t.Fatal(err)
	}
	_, rep, _ := tsp(t, "solve", sq, "--time", "0.2", "--json", "-", "--quiet")
	var want struct {
		Optimum json.Number `json:"optimum"`
		Gap     float64     `json:"gap_percent"`
	}
	if err := json.Unmarshal([]byte(rep), &want); err != nil {
		t.Fatal(err)
	}
	if line.Optimum == nil || *line.Optimum != want.Optimum || line.Gap == nil || *line.Gap != want.Gap {
		t.Errorf("batch line %s; solve's optimum %s, gap %v", out, want.Optimum, want.Gap)
	}
	in := &solver.Instance{Name: "sq", N: 4, X: []float64{0, 10, 10, 0}, Y: []float64{0, 0, 10, 10}, Metric: solver.Euc2D}
	in.Prepare()
	if g := session.WithExactOptimum(in); g.Optimum != 40 || g.OptimumSource != session.ExactSource || in.HasOptimum() {
		t.Errorf("the GPU path's instance: optimum %d (%s); the caller's changed: %v", g.Optimum, g.OptimumSource, in.HasOptimum())
	}
}
