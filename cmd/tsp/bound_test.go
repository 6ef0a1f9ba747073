package main

import (
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// tsp bound on a circle (whose optimum is known): the last line is an
// integer no larger than the optimum, --json - gives the same bound, and
// bad flags are usage errors.
func TestBoundCommand(t *testing.T) {
	p := genCircle(t, 200)
	code, out, stderr := tsp(t, "bound", p, "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	lb, err := strconv.ParseInt(lines[len(lines)-1], 10, 64)
	if err != nil {
		t.Fatalf("last line %q is not the bound", lines[len(lines)-1])
	}
	code, out, _ = tsp(t, "bound", p, "--json", "-", "--quiet")
	var rep boundReport
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil {
		t.Fatalf("--json -: exit %d, %q", code, out)
	}
	if rep.Optimum == nil || rep.LowerBound != lb || lb > *rep.Optimum || lb <= 0 {
		t.Errorf("bound %d, JSON %+v", lb, rep)
	}
	for _, args := range [][]string{{"bound"}, {"bound", p, "--time", "-1s"}, {"bound", p, "--period", "-2"}} {
		if code, _, _ := tsp(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	if code, _, stderr := tsp(t, "bound", filepath.Join(t.TempDir(), "none.tsp")); code != 1 {
		t.Errorf("missing file: exit %d, %s", code, stderr)
	}
}

// Without a known optimum, solve prints the gap above a computed lower
// bound and its JSON report carries lower_bound; info prints the bound.
func TestSolveGapAboveBound(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "u.tsp")
	if code, _, stderr := tsp(t, "gen", "--kind", "uniform", "--n", "300", "--out", p); code != 0 {
		t.Fatalf("gen: %s", stderr)
	}
	code, out, stderr := tsp(t, "solve", p, "--algo", "testclimb", "--quiet", "--bound", "1s")
	if code != 0 || !strings.Contains(out, "(above the lower bound ") || !strings.Contains(out, "gap ≤ ") {
		t.Fatalf("solve: exit %d, %q %s", code, out, stderr)
	}
	code, out, _ = tsp(t, "solve", p, "--algo", "testclimb", "--quiet", "--bound", "1s", "--json", "-")
	var rep struct {
		Length     int64  `json:"length"`
		LowerBound *int64 `json:"lower_bound"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil || rep.LowerBound == nil || *rep.LowerBound > rep.Length {
		t.Fatalf("solve --json: exit %d, %q", code, out)
	}
	code, out, _ = tsp(t, "info", p, "--bound", "1s")
	if code != 0 || !strings.Contains(out, "lower_bound: ") {
		t.Errorf("info: exit %d, %q", code, out)
	}
}
