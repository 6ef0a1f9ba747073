package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tsplab/tsplab/internal/tsplibdir"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// binPath is the tsp binary built once for this package's tests, so that
// exit codes, signals, stdout and files are checked as a user meets them.
var binPath string

// buildErr says why the binary could not be built; tests that need it fail
// with it.
var buildErr error

// asTSP is the environment variable that makes this test binary act as
// the tsp command, with the test engines linked in.
const asTSP = "TSPLAB_TEST_AS_TSP"

func TestMain(m *testing.M) {
	if os.Getenv(asTSP) == "1" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	tsplibdir.Main(mainRunner{m})
}

type mainRunner struct{ m *testing.M }

func (r mainRunner) Run() int {
	dir, err := os.MkdirTemp("", "tsp-bin-")
	if err != nil {
		buildErr = err
		return r.m.Run()
	}
	defer os.RemoveAll(dir)
	binPath = filepath.Join(dir, "tsp")
	goCmd := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goCmd); err != nil {
		goCmd = "go"
	}
	cmd := exec.Command(goCmd, "build", "-o", binPath, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		buildErr = fmt.Errorf("go build: %v: %s", err, out)
	}
	return r.m.Run()
}

// result is one run of the binary.
type result struct {
	code           int
	stdout, stderr string
	wall           time.Duration
}

// bin runs the tsp binary with args and returns its exit code and output;
// it fails the test when the binary is missing or runs past a minute.
func bin(t testing.TB, args ...string) result {
	t.Helper()
	return binIn(t, "", args...)
}

func binIn(t testing.TB, dir string, args ...string) result {
	t.Helper()
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binPath, args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	r := result{stdout: out.String(), stderr: errb.String(), wall: time.Since(start)}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	default:
		t.Fatalf("tsp %v: %v", args, err)
	}
	if ctx.Err() != nil {
		t.Fatalf("tsp %v ran past a minute", args)
	}
	return r
}

// start starts the binary without waiting; its stderr is read line by
// line as it comes.
func start(t *testing.T, args ...string) (*exec.Cmd, *bytes.Buffer, *lineReader) {
	t.Helper()
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	cmd := exec.Command(binPath, args...)
	var out bytes.Buffer
	cmd.Stdout = &out
	return cmd, &out, startCmd(t, cmd)
}

// startCmd starts cmd without waiting, killed when the test ends; its
// stderr is read line by line as it comes.
func startCmd(t *testing.T, cmd *exec.Cmd) *lineReader {
	t.Helper()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	t.Cleanup(func() { cmd.Process.Kill() })
	return newLineReader(pr)
}

// lineReader collects a child's stderr and lets a test wait for a line.
type lineReader struct {
	mu    sync.Mutex
	text  strings.Builder
	lines chan string
	done  chan struct{}
}

func newLineReader(r io.ReadCloser) *lineReader {
	l := &lineReader{lines: make(chan string, 1024), done: make(chan struct{})}
	go func() {
		defer close(l.done)
		defer r.Close()
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			l.mu.Lock()
			l.text.WriteString(sc.Text() + "\n")
			l.mu.Unlock()
			select {
			case l.lines <- sc.Text():
			default:
			}
		}
	}()
	return l
}

// waitFor waits up to 60 s for a line containing s.
func (l *lineReader) waitFor(t *testing.T, s string) {
	t.Helper()
	timeout := time.After(60 * time.Second)
	for {
		select {
		case line := <-l.lines:
			if strings.Contains(line, s) {
				return
			}
		case <-l.done:
			for {
				select {
				case line := <-l.lines:
					if strings.Contains(line, s) {
						return
					}
				default:
					t.Fatalf("stderr ended before a line with %q: %q", s, l.all())
				}
			}
		case <-timeout:
			t.Fatalf("no line with %q on stderr within 60 s: %q", s, l.all())
		}
	}
}

// has reports whether a line read so far contains s.
func (l *lineReader) has(s string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Contains(l.text.String(), s)
}

// all returns what was read, waiting briefly for the end of the stream.
func (l *lineReader) all() string {
	select {
	case <-l.done:
	case <-time.After(5 * time.Second):
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.text.String()
}

// exitCode waits for cmd and returns its exit code.
func exitCode(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("tsp did not exit within 30 s of the signal")
		return -1
	}
}

// genInstance writes a uniform random instance of n cities into a new
// temporary folder.
func genInstance(t testing.TB, n int) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), fmt.Sprintf("u%d.tsp", n))
	if r := bin(t, "gen", "--kind", "uniform", "--n", fmt.Sprint(n), "--seed", "7", "--out", p); r.code != 0 {
		t.Fatalf("gen: exit %d: %s", r.code, r.stderr)
	}
	return p
}

