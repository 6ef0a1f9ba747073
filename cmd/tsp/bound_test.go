package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver/report"
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
	var rep report.BoundReport
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil {
		t.Fatalf("--json -: exit %d, %q", code, out)
	}
	if rep.Optimum == nil || rep.LowerBoundScaled == nil || *rep.LowerBoundScaled != lb || *rep.LowerBound != float64(lb) || float64(lb) > *rep.Optimum || lb <= 0 {
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
	code, out, stderr := tsp(t, "solve", p, "--algo", "testclimb", "--bound", "1s")
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

// boundSlack is how far past its time limit a solve may end: loading the
// instance, the last snapshot, the outputs and a busy test machine. The
// bound used to add up to 10 s (and on a million cities far more).
const boundSlack = 4 * time.Second

// Without a known optimum and without --bound, solve computes the bound
// alongside the run: on a large instance the command still ends within
// its time limit (the bound is left out, or on fewer than four cores not
// started, saying how to get one), and with
// time enough on a small one the summary has the proven gap.
func TestBinarySolveBoundWithinTime(t *testing.T) {
	if testing.Short() {
		t.Skip("generates and solves 200,000 cities")
	}
	big := genInstance(t, 200_000)
	r := bin(t, "solve", big, "--algo", "2opt-ils", "--backend", "cpu", "--time", "2s")
	if r.code != 0 {
		t.Fatalf("solve: exit %d: %s", r.code, r.stderr)
	}
	if r.wall > 2*time.Second+boundSlack {
		t.Errorf("solve --time 2s took %v", r.wall)
	}
	if !strings.Contains(r.stdout, "gap ≤ ") && !(strings.Contains(r.stderr, "no lower bound") && strings.Contains(r.stderr, "'tsp bound FILE'")) {
		t.Errorf("neither a gap nor a word on the missing bound: stdout %q, stderr %q", r.stdout, r.stderr)
	}
	small := genInstance(t, 2000)
	r = bin(t, "solve", small, "--algo", "2opt-ils", "--backend", "cpu", "--time", "3s", "--json", "-")
	var rep struct {
		Length     int64  `json:"length"`
		LowerBound *int64 `json:"lower_bound"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &rep) != nil || rep.LowerBound == nil || *rep.LowerBound > rep.Length {
		t.Fatalf("solve --json: exit %d, %q, %s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "gap ≤ ") {
		t.Errorf("no gap line: %s", r.stderr)
	}
	if r.wall > 3*time.Second+boundSlack {
		t.Errorf("solve --time 3s took %v", r.wall)
	}
	// An explicit --bound is a hard limit after the run.
	r = bin(t, "solve", big, "--algo", "2opt-ils", "--backend", "cpu", "--time", "1s", "--bound", "500ms")
	if r.code != 0 || r.wall > 1500*time.Millisecond+boundSlack {
		t.Errorf("solve --time 1s --bound 500ms: exit %d after %v: %s", r.code, r.wall, r.stderr)
	}
}

// tsp bound acts on SIGTERM in every phase, its set-up included: it exits
// 143 with its outputs, not ended by the watchdog (which says "still
// running").
func TestBinaryBoundSignal(t *testing.T) {
	if testing.Short() {
		t.Skip("generates 200,000 cities")
	}
	p := genInstance(t, 200_000)
	for _, after := range []time.Duration{300 * time.Millisecond, 2 * time.Second} {
		cmd, out, stderr := start(t, "bound", p, "--backend", "cpu")
		// The delay counts from the reading of the instance, which comes
		// after tsp takes its signals: a loaded machine may take longer
		// than the delay to start the process at all.
		waitOpened(t, cmd.Process.Pid, p, stderr)
		time.Sleep(after)
		sent := time.Now()
		cmd.Process.Signal(syscall.SIGTERM)
		code := exitCode(t, cmd)
		took := time.Since(sent)
		if code != 143 {
			t.Errorf("SIGTERM after %v: exit %d, want 143 (stderr %q)", after, code, stderr.all())
		}
		s := stderr.all()
		if strings.Contains(s, "still running") {
			t.Errorf("SIGTERM after %v: the watchdog ended it: %q", after, s)
		}
		// Either the best bound proven (the last line of stdout) or a
		// line that says there was none yet.
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		if _, err := strconv.ParseInt(lines[len(lines)-1], 10, 64); err != nil && !strings.Contains(s, "no bound: stopped before") {
			t.Errorf("SIGTERM after %v: stdout %q, stderr %q", after, out.String(), s)
		}
		t.Logf("SIGTERM after %v: exited in %v", after, took)
	}
}

// waitOpened waits up to 60 s until process pid has file p open, or has
// said its first iteration on stderr (it read p sooner than a look
// could see), or has ended.
func waitOpened(t *testing.T, pid int, p string, stderr *lineReader) {
	t.Helper()
	fds := fmt.Sprintf("/proc/%d/fd", pid)
	if _, err := os.Stat(fds); err != nil {
		t.Skipf("no %s to see the instance opened: %v", fds, err)
	}
	for end := time.Now().Add(time.Minute); time.Now().Before(end); time.Sleep(time.Millisecond) {
		links, err := os.ReadDir(fds)
		if err != nil {
			return // ended: the caller sees how
		}
		for _, l := range links {
			if target, _ := os.Readlink(filepath.Join(fds, l.Name())); target == p {
				return
			}
		}
		if stderr.has("iteration") {
			return
		}
	}
	t.Fatalf("tsp bound did not open %s within a minute", p)
}
