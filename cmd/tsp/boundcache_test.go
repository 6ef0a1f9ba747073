package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tsplab/tsplab/solver/session"
)

// TestSolveStartsFromTheCachedBound: the bound tsp bound proves is kept
// in the user's cache, and a later solve of the same file starts from it:
// its summary and record say the bound came from an earlier run, and
// report the same bound whatever its own time allowed.
func TestSolveStartsFromTheCachedBound(t *testing.T) {
	t.Setenv(session.CacheDirEnv, t.TempDir())
	p := filepath.Join(t.TempDir(), "u.tsp")
	if code, _, stderr := tsp(t, "gen", "--kind", "uniform", "--n", "300", "--out", p); code != 0 {
		t.Fatalf("gen: %s", stderr)
	}
	code, out, stderr := tsp(t, "bound", p, "--quiet", "--json", "-")
	var b struct {
		LowerBound float64 `json:"lower_bound"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &b) != nil || b.LowerBound <= 0 {
		t.Fatalf("bound: exit %d, %q %s", code, out, stderr)
	}
	code, out, stderr = tsp(t, "solve", p, "--algo", "testclimb", "--quiet", "--time", "200ms", "--json", "-")
	var rep struct {
		Length          float64 `json:"length"`
		LowerBound      float64 `json:"lower_bound"`
		BoundSource     string  `json:"bound_source"`
		BoundConverging bool    `json:"bound_converging"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil {
		t.Fatalf("solve --json: exit %d, %q %s", code, out, stderr)
	}
	if rep.LowerBound < b.LowerBound || rep.BoundSource == "" {
		t.Errorf("solve reports the bound %v (%q), below tsp bound's %v", rep.LowerBound, rep.BoundSource, b.LowerBound)
	}
	if rep.LowerBound == b.LowerBound && (rep.BoundSource != "cache" || rep.BoundConverging) {
		t.Errorf("the cached bound's record: source %q, converging %v", rep.BoundSource, rep.BoundConverging)
	}
	code, out, stderr = tsp(t, "solve", p, "--algo", "testclimb", "--time", "200ms")
	if code != 0 || !strings.Contains(out, "gap ≤ ") || !strings.Contains(out, "proven by an earlier run") {
		t.Errorf("solve: exit %d, the summary does not say the bound came from an earlier run: %q %s", code, out, stderr)
	}
}
