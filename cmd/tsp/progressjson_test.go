package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// jsonLines parses every line of stderr that is not the summary as one
// JSON object, failing on a line that does not parse.
func jsonLines(t *testing.T, stderr string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
		if strings.HasPrefix(l, "tsp: ") {
			continue // the summary and notes stay text
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("progress line %q is not JSON: %v", l, err)
		}
		out = append(out, m)
	}
	return out
}

// checkBeat checks that the lines' elapsed_s never go back and never
// leave more than a second (and a margin for a loaded machine) between
// them, from the start to the last.
func checkBeat(t *testing.T, lines []map[string]any, least int) {
	t.Helper()
	if len(lines) < least {
		t.Fatalf("%d progress lines, want at least %d", len(lines), least)
	}
	prev := 0.0
	for i, l := range lines {
		e, ok := l["elapsed_s"].(float64)
		if !ok || e < prev || e-prev > 1.5 {
			t.Errorf("line %d: elapsed_s %v after %v", i, l["elapsed_s"], prev)
		}
		prev = e
	}
}

func TestSolveProgressJSON(t *testing.T) {
	p := genCircle(t, 30)
	code, stdout, stderr := tsp(t, "solve", p, "--algo", "testwait", "--backend", "cpu", "--time", "2.5s", "--progress", "json")
	if code != 0 || !strings.Contains(stdout, "length") {
		t.Fatalf("exit %d: %s%s", code, stdout, stderr)
	}
	lines := jsonLines(t, stderr)
	checkBeat(t, lines, 3)
	last := lines[len(lines)-1]
	for _, k := range []string{"phase", "best", "moves_per_s", "gap_percent", "optimum"} {
		if _, ok := last[k]; !ok {
			t.Errorf("last progress line %v lacks %q", last, k)
		}
	}
	if code, _, stderr := tsp(t, "solve", p, "--progress", "yaml"); code != 2 || !strings.Contains(stderr, "want text or json") {
		t.Errorf("--progress yaml: exit %d %s", code, stderr)
	}
}

func TestBatchProgressJSON(t *testing.T) {
	dir := t.TempDir()
	in := circleLines(t, dir, 6, 20)
	code, _, stderr := tsp(t, "batch", in, "--time-each", "500ms", "--opt", "kicks=0", "--jobs", "1", "--backend", "cpu", "--out", filepath.Join(dir, "r.jsonl"), "--progress", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := jsonLines(t, stderr)
	checkBeat(t, lines, 2)
	if lines[0]["phase"] != "batch" || lines[0]["solved"] == nil {
		t.Errorf("batch progress line %v", lines[0])
	}
}
