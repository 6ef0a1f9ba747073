package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"
)

// TestSolveOpt: --opt sets an engine option (it reaches the report), and a
// bad or unknown one is a usage error (exit 2) naming the option and what
// is allowed, on the first line of stderr.
func TestSolveOpt(t *testing.T) {
	p := genCircle(t, 40)
	jsonPath := filepath.Join(filepath.Dir(p), "run.json")
	code, _, stderr := tsp(t, "solve", p, "--algo", "3opt-ils", "--backend", "cpu", "--workers", "1",
		"--opt", "kicks=20", "--opt", "pivot=rkbi", "--opt", "rkbi_k=2", "--json", jsonPath, "--quiet",
		"--optimum", "1") // below any tour: the kicks, not the optimum, end the run
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Params struct {
			Extra map[string]string `json:"extra"`
		} `json:"params"`
		StopReason string `json:"stop_reason"`
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Params.Extra["kicks"] != "20" || rep.Params.Extra["rkbi_k"] != "2" || rep.StopReason != "done" {
		t.Errorf("report: %+v", rep)
	}
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"--opt", "kicks=-1"}, []string{"--opt kicks -1", "0.."}},
		{[]string{"--opt", "rkbi=3"}, []string{"--opt rkbi is unknown", "kicks, pivot, rkbi_k, neighbors, candidates (and ", "experimental ones", "did you mean rkbi_k?"}},
		{[]string{"--opt", "pivot=best"}, []string{"first|rkbi"}},
		{[]string{"--opt", "nonsense"}, []string{"name=value"}},
		{[]string{"--opt", "blocks=1e12"}, []string{"--blocks", "1..65,536"}},
		{[]string{"--workers", "5000"}, []string{"--workers 5000", "1..1,024"}},
		{[]string{"--algo", "no-such"}, []string{"--algo no-such", "2opt-ils"}},
	} {
		args := append([]string{"solve", p, "--backend", "cpu", "--algo", "3opt-ils", "--quiet"}, c.args...)
		code, _, stderr := tsp(t, args...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", c.args, code, stderr)
			continue
		}
		first := strings.SplitN(stderr, "\n", 2)[0]
		for _, w := range c.want {
			if !strings.Contains(first, w) {
				t.Errorf("%v: %q does not say %q", c.args, first, w)
			}
		}
	}
}

// TestEnginesVerbose lists every option with its range (--all: the
// experimental ones too).
func TestEnginesVerbose(t *testing.T) {
	code, out, stderr := tsp(t, "engines", "--verbose", "--all")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, w := range []string{"--opt rkbi_k", "range 1..8", "range 1..64", "--opt dist", "--alpha", "0 < x < 1", "--opt candidates", "nearest|quadrant|union|mixed|alpha", "(all cores)"} {
		if !strings.Contains(out, w) {
			t.Errorf("engines --verbose does not show %q", w)
		}
	}
	_, plain, _ := tsp(t, "engines")
	if strings.Contains(plain, "--opt") {
		t.Error("engines without --verbose lists options")
	}
}

// TestEnginesForFile lists the defaults a run on a given instance takes:
// auto's candidate lists are the nearest below 1,000 cities and alpha
// from there (to 15,000); a bad file is one error line.
func TestEnginesForFile(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		n    string
		want string
	}{{"600", "--opt candidates   choice default nearest"}, {"12000", "--opt candidates   choice default alpha"}} {
		f := filepath.Join(dir, "u"+c.n+".tsp")
		if code, _, stderr := tsp(t, "gen", "--kind", "uniform", "--n", c.n, "--seed", "1", "--out", f); code != 0 {
			t.Fatalf("gen: %s", stderr)
		}
		code, out, stderr := tsp(t, "engines", f)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if !strings.Contains(out, "("+solver.GroupDigits(c.n)+" cities)") {
			t.Errorf("%s cities: no header in\n%s", c.n, out)
		}
		// GPU auto hands these options to CPU auto and shows its defaults
		for _, eng := range autoHeads() {
			if b := engineBlock(out, eng); !strings.Contains(b, c.want) {
				t.Errorf("%s cities: no %q under %s in\n%s", c.n, c.want, eng, b)
			}
		}
	}
	code, _, stderr := tsp(t, "engines", filepath.Join(dir, "missing.tsp"))
	if code != 1 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, "missing.tsp") {
		t.Errorf("a missing file: exit %d, %q", code, stderr)
	}
}

