package main

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/report"
)

// TestPathGapIsThePaths: the progress of a path between fixed ends
// measures its best path against the optimal path, not against the tour
// through the ends' edge the run's instance proves optimal: ten cities on
// a line from 1 to 10, whose optimal path (90) is half that tour, never
// read as 50 % below the optimum.
func TestPathGapIsThePaths(t *testing.T) {
	var b strings.Builder
	b.WriteString("NAME: line\nTYPE: TSP\nDIMENSION: 10\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n")
	for i := range 10 {
		b.WriteString(strconv.Itoa(i+1) + " " + strconv.Itoa(10*i) + " 0\n")
	}
	b.WriteString("EOF\n")
	file := writeTestFile(t, t.TempDir(), "line.tsp", b.String())
	code, _, stderr := tsp(t, "solve", file, "--ends", "1,10", "--time", "0.5", "--backend", "cpu", "--progress", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var last *float64
	for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
		var pl progressLine
		if json.Unmarshal([]byte(l), &pl) != nil || pl.GapPercent == nil {
			continue
		}
		if *pl.GapPercent < 0 || pl.Optimum != nil && *pl.Optimum != 90 {
			t.Errorf("best %v, gap %v %% above the %s %v: want the optimal path's 90", *pl.Best, *pl.GapPercent, pl.GapAbove, *pl.Optimum)
		}
		last = pl.GapPercent
	}
	if last == nil || *last != 0 {
		t.Errorf("the last progress line's gap is %v, want 0 (the path of 90 is optimal)\n%s", last, stderr)
	}
}

// TestSummaryIsTheRecords: tsp solve's summary is read from the run's
// record, as its --json is: the length, the gap above the lower bound the
// record holds and where that bound came from.
func TestSummaryIsTheRecords(t *testing.T) {
	in := solver.NewCoordInstance("sq", solver.Euc2D, []float64{0, 10, 10, 0}, []float64{0, 0, 10, 10}, nil)
	r := solver.Result{Tour: []int{0, 1, 2, 3}, Length: 40, Algorithm: "auto", Backend: "cpu", Device: "cpu"}
	rep := report.New(in, r)
	rep.SetLowerBound(in, 32)
	rep.BoundSource, rep.BoundConverging = report.BoundCache, true
	var out bytes.Buffer
	printSolveSummary(&env{stdout: &out, stderr: io.Discard}, in, r, rep, outputs{})
	want := "gap ≤ 25.00 % (above the lower bound 32; proven by an earlier run, still converging)"
	if !strings.HasPrefix(out.String(), "sq: length 40, auto/cpu on cpu") || !strings.Contains(out.String(), want) {
		t.Errorf("summary %q, want the record's length and %q", out.String(), want)
	}
}