// oneLine checks that stderr is one "tsp" line mentioning each of want,
// optionally followed by the usage line, and that stdout is empty.
func failsWithLine(t *testing.T, r result, code int, want ...string) {
	t.Helper()
	if r.code != code {
		t.Errorf("exit %d, want %d (stderr %q)", r.code, code, r.stderr)
	}
	if r.stdout != "" {
		t.Errorf("stdout on an error: %q", r.stdout)
	}
	lines := strings.Split(strings.TrimRight(r.stderr, "\n"), "\n")
	if len(lines) > 2 || !strings.HasPrefix(lines[0], "tsp") || len(lines) == 2 && !strings.HasPrefix(lines[1], "Usage: tsp ") {
		t.Errorf("stderr is not one error line (and the usage line): %q", r.stderr)
	}
	for _, w := range want {
		if !strings.Contains(lines[0], w) {
			t.Errorf("stderr %q does not mention %q", lines[0], w)
		}
	}
}

// noTemps fails when a temporary output file is left in dir.
func noTemps(t testing.TB, dir string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}

// completeTour checks that path holds a whole tour of n cities.
func completeTour(t testing.TB, path string, n int) {
	t.Helper()
	if _, err := tsplib.ReadTour(path, n); err != nil {
		t.Errorf("tour %s: %v", path, err)
	}
}

// TestBinaryOutputTargetsCheckedFirst: a target that cannot be written
// fails before the run (a 20 s budget ends in well under one), with one
// line naming the flag; a target that is an input or another target is a
// usage error.
func TestBinaryOutputTargetsCheckedFirst(t *testing.T) {
	p := genInstance(t, 30)
	dir := filepath.Dir(p)
	file := writeTestFile(t, dir, "plain", "x")
	cases := []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"--out", dir}, 1, []string{"--out", "is a folder"}},
		{[]string{"--out", filepath.Join(dir, "none", "x.tour")}, 1, []string{"--out", "does not exist"}},
		{[]string{"--out", filepath.Join(file, "x.tour")}, 1, []string{"--out", file + " is not a folder"}},
		{[]string{"--json", "/proc/x.json"}, 1, []string{"--json", "/proc"}},
		{[]string{"--out", p}, 2, []string{"--out", "input file"}},
		{[]string{"--json", filepath.Join(dir, ".", filepath.Base(p))}, 2, []string{"--json", "input file"}},
		{[]string{"--out", filepath.Join(dir, "a"), "--json", filepath.Join(dir, "a")}, 2, []string{"--out and --json"}},
		{[]string{"--out", "-", "--json", "-"}, 2, []string{"stdout"}},
	}
	if st, err := os.Stat("/sys"); err == nil && st.IsDir() {
		cases = append(cases, struct {
			args []string
			code int
			want []string
		}{[]string{"--out", "/sys/x.tour"}, 1, []string{"--out", "/sys"}})
	}
	before, _ := os.ReadFile(p)
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			r := bin(t, append([]string{"solve", p, "--algo", "2opt-ils", "--backend", "cpu", "--time", "20s", "--quiet"}, c.args...)...)
			failsWithLine(t, r, c.code, c.want...)
			if r.wall > 10*time.Second {
				t.Errorf("failed after %v: the target was not checked before the run", r.wall)
			}
		})
	}
	if after, _ := os.ReadFile(p); !bytes.Equal(before, after) {
		t.Error("the input file changed")
	}
	noTemps(t, dir)
}

// TestBinaryOutDashAndReplace: --out - writes the tour to stdout (the
// summary goes to stderr); an existing --out file is replaced whole and
// keeps its permissions.
func TestBinaryOutDashAndReplace(t *testing.T) {
	p := genInstance(t, 40)
	dir := filepath.Dir(p)
	r := bin(t, "solve", p, "--algo", "2opt-ils", "--backend", "cpu", "--time", "200ms", "--out", "-")
	if r.code != 0 {
		t.Fatalf("--out -: exit %d: %s", r.code, r.stderr)
	}
	tourFile := writeTestFile(t, dir, "stdout.tour", r.stdout)
	completeTour(t, tourFile, 40)
	if !strings.Contains(r.stderr, "u40: length") {
		t.Errorf("no summary on stderr: %q", r.stderr)
	}
	old := writeTestFile(t, dir, "old.tour", strings.Repeat("stale content\n", 1000))
	if err := os.Chmod(old, 0o600); err != nil {
		t.Fatal(err)
	}
	r = bin(t, "solve", p, "--algo", "2opt-ils", "--backend", "cpu", "--time", "200ms", "--out", old, "--quiet")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	completeTour(t, old, 40)
	if st, err := os.Stat(old); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("replaced file: %v, mode %v (want 0600)", err, st.Mode().Perm())
	}
	noTemps(t, dir)
}