// autoHeads are the heads of auto's lines in tsp engines --verbose: the CPU's, and the GPU's where CUDA is built in (a
// build without lists the GPU engines' options only with --all).
func autoHeads() []string {
	if device.BuiltWithCUDA() {
		return []string{"auto         cpu", "auto         gpu"}
	}
	return []string{"auto         cpu"}
}

// cpuBlocks is tsp engines' output without the GPU engines' blocks.
func cpuBlocks(out string) string {
	var b strings.Builder
	keep := true
	for _, line := range strings.Split(out, "\n") {
		if !strings.HasPrefix(line, " ") {
			keep = !strings.Contains(line, " gpu  ")
		}
		if keep {
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

// engineBlock is the part of tsp engines' output about the engine whose
// line starts with head: that line and the indented ones after it.
func engineBlock(out, head string) string {
	var b []string
	for _, line := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(line, head):
			b = append(b, line)
		case len(b) > 0 && strings.HasPrefix(line, " "):
			b = append(b, line)
		case len(b) > 0:
			return strings.Join(b, "\n")
		}
	}
	return strings.Join(b, "\n")
}

// optionLines are the lines of tsp engines' output that list an option.
func optionLines(out string) []string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "    --") {
			lines = append(lines, l)
		}
	}
	return lines
}

// TestEnginesVerboseTiers: tsp engines --verbose lists what a user of each
// engine needs (at most 8 options for auto on each backend, at most 90 in
// all, both builds, since the GPU engines declare theirs in files every
// build compiles; the gpus option, declared once for every GPU engine,
// counts once); --all adds the experimental ones, each marked so; a
// default that depends on the instance's size reads "by size".
func TestEnginesVerboseTiers(t *testing.T) {
	_, out, _ := tsp(t, "engines", "--verbose")
	_, all, _ := tsp(t, "engines", "--verbose", "--all")
	if !device.BuiltWithCUDA() {
		all = cpuBlocks(all) // a build without CUDA lists the GPU engines' options with --all alone
	}

	stable, every := optionLines(out), optionLines(all)
	gpus := 0
	for _, l := range stable {
		if strings.HasPrefix(l, "    --opt gpus ") {
			gpus++
		}
	}
	if gpus == 0 && device.BuiltWithCUDA() {
		t.Error("tsp engines --verbose lists no gpus option")
	}
	if n := len(stable) - gpus + 1; n > 90 {
		t.Errorf("tsp engines --verbose lists %d options (gpus once), want at most 90", n)
	}
	for _, head := range autoHeads() {
		if n := len(optionLines(engineBlock(out, head))); n == 0 || n > 8 {
			t.Errorf("%s: %d options without --all, want 1 to 8:\n%s", head, n, engineBlock(out, head))
		}
	}
	if len(every) <= len(stable) {
		t.Errorf("--all adds nothing: %d lines against %d", len(every), len(stable))
	}
	marked := 0
	for _, l := range every {
		if strings.Contains(l, "(experimental)") {
			marked++
		}
	}
	if marked != len(every)-len(stable) {
		t.Errorf("--all: %d lines marked (experimental), %d more than without it", marked, len(every)-len(stable))
	}
	for _, l := range stable {
		if strings.Contains(l, "(experimental)") {
			t.Errorf("an experimental option without --all: %s", l)
		}
	}
	if b := engineBlock(all, "auto         cpu"); !strings.Contains(b, "--opt stale        int    default by size;") {
		t.Errorf("auto's stale depends on the size; listed as\n%s", b)
	}
}

// TestGPUsFlag: --gpus is the GPU engines' gpus option as a flag on solve,
// batch and bench; a CPU engine, which takes no such option, refuses it by
// that name.
func TestGPUsFlag(t *testing.T) {
	p := genCircle(t, 40)
	code, _, stderr := tsp(t, "solve", p, "--backend", "cpu", "--algo", "2opt-ils", "--gpus", "0,0", "--quiet")
	if first := strings.SplitN(stderr, "\n", 2)[0]; code != 2 || !strings.Contains(first, "gpus") {
		t.Errorf("solve --backend cpu --gpus 0,0: exit %d, %q", code, first)
	}
	for _, cmd := range []string{"solve", "batch", "bench"} {
		_, stdout, stderr := tsp(t, "help", cmd)
		if !strings.Contains(stdout+stderr, "-gpus") {
			t.Errorf("tsp help %s does not list --gpus", cmd)
		}
	}
}