// TestBinaryOneOutputFails: when the report cannot be written (its folder
// vanished during the run) the tour is still written, the summary still
// printed, and the exit code is 1.
func TestBinaryOneOutputFails(t *testing.T) {
	p := genInstance(t, 40)
	dir := filepath.Dir(p)
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	tourPath := filepath.Join(dir, "t.tour")
	cmd, out, stderr := start(t, "solve", p, "--algo", "2opt-ils", "--backend", "cpu", "--time", "1500ms",
		"--out", tourPath, "--json", filepath.Join(sub, "r.json"))
	stderr.waitFor(t, "moves/s") // the run has started: the targets were checked
	if err := os.RemoveAll(sub); err != nil {
		t.Fatal(err)
	}
	if code := exitCode(t, cmd); code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	completeTour(t, tourPath, 40)
	if !strings.Contains(out.String(), "u40: length") {
		t.Errorf("no summary: %q", out.String())
	}
	if s := stderr.all(); !strings.Contains(s, "--json") || !strings.Contains(s, "r.json") {
		t.Errorf("stderr does not name the failed output: %q", s)
	}
}

// TestBinarySignals: SIGINT and SIGTERM both stop solve, which writes its
// best tour and report, prints its summary and exits 130 or 143.
func TestBinarySignals(t *testing.T) {
	p := genInstance(t, 200)
	dir := filepath.Dir(p)
	for _, c := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}} {
		t.Run(c.sig.String(), func(t *testing.T) {
			tourPath, jsonPath := filepath.Join(dir, "s.tour"), filepath.Join(dir, "s.json")
			os.Remove(tourPath)
			os.Remove(jsonPath)
			cmd, out, stderr := start(t, "solve", p, "--algo", "2opt-ils", "--backend", "cpu", "--time", "60s", "--out", tourPath, "--json", jsonPath)
			stderr.waitFor(t, "moves/s")
			if err := cmd.Process.Signal(c.sig); err != nil {
				t.Fatal(err)
			}
			if code := exitCode(t, cmd); code != c.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, c.code, stderr.all())
			}
			completeTour(t, tourPath, 200)
			data, err := os.ReadFile(jsonPath)
			if err != nil || !bytes.Contains(data, []byte(`"tour"`)) {
				t.Errorf("report after %v: %v", c.sig, err)
			}
			// the signal ended the run, not its 60-s limit
			var rep struct {
				StopReason solver.StopReason `json:"stop_reason"`
			}
			if err := json.Unmarshal(data, &rep); err != nil || rep.StopReason != solver.StopInterrupt {
				t.Errorf("report after %v: stop reason %q (%v), want %q", c.sig, rep.StopReason, err, solver.StopInterrupt)
			}
			if !strings.Contains(out.String(), "u200: length") {
				t.Errorf("no summary after %v: %q", c.sig, out.String())
			}
		})
	}
	noTemps(t, dir)
}

// TestBinarySignalOtherCommands: SIGTERM stops a long command other than
// solve (a bench suite) with exit code 143, not a swallowed signal.
func TestBinarySignalOtherCommands(t *testing.T) {
	p := genInstance(t, 300)
	cmd, _, stderr := start(t, "bench", "--suite", "cpu", "--tsplib", filepath.Dir(p), "--instances", "u300", "--time", "30s")
	stderr.waitFor(t, "")
	time.Sleep(300 * time.Millisecond)
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := exitCode(t, cmd); code != 143 {
		t.Errorf("bench after SIGTERM: exit %d, want 143 (stderr %q)", code, stderr.all())
	}
}

// TestBinaryStuckEngine: an engine that ignores the signal does not keep
// tsp alive: it exits stopGrace after SIGTERM with exit code 143 and no
// partial output. (This test binary stands in for tsp, to link an engine
// that hangs.)
func TestBinaryStuckEngine(t *testing.T) {
	p := genInstance(t, 20)
	dir := filepath.Dir(p)
	self, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	cmd := exec.Command(self, "solve", p, "--algo", "testhang", "--backend", "cpu", "--out", filepath.Join(dir, "h.tour"), "--bound", "0")
	cmd.Env = append(os.Environ(), asTSP+"=1")
	stderr := startCmd(t, cmd)
	stderr.waitFor(t, "moves/s")
	sent := time.Now()
	cmd.Process.Signal(syscall.SIGTERM)
	if code := exitCode(t, cmd); code != 143 {
		t.Errorf("exit %d, want 143", code)
	}
	if d := time.Since(sent); d < stopGrace || d > stopGrace+5*time.Second {
		t.Errorf("exited %v after SIGTERM, want about %v", d, stopGrace)
	}
	if s := stderr.all(); !strings.Contains(s, "still running") {
		t.Errorf("stderr does not say why it exited: %q", s)
	}
	if _, err := os.Stat(filepath.Join(dir, "h.tour")); err == nil {
		t.Error("a tour was written by a run that never ended")
	}
	noTemps(t, dir)
}

// TestBinarySecondSignal: a second Ctrl-C, at any moment of the output
// writing, leaves each target either absent or whole, and no temporary
// file behind.
func TestBinarySecondSignal(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 200k-city tours; skipped with -short")
	}
	p := genInstance(t, 200000)
	dir := filepath.Dir(p)
	// The writes take some 50..300 ms on the development machine: the
	// second signal lands before, during and after them.
	for _, gap := range []time.Duration{0, 20 * time.Millisecond, 60 * time.Millisecond, 100 * time.Millisecond, 150 * time.Millisecond, 250 * time.Millisecond} {
		tourPath, jsonPath := filepath.Join(dir, "big.tour"), filepath.Join(dir, "big.json")
		os.Remove(tourPath)
		os.Remove(jsonPath)
		cmd, _, stderr := start(t, "solve", p, "--algo", "sa", "--backend", "cpu", "--time", "60s", "--out", tourPath, "--json", jsonPath)
		stderr.waitFor(t, "moves/s")
		cmd.Process.Signal(syscall.SIGINT)
		time.Sleep(gap)
		cmd.Process.Signal(syscall.SIGINT)
		if code := exitCode(t, cmd); code != 130 {
			t.Errorf("gap %v: exit %d, want 130", gap, code)
		}
		if _, err := os.Stat(tourPath); err == nil {
			completeTour(t, tourPath, 200000)
		}
		if data, err := os.ReadFile(jsonPath); err == nil && !bytes.HasSuffix(bytes.TrimSpace(data), []byte("}")) {
			t.Errorf("gap %v: partial report (%d bytes)", gap, len(data))
		}
		noTemps(t, dir)
	}
}

// TestBinaryStdoutErrors: output lost to a full device is a failure.
func TestBinaryStdoutErrors(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full here")
	}
	defer full.Close()
	p := genInstance(t, 20)
	tour := writeTestFile(t, filepath.Dir(p), "id.tour", "TYPE : TOUR\nTOUR_SECTION\n1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20\n-1\n")
	for _, args := range [][]string{{"info", p}, {"eval", p, tour}, {"gen", "--kind", "circle", "--n", "10"}, {"engines"}, {"version"}, {"help"}} {
		cmd := exec.Command(binPath, args...)
		cmd.Stdout = full
		var errb bytes.Buffer
		cmd.Stderr = &errb
		err := cmd.Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 {
			t.Errorf("tsp %v > /dev/full: %v, want exit 1", args[0], err)
		}
		if !strings.Contains(errb.String(), "stdout") {
			t.Errorf("tsp %v > /dev/full: stderr %q does not say stdout failed", args[0], errb.String())
		}
	}
}

// TestBinaryUsageErrors: usage mistakes exit 2 with the message and usage
// line on stderr and nothing on stdout.
func TestBinaryUsageErrors(t *testing.T) {
	p := genInstance(t, 20)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"solve", p, "--algo", "nope"}, "--algo"},
		{[]string{"solve", p, "--t0", "1", "--tend", "5"}, "--t0"},
		{[]string{"solve", p, "--algo", "sa", "--t0", "0.01"}, "--t0"},
		{[]string{"solve", p, "--nope"}, "-nope"},
		{[]string{"solve", p, "--blocks", "x"}, "-blocks"},
		{[]string{"frobnicate"}, "frobnicate"},
		{[]string{"gen", "--kind", "circle", "--n", "-4"}, "--n"},
		{[]string{"bench", "--suite", "cpu", "--runs", "-1"}, "--runs"},
	}
	for _, c := range cases {
		r := bin(t, c.args...)
		if r.code != 2 || r.stdout != "" || !strings.Contains(r.stderr, c.want) {
			t.Errorf("tsp %v: exit %d (want 2), stdout %q, stderr %q", c.args, r.code, r.stdout, r.stderr)
		}
	}
}

// TestBinaryFlagRanges: every numeric flag out of its range is refused at
// once with exit 2 and one line naming the flag and the range; none
// panics, runs out of memory or overflows into a random tour.
func TestBinaryFlagRanges(t *testing.T) {
	p := genInstance(t, 50)
	cases := []struct{ flag, value string }{
		{"blocks", "4611686018427387904"}, {"blocks", "100000000"}, {"blocks", "-1"}, {"blocks", "65537"}, {"blocks", "10000000"},
		{"threads", "9223372036854775807"}, {"threads", "2048"},
		{"workers", "100000000"}, {"workers", "-3"},
		{"sweeps", "9223372036854775807"}, {"sweeps", "4611686018427387904"},
		{"k", "-1"}, {"k", "9223372036854775807"},
		{"time", "-1s"}, {"time", "100000h"},
		{"target", "-5"}, {"optimum", "-1"},
		{"t0", "NaN"}, {"t0", "+Inf"}, {"tend", "-1"}, {"alpha", "1"}, {"alpha", "NaN"},
		{"seed", "-1"}, {"seed", "18446744073709551616"},
	}
	for _, c := range cases {
		r := bin(t, "solve", p, "--backend", "cpu", "--time", "1s", "--"+c.flag, c.value)
		failsWithLine(t, r, 2, c.flag)
		if strings.Contains(r.stderr, "panic") || strings.Contains(r.stderr, "goroutine ") {
			t.Errorf("--%s %s: %s", c.flag, c.value, r.stderr)
		}
	}
	// workers × cities is bounded by memory: 2^25 / 200000 = 167.
	big := genInstance(t, 200000)
	r := bin(t, "solve", big, "--backend", "cpu", "--time", "1s", "--workers", "1000")
	failsWithLine(t, r, 2, "--workers", "for 200,000 cities", "..167")
}

// TestBinaryOptimumZero: a known optimum of 0 (all cities in one place) is
// shown as 0, not as unknown, and a tour of length 0 has gap 0.
func TestBinaryOptimumZero(t *testing.T) {
	dir := t.TempDir()
	p := writeTestFile(t, dir, "same.tsp", "NAME : same\nTYPE : TSP\nDIMENSION : 4\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n1 5 5\n2 5 5\n3 5 5\n4 5 5\nEOF\n")
	writeTestFile(t, dir, "optima.csv", "name,optimum\nsame,0\n")
	tour := writeTestFile(t, dir, "same.tour", "TYPE : TOUR\nDIMENSION : 4\nTOUR_SECTION\n1\n2\n3\n4\n-1\nEOF\n")
	r := bin(t, "info", p)
	if r.code != 0 || !strings.Contains(r.stdout, "optimum: 0 (from ") {
		t.Errorf("info: exit %d, %q", r.code, r.stdout)
	}
	r = bin(t, "eval", p, tour)
	if r.code != 0 || !strings.Contains(r.stdout, "gap: 0.0000% above the optimum 0") || lastLine(r.stdout) != "0" {
		t.Errorf("eval: exit %d, %q", r.code, r.stdout)
	}
	q := genInstance(t, 10)
	r = bin(t, "eval", q, writeTestFile(t, filepath.Dir(q), "id.tour", "TYPE : TOUR\nTOUR_SECTION\n1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n-1\n"), "--optimum", "0")
	if r.code != 0 || !strings.Contains(r.stdout, "optimum: 0") {
		t.Errorf("eval --optimum 0: exit %d, %q", r.code, r.stdout)
	}
}

// TestBinaryOptimaFIFO: an optima.csv (or NAME.opt.tour) that is a FIFO
// is not opened, so info does not wait on it for ever.
func TestBinaryOptimaFIFO(t *testing.T) {
	p := genInstance(t, 10)
	dir := filepath.Dir(p)
	for _, name := range []string{"optima.csv", "u10.opt.tour"} {
		if err := syscall.Mkfifo(filepath.Join(dir, name), 0o644); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
	}
	r := bin(t, "info", p)
	if r.code != 0 || !strings.Contains(r.stdout, "optimum: unknown") || r.wall > 10*time.Second {
		t.Errorf("info beside a FIFO: exit %d after %v, %q %q", r.code, r.wall, r.stdout, r.stderr)
	}
}
