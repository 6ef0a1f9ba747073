package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/internal/tsplibdir"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/buildinfo"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// tsp runs the command line and returns its exit code, stdout and stderr.
func tsp(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return tspCtx(t, context.Background(), args...)
}

func tspCtx(t *testing.T, ctx context.Context, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := runCtx(ctx, args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// oneErrorLine checks stderr is exactly one line "tsp: ..." containing want.
func oneErrorLine(t *testing.T, stderr string, want ...string) {
	t.Helper()
	lines := strings.Split(strings.TrimRight(stderr, "\n"), "\n")
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "tsp: ") {
		t.Fatalf("stderr is not one 'tsp: ' line: %q", stderr)
	}
	for _, w := range want {
		if !strings.Contains(lines[0], w) {
			t.Errorf("stderr %q does not mention %q", lines[0], w)
		}
	}
}

// genCircle writes circle-N.tsp (with optima.csv and the .opt.tour) into a
// temporary folder and returns its path.
func genCircle(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, fmt.Sprintf("circle-%d.tsp", n))
	if code, _, stderr := tsp(t, "gen", "--kind", "circle", "--n", strconv.Itoa(n), "--out", p, "--opt-tour"); code != 0 {
		t.Fatalf("gen: exit %d: %s", code, stderr)
	}
	return p
}

func writeTestFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

func TestHelpAndUsage(t *testing.T) {
	if code, out, _ := tsp(t, "help"); code != 0 || !strings.Contains(out, "tsp solve") {
		t.Errorf("help: exit %d, %q", code, out)
	}
	if code, out, _ := tsp(t, "-h"); code != 0 || !strings.Contains(out, "Exit codes") {
		t.Errorf("-h: exit %d, %q", code, out)
	}
	if code, out, _ := tsp(t, "solve", "-h"); code != 0 || !strings.Contains(out, "-backend") || !strings.Contains(out, "testclimb") {
		t.Errorf("solve -h: exit %d, %q", code, out)
	}
	if code, out, _ := tsp(t, "help", "render"); code != 0 || !strings.Contains(out, "-width") {
		t.Errorf("help render: exit %d, %q", code, out)
	}
	for _, args := range [][]string{{"solve", "-h"}, {"help", "solve"}, {"info", "--help"}} {
		if _, out, _ := tsp(t, args...); strings.Count(out, "Usage: tsp ") != 1 {
			t.Errorf("tsp %v: usage printed %d times, want once", args, strings.Count(out, "Usage: tsp "))
		}
	}
	for _, args := range [][]string{
		{}, {"frobnicate"}, {"help", "nothing"},
		{"solve"}, {"solve", "a.tsp", "b.tsp"}, {"solve", "a.tsp", "--nope"},
		{"solve", "a.tsp", "--backend", "tpu"}, {"solve", "a.tsp", "--time", "-1s"},
		{"solve", "a.tsp", "--blocks", "x"}, {"solve", "a.tsp", "--alpha", "1.5"},
		{"eval", "a.tsp"}, {"info"}, {"gen", "--kind", "circle"}, {"gen", "--kind", "spiral", "--n", "5"},
		{"render", "a.tsp"}, {"render", "a.tsp", "--out", "x.gif"}, {"render", "a.tsp", "--out", "x.png", "--width", "0"},
		{"bench"}, {"bench", "--suite", "no-such-suite"}, {"bench", "--suite", "delevacq", "--scale", "2"}, {"bench", "--suite", "delevacq", "--scale", "-0.5"}, {"bench", "--suite", "cpu", "--peer-lkh", "LKH"}, {"version", "extra"},
		{"solve", "a.tsp", "--algo", "no-such-algo"}, {"solve", "a.tsp", "--t0", "2", "--tend", "3"},
	} {
		code, stdout, stderr := tsp(t, args...)
		if code != 2 || stderr == "" || stdout != "" {
			t.Errorf("tsp %v: exit %d (want 2), stdout %q (want none), stderr %q", args, code, stdout, stderr)
		}
	}
}

func TestGenInfoEval(t *testing.T) {
	p := genCircle(t, 60)
	dir := filepath.Dir(p)
	opt, err := tsplib.ReadOptima(filepath.Join(dir, "optima.csv"))
	if err != nil || opt["circle-60"] <= 0 {
		t.Fatalf("optima.csv: %v %v", opt, err)
	}
	code, out, _ := tsp(t, "info", p)
	for _, want := range []string{"name: circle-60", "dimension: 60", "edge_weight_type: EUC_2D", "optimum: " + solver.GroupDigits(strconv.FormatInt(opt["circle-60"], 10))} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("info: exit %d, output %q lacks %q", code, out, want)
		}
	}
	code, out, stderr := tsp(t, "eval", p, filepath.Join(dir, "circle-60.opt.tour"))
	if code != 0 || lastLine(out) != strconv.FormatInt(opt["circle-60"], 10) {
		t.Errorf("eval opt tour: exit %d, last line %q, want %d (%s)", code, lastLine(out), opt["circle-60"], stderr)
	}
	// A tour in another order has its own length.
	tour := filepath.Join(dir, "zigzag.tour")
	var b strings.Builder
	b.WriteString("TYPE : TOUR\nDIMENSION : 60\nTOUR_SECTION\n")
	for i := 0; i < 60; i += 2 {
		fmt.Fprintf(&b, "%d\n", i+1)
	}
	for i := 1; i < 60; i += 2 {
		fmt.Fprintf(&b, "%d\n", i+1)
	}
	b.WriteString("-1\nEOF\n")
	writeTestFile(t, dir, "zigzag.tour", b.String())
	in, err := tsplib.Read(p)
	if err != nil {
		t.Fatal(err)
	}
	var order []int
	for i := 0; i < 60; i += 2 {
		order = append(order, i)
	}
	for i := 1; i < 60; i += 2 {
		order = append(order, i)
	}
	code, out, _ = tsp(t, "eval", p, tour)
	if want := strconv.FormatInt(solver.TourLength(in, order), 10); code != 0 || lastLine(out) != want {
		t.Errorf("eval zigzag: exit %d, last line %q, want %s", code, lastLine(out), want)
	}

	// gen of a grid adds its row to the same optima.csv.
	g := filepath.Join(dir, "g.tsp")
	if code, _, stderr := tsp(t, "gen", "--kind", "grid", "--n", "24", "--out", g); code != 0 {
		t.Fatalf("gen grid: %d %s", code, stderr)
	}
	opt, _ = tsplib.ReadOptima(filepath.Join(dir, "optima.csv"))
	if opt["g"] != 2400 || opt["circle-60"] == 0 {
		t.Errorf("optima.csv after grid: %v", opt)
	}
	// uniform: no optimum row; stdout when no --out.
	code, out, _ = tsp(t, "gen", "--kind", "uniform", "--n", "10", "--seed", "5")
	if code != 0 || !strings.Contains(out, "NODE_COORD_SECTION") || !strings.Contains(out, "DIMENSION : 10") {
		t.Errorf("gen to stdout: exit %d, %q", code, out)
	}
	// A grid with odd n is a usage error, as every bad --n.
	code, _, stderr = tsp(t, "gen", "--kind", "grid", "--n", "25", "--out", filepath.Join(dir, "odd.tsp"))
	if code != 2 || !strings.Contains(firstLine(stderr), "--n 25: grid needs an even n") {
		t.Errorf("gen odd grid: exit %d, %q", code, stderr)
	}
}

func TestEvalBadTours(t *testing.T) {
	p := genCircle(t, 5)
	dir := filepath.Dir(p)
	dup := writeTestFile(t, dir, "dup.tour", "TYPE : TOUR\nTOUR_SECTION\n1\n2\n2\n4\n5\n-1\nEOF\n")
	code, out, stderr := tsp(t, "eval", p, dup)
	if code != 1 || out != "" {
		t.Errorf("duplicate city: exit %d, stdout %q", code, out)
	}
	oneErrorLine(t, stderr, dup+":")
	short := writeTestFile(t, dir, "short.tour", "TOUR_SECTION\n1\n2\n3\n-1\n")
	code, _, stderr = tsp(t, "eval", p, short)
	if code != 1 {
		t.Errorf("short tour: exit %d", code)
	}
	oneErrorLine(t, stderr, short)
	code, _, stderr = tsp(t, "eval", p, filepath.Join(dir, "missing.tour"))
	if code != 1 {
		t.Errorf("missing tour: exit %d", code)
	}
	oneErrorLine(t, stderr, "missing.tour")
}

func TestBadInstanceFiles(t *testing.T) {
	dir := t.TempDir()
	bad := writeTestFile(t, dir, "bad.tsp", "NAME : bad\nTYPE : TSP\nDIMENSION : 3\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 x 1\n3 1 1\nEOF\n")
	for _, cmd := range [][]string{{"info", bad}, {"solve", bad, "--algo", "testclimb"}, {"render", bad, "--out", filepath.Join(dir, "x.png")}} {
		code, _, stderr := tsp(t, cmd...)
		if code != 1 {
			t.Errorf("%v: exit %d", cmd, code)
		}
		oneErrorLine(t, stderr, bad+":7:")
	}
	code, _, stderr := tsp(t, "info", filepath.Join(dir, "nothere.tsp"))
	if code != 1 {
		t.Errorf("missing file: exit %d", code)
	}
	oneErrorLine(t, stderr, "nothere.tsp")
}

// TestCommandStart: --time counts from the process's start when it is
// known and plausible (the binary's loading and the driver's start-up are
// the command's too), else from the command's own start; the process
// start read from /proc is never after now.
func TestCommandStart(t *testing.T) {
	now := time.Now()
	for _, c := range []struct {
		process, want time.Time
	}{
		{now.Add(-150 * time.Millisecond), now.Add(-150 * time.Millisecond)},
		{time.Time{}, now},
		{now.Add(time.Second), now},
		{now.Add(-time.Minute), now},
	} {
		if got := commandStart(now, c.process); !got.Equal(c.want) {
			t.Errorf("commandStart(now, now%+v) = now%+v, want now%+v", c.process.Sub(now), got.Sub(now), c.want.Sub(now))
		}
	}
	if runtime.GOOS != "linux" {
		return
	}
	now = time.Now()
	if s := processStart(now); s.IsZero() || s.After(now) {
		t.Errorf("processStart = %v, want a time not after now %v", s, now)
	}
}

// TestEndReserve: the engine's limit keeps back the end of the run, in
// proportion to the cities (most of a second at ten million, nothing to
// speak of at a few thousand) and at least half the time reading took,
// more when the tour is written: a machine that read slowly ends slowly.
func TestEndReserve(t *testing.T) {
	if r := endReserve(10_000_000, time.Second, 0); r < 500*time.Millisecond || r > time.Second {
		t.Errorf("endReserve(10M, read 1 s) = %v, want 0.5-1 s", r)
	}
	if r := endReserve(5000, time.Millisecond, 1); r > time.Millisecond {
		t.Errorf("endReserve(5000) = %v, want under a millisecond", r)
	}
	if r := endReserve(10_000_000, 5*time.Second, 0); r != 2500*time.Millisecond {
		t.Errorf("endReserve(10M, read 5 s) = %v, want 2.5 s", r)
	}
	if r, w := endReserve(10_000_000, 4*time.Second, 0), endReserve(10_000_000, 4*time.Second, 1); w <= r {
		t.Errorf("writing the tour reserves nothing more: %v, %v", r, w)
	}
	if one, two := endReserve(10_000_000, 4*time.Second, 1), endReserve(10_000_000, 4*time.Second, tourOutputs("t.tour", "r.json")); two <= one {
		t.Errorf("--out and --json reserve no more than one of them: %v, %v", one, two)
	}
	if k := tourOutputs("", "r.json"); k != 1 {
		t.Errorf("tourOutputs(\"\", r.json) = %d, want 1", k)
	}
	res := endReserve(10_000_000, 0, 0)
	start := time.Now().Add(-time.Second)
	ctx, cancel := runContext(context.Background(), start, 60*time.Second, res)
	defer cancel()
	if d, ok := ctx.Deadline(); !ok || !d.Equal(start.Add(60*time.Second-res)) {
		t.Errorf("60 s, 1 s spent at 10M cities: deadline %v after the start", d.Sub(start))
	}
}

// TestSolveTimeFromStart: the run's context ends --time after the
// command's start (at least a millisecond from now), for the time limit,
// and the report keeps the limit asked for beside the time granted.
func TestSolveTimeFromStart(t *testing.T) {
	for _, c := range []struct{ limit, spent, want time.Duration }{
		{5 * time.Second, time.Second, 4 * time.Second},
		{5 * time.Second, 6 * time.Second, time.Millisecond},
		{0, time.Second, 0},
	} {
		now := time.Now()
		ctx, cancel := runContext(context.Background(), now.Add(-c.spent), c.limit, 0)
		d, ok := ctx.Deadline()
		switch {
		case c.want == 0 && ok:
			t.Errorf("limit %v: deadline %v", c.limit, d)
		case c.want > 0 && (!ok || d.Before(now.Add(c.want)) || d.After(time.Now().Add(c.want))):
			t.Errorf("limit %v, %v spent: deadline %v from now, want %v", c.limit, c.spent, d.Sub(now), c.want)
		}
		if c.want == time.Millisecond {
			<-ctx.Done()
			if !errors.Is(context.Cause(ctx), solver.ErrTimeLimit) {
				t.Errorf("a run past its limit ends with %v, not the time limit", context.Cause(ctx))
			}
		}
		cancel()
	}
	p := genCircle(t, 40)
	jsonPath := filepath.Join(filepath.Dir(p), "w.json")
	if code, _, stderr := tsp(t, "solve", p, "--algo", "testwait", "--time", "200ms", "--json", jsonPath, "--quiet"); code != 0 {
		t.Fatalf("solve: exit %d: %s", code, stderr)
	}
	var rep struct {
		Params struct {
			TimeLimit int64 `json:"time_limit_ns"`
		} `json:"params"`
		Limit   float64 `json:"time_limit_seconds"`
		Granted float64 `json:"time_granted_seconds"`
	}
	data, err := os.ReadFile(jsonPath)
	if err == nil {
		err = json.Unmarshal(data, &rep)
	}
	if err != nil || rep.Params.TimeLimit != int64(200*time.Millisecond) || rep.Limit != 0.2 {
		t.Errorf("report's time limit %d, %v s (%v), want the 200ms asked for", rep.Params.TimeLimit, rep.Limit, err)
	}
	// the engine was given what the command's start left of the limit
	if !(rep.Granted > 0 && rep.Granted < 0.2) {
		t.Errorf("time granted %v s of the 0.2 asked", rep.Granted)
	}
}

func TestSolveJSONAndOut(t *testing.T) {
	p := genCircle(t, 40)
	dir := filepath.Dir(p)
	jsonPath, tourPath := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.tour")
	code, out, stderr := tsp(t, "solve", p, "--algo", "testclimb", "--backend", "cpu", "--seed", "3",
		"--json", jsonPath, "--out", tourPath, "--quiet")
	if code != 0 {
		t.Fatalf("solve: exit %d: %s", code, stderr)
	}
	if stderr != "" || out != "" {
		t.Errorf("--quiet printed %q on stdout, %q on stderr", out, stderr)
	}
	data, err := os.ReadFile(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	var rep map[string]any
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatalf("report is not JSON: %v", err)
	}
	for _, k := range []string{"instance", "dimension", "algorithm", "backend", "device", "seed", "params", "length", "optimum", "gap_percent", "elapsed_seconds", "moves_evaluated", "moves_per_second", "tour"} {
		if _, ok := rep[k]; !ok {
			t.Errorf("report lacks %q", k)
		}
	}
	if rep["instance"] != "circle-40" || rep["dimension"].(float64) != 40 || rep["algorithm"] != "testclimb" || rep["seed"].(float64) != 3 || rep["optimum"] == nil || rep["gap_percent"] == nil {
		t.Errorf("report: %v", rep)
	}
	// The tour is 1-based, a permutation, and --out holds the same tour.
	var ids []int
	for _, v := range rep["tour"].([]any) {
		ids = append(ids, int(v.(float64))-1)
	}
	if err := solver.ValidateTour(ids, 40); err != nil {
		t.Fatalf("report tour: %v", err)
	}
	written, err := tsplib.ReadTour(tourPath, 40)
	if err != nil {
		t.Fatal(err)
	}
	for i := range ids {
		if ids[i] != written[i] {
			t.Fatalf("--out tour differs from the report at %d", i)
		}
	}
	code, evalOut, _ := tsp(t, "eval", p, tourPath)
	if code != 0 || lastLine(evalOut) != strconv.Itoa(int(rep["length"].(float64))) {
		t.Errorf("eval of --out: %q, report length %v", lastLine(evalOut), rep["length"])
	}
	// A missing output folder fails before the run.
	code, _, stderr = tsp(t, "solve", p, "--algo", "testclimb", "--out", filepath.Join(dir, "no", "x.tour"))
	if code != 1 {
		t.Errorf("--out into a missing folder: exit %d", code)
	}
	oneErrorLine(t, stderr, "does not exist")
	// --json - writes only JSON on stdout; --optimum overrides the optimum.
	code, out, _ = tsp(t, "solve", p, "--algo", "testclimb", "--json", "-", "--quiet", "--optimum", "1000")
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil || rep["optimum"].(float64) != 1000 {
		t.Errorf("--json -: exit %d, %q", code, out)
	}
}

func TestSolveProgressAndNote(t *testing.T) {
	p := genCircle(t, 20)
	code, _, stderr := tsp(t, "solve", p, "--algo", "testwait", "--time", "300ms")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if strings.Contains(stderr, "note:") {
		t.Errorf("auto backend without a GPU engine, no GPU asked for: a note in %q", stderr)
	}
	if !strings.Contains(stderr, "moves/s") || !strings.Contains(stderr, "best ") || !strings.Contains(stderr, "gap ") {
		t.Errorf("no progress line in %q", stderr)
	}
	if strings.Contains(stderr, "\r") {
		t.Errorf("carriage return in non-terminal progress: %q", stderr)
	}
}

func TestSolveInterrupted(t *testing.T) {
	p := genCircle(t, 30)
	dir := filepath.Dir(p)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel) // as Ctrl-C does through signal.NotifyContext
	jsonPath, tourPath := filepath.Join(dir, "i.json"), filepath.Join(dir, "i.tour")
	code, _, stderr := tspCtx(t, ctx, "solve", p, "--algo", "testwait", "--backend", "cpu", "--json", jsonPath, "--out", tourPath, "--quiet")
	if code != exitInterrupt {
		t.Fatalf("interrupted solve: exit %d: %s", code, stderr)
	}
	var rep struct {
		Stopped bool  `json:"stopped"`
		Tour    []int `json:"tour"`
	}
	data, err := os.ReadFile(jsonPath)
	if err != nil || json.Unmarshal(data, &rep) != nil || !rep.Stopped || len(rep.Tour) != 30 {
		t.Errorf("report after interrupt: %s %v", data, err)
	}
	if _, err := tsplib.ReadTour(tourPath, 30); err != nil {
		t.Errorf("tour after interrupt: %v", err)
	}
}

// TestSolveSIGINT sends a real SIGINT to the test process while run
// solves: the run stops, exits 130 and still writes its tour and summary.
func TestSolveSIGINT(t *testing.T) {
	p := genCircle(t, 30)
	tourPath := filepath.Join(filepath.Dir(p), "sig.tour")
	pr, pw := io.Pipe()
	var out bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run([]string{"solve", p, "--algo", "testwait", "--backend", "cpu", "--time", "20s", "--out", tourPath}, strings.NewReader(""), &out, pw)
		pw.Close()
	}()
	// The first progress line means run's signal handler is in place.
	sc := bufio.NewScanner(pr)
	if !sc.Scan() {
		t.Fatal("no progress line")
	}
	go io.Copy(io.Discard, pr)
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Skipf("cannot signal: %v", err)
	}
	select {
	case code := <-done:
		if code != exitInterrupt || !strings.Contains(out.String(), "circle-30: length") {
			t.Errorf("after SIGINT: exit %d, stdout %q", code, out.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("SIGINT did not stop the run")
	}
	if _, err := tsplib.ReadTour(tourPath, 30); err != nil {
		t.Errorf("tour after SIGINT: %v", err)
	}
}

func TestSolveGPUBackendWithoutCUDA(t *testing.T) {
	if device.BuiltWithCUDA() {
		t.Skip("built with CUDA")
	}
	p := genCircle(t, 10)
	for _, algo := range []string{"testclimb", "auto"} {
		code, _, stderr := tsp(t, "solve", p, "--algo", algo, "--backend", "gpu")
		if code != 1 {
			t.Errorf("--algo %s --backend gpu: exit %d", algo, code)
		}
		oneErrorLine(t, stderr, "CUDA")
	}
	// A bad engine option is a usage error even where the engine cannot
	// run: one line naming the option and what it takes, exit 2.
	for _, c := range []struct{ algo, opt, want string }{
		{"pspm", "draw=near", "--opt draw near is unknown: want one of auto|uniform|nn|mixed"},
		{"pspm", "nnk=1", "--opt nnk 1 is out of range: want 2..32"},
		{"3opt-ils", "dist=gpu", "--opt dist gpu is unknown: want one of auto|coords|matrix"},
		{"auto", "wsegment=0", "--opt wsegment 0 is out of range: want 1..512"},
		{"2opt-climb", "start=greedy", "--opt start greedy is unknown: want one of nn|random"},
	} {
		code, _, stderr := tsp(t, "solve", p, "--algo", c.algo, "--backend", "gpu", "--opt", c.opt)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("--algo %s --backend gpu --opt %s: exit %d, stderr %q; want 2 and %q", c.algo, c.opt, code, stderr, c.want)
		}
	}
}

func TestRender(t *testing.T) {
	p := genCircle(t, 50)
	dir := filepath.Dir(p)
	opt := filepath.Join(dir, "circle-50.opt.tour")
	for _, f := range []string{"png", "svg", "pdf"} {
		out := filepath.Join(dir, "r."+f)
		code, _, stderr := tsp(t, "render", p, "--tour", opt, "--out", out, "--width", "300", "--optimal")
		if code != 0 {
			t.Fatalf("render %s: exit %d: %s", f, code, stderr)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		switch f {
		case "png":
			img, err := png.Decode(bytes.NewReader(data))
			if err != nil || img.Bounds().Dx() != 300 {
				t.Errorf("png: %v", err)
			}
		case "svg":
			if !bytes.Contains(data, []byte("<svg")) || !bytes.Contains(data, []byte("<path")) || !bytes.Contains(data, []byte("0.00 % above")) {
				t.Errorf("svg lacks svg, path or the title's gap")
			}
		case "pdf":
			if !bytes.HasPrefix(data, []byte("%PDF-")) || !bytes.Contains(data, []byte("%%EOF")) {
				t.Errorf("pdf header or EOF missing")
			}
		}
	}
	explicit := writeTestFile(t, dir, "m.tsp", "NAME : m\nTYPE : TSP\nDIMENSION : 3\nEDGE_WEIGHT_TYPE : EXPLICIT\nEDGE_WEIGHT_FORMAT : FULL_MATRIX\nEDGE_WEIGHT_SECTION\n0 1 2\n1 0 3\n2 3 0\nEOF\n")
	code, _, stderr := tsp(t, "render", explicit, "--out", filepath.Join(dir, "m.png"))
	if code != 1 {
		t.Errorf("explicit render: exit %d", code)
	}
	oneErrorLine(t, stderr, "no coordinates")
}

func TestVersion(t *testing.T) {
	code, out, _ := tsp(t, "version")
	for _, want := range []string{"tsp " + buildinfo.Version(), "go1", "cuda:"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("version: exit %d, %q lacks %q", code, out, want)
		}
	}
}

func TestTSPLIBInfoEval(t *testing.T) {
	a280 := tsplibdir.Instance(t, "a280")
	code, out, _ := tsp(t, "info", a280)
	if code != 0 || !strings.Contains(out, "dimension: 280") || !strings.Contains(out, "optimum: 2,579") {
		t.Errorf("info a280: %d %q", code, out)
	}
	opt := filepath.Join(filepath.Dir(a280), "opt", "a280.opt.tour")
	if _, err := os.Stat(opt); err != nil {
		t.Skip("a280.opt.tour not found")
	}
	code, out, _ = tsp(t, "eval", a280, opt)
	if code != 0 || lastLine(out) != "2579" {
		t.Errorf("eval a280 optimal tour: %d %q", code, out)
	}
}

// TestQualityFloor: the default CPU engine on a deterministic budget (one
// worker, a fixed number of kicks, no time limit, so no clock decides the
// outcome, also under -race) ends within 5% of a280's optimum.
func TestQualityFloor(t *testing.T) {
	a280 := tsplibdir.Instance(t, "a280")
	eng, err := solver.Lookup("auto", solver.BackendCPU)
	if err != nil {
		t.Skip("no CPU auto engine registered")
	}
	in, err := tsplib.Load(a280)
	if err != nil {
		t.Fatal(err)
	}
	p := solver.Params{Algorithm: "auto", Backend: solver.BackendCPU, Workers: 1, Seed: 1, Extra: map[string]string{"kicks": "300"}}
	res, err := eng.Solve(context.Background(), in, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Stopped {
		t.Fatalf("the run stopped on a clock, not on its kick budget: %+v", res.Params)
	}
	g, ok := solver.GapPercent(res.Length, in.Optimum)
	if !ok || g > 5 {
		t.Errorf("a280 after 300 kicks: length %d, gap %.2f%% (want ≤ 5%%)", res.Length, g)
	}
	t.Logf("a280, auto/cpu, 1 worker, 300 kicks: length %d, gap %.2f%%, %v", res.Length, g, res.Elapsed)
}

func TestProgressLine(t *testing.T) {
	in := solver.NewCoordInstance("x", solver.Euc2D, []float64{0, 3}, []float64{0, 4}, nil)
	in.Optimum = 100
	p := &progress{in: in, terminal: true, limit: 4 * time.Second}
	p.best = 110
	got := p.line(solver.Snapshot{Length: 120, BestLength: 110, Moves: 2000, Elapsed: 2 * time.Second})
	for _, want := range []string{"[######......]", "best 110", "gap 10.00%", "1k moves/s", "2.0s"} {
		if !strings.Contains(got, want) {
			t.Errorf("progress line %q lacks %q", got, want)
		}
	}
	// The phase is said in words, bracketed: a bare "bound  length 379512"
	// read as a bound above the optimum.
	got = p.line(solver.Snapshot{Phase: solver.PhaseBound, Length: 120, BestLength: 110, Elapsed: time.Second})
	if !strings.Contains(got, "] [computing a lower bound]  best 110") {
		t.Errorf("bound phase line %q", got)
	}
	p.terminal = false
	if got := p.line(solver.Snapshot{Phase: solver.PhaseStart, BestLength: 110, Best: []int{0, 1}}); !strings.HasPrefix(got, "tsp: [building the start tour]  best 110") {
		t.Errorf("plain start tour phase line %q", got)
	}
	pool := &solver.Account{Search: solver.SearchPopulation, Pool: &solver.PoolAccount{Tours: 8, Capacity: 8}, LastGain: solver.SourceGPU}
	if got := p.line(solver.Snapshot{Phase: solver.PhaseRecombine, BestLength: 110, Account: pool}); !strings.HasPrefix(got, "tsp: [recombining 8 tours]  best 110") {
		t.Errorf("recombining line %q", got)
	}
	if got := p.line(solver.Snapshot{Progress: 1}); strings.Contains(got, "[") {
		t.Errorf("plain line has a bar: %q", got)
	}
	p.best = 0
	if got := p.line(solver.Snapshot{Phase: solver.PhaseSetup}); !strings.Contains(got, "no tour yet") {
		t.Errorf("line before any tour %q", got)
	}
}

// TestProgressLineWidth: a line of the longest phase and lengths fits an
// 80-column terminal, and long lengths are grouped by threes.
func TestProgressLineWidth(t *testing.T) {
	in := solver.NewCoordInstance("x", solver.GreatCircle, []float64{0, 3}, []float64{0, 4}, nil)
	p := &progress{in: in, terminal: true, limit: time.Minute, best: 93809570123, lb: 93000000000}
	evolve := &solver.Account{EAX: &solver.EAXAccount{Populations: 12, Descents: 4560, Built: 1230, FromGPU: 3200}}
	pool := &solver.Account{Pool: &solver.PoolAccount{Tours: 8, Capacity: 8}, LastGain: solver.SourceGPU}
	for _, s := range []solver.Snapshot{{Phase: solver.PhaseEvolve, Account: evolve}, {Phase: solver.PhaseRecombine, Account: pool}, {Phase: solver.PhaseSearch}} {
		s.BestLength, s.Moves, s.Elapsed = 93809570123, 123456789012, 12345*time.Second
		got := p.line(s)
		if n := len([]rune(got)); n > progressWidth {
			t.Errorf("%d columns: %q", n, got)
		}
		if !strings.Contains(got, "best 93,809,570,123 m") {
			t.Errorf("length not grouped: %q", got)
		}
	}
}

// A --optima path that does not exist is refused with one line naming it,
// by every command that takes the flag, instead of being read as an
// instance without a known optimum.
func TestOptimaPathMissing(t *testing.T) {
	p := genCircle(t, 12)
	missing := filepath.Join(t.TempDir(), "no-such-folder")
	for _, args := range [][]string{
		{"info", p, "--optima", missing},
		{"eval", p, strings.TrimSuffix(p, ".tsp") + ".opt.tour", "--optima", missing},
		{"bound", p, "--optima", missing},
		{"solve", p, "--time", "50ms", "--quiet", "--optima", missing},
		{"render", p, "--out", filepath.Join(t.TempDir(), "x.png"), "--optima", missing},
	} {
		code, _, stderr := tsp(t, args...)
		if code != 1 {
			t.Errorf("tsp %v: exit %d, want 1", args, code)
		}
		oneErrorLine(t, stderr, "--optima", missing)
	}
	if code, _, stderr := tsp(t, "info", p, "--optima", filepath.Dir(p)); code != 0 {
		t.Errorf("info with an existing --optima folder: exit %d: %s", code, stderr)
	}
	// A named table that does not read, or a file that is no table, is an
	// error naming it too (the lookup passes over such tables silently).
	bad := filepath.Join(t.TempDir(), "optima.csv")
	if err := os.WriteFile(bad, []byte("name,optimum\ncircle-12,abc\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, o := range []string{bad, filepath.Dir(bad)} {
		code, _, stderr := tsp(t, "info", p, "--optima", o)
		if code != 1 {
			t.Errorf("info --optima %s (a broken table): exit %d, want 1", o, code)
		}
		oneErrorLine(t, stderr, "--optima", bad+":2")
	}
	code, _, stderr := tsp(t, "info", p, "--optima", p)
	if code != 1 {
		t.Errorf("info --optima with an instance file: exit %d, want 1", code)
	}
	oneErrorLine(t, stderr, "--optima", "not a folder or a .csv table")
}

// gen --n 0 says what is wrong with the value given, not that --n is
// missing.
func TestGenZeroCities(t *testing.T) {
	code, _, stderr := tsp(t, "gen", "--kind", "uniform", "--n", "0")
	if code != 2 || !strings.Contains(stderr, "--n 0 is out of range") {
		t.Errorf("gen --n 0: exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = tsp(t, "gen", "--kind", "uniform")
	if code != 2 || !strings.Contains(stderr, "--kind and --n are required") {
		t.Errorf("gen without --n: exit %d, stderr %q", code, stderr)
	}
}

// An annealer says which schedule it ran, in the summary and the JSON:
// fitted to a time limit, or as given when alpha is set.
func TestSolveScheduleReport(t *testing.T) {
	p := genCircle(t, 120)
	dir := filepath.Dir(p)
	jsonPath := filepath.Join(dir, "r.json")
	code, out, stderr := tsp(t, "solve", p, "--algo", "sa", "--backend", "cpu", "--time", "300ms", "--json", jsonPath, "--verbose")
	if code != 0 {
		t.Fatalf("solve: exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "\nschedule fitted to the time limit: alpha ") {
		t.Errorf("summary lacks the fitted schedule: %q", out)
	}
	data, err := os.ReadFile(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Schedule *solver.ScheduleRun `json:"schedule"`
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Schedule == nil || !rep.Schedule.Fitted || rep.Schedule.Steps < 1 || !(rep.Schedule.Alpha0 > 0 && rep.Schedule.Alpha0 < 1) {
		t.Fatalf("report schedule %+v", rep.Schedule)
	}
	code, out, stderr = tsp(t, "solve", p, "--algo", "sa", "--backend", "cpu", "--time", "10s", "--alpha", "0.9", "--verbose")
	if code != 0 || !strings.Contains(out, "\nschedule as given: alpha 0.9, ") {
		t.Fatalf("pinned schedule: exit %d, %q %s", code, out, stderr)
	}
	// Engines without a schedule print none.
	code, out, _ = tsp(t, "solve", p, "--algo", "testclimb", "--verbose")
	if code != 0 || strings.Contains(out, "schedule") {
		t.Fatalf("testclimb: exit %d, %q", code, out)
	}
}

// A run that reaches the known optimum stops there and says so, long
// before its time limit.
func TestSolveStopsAtOptimum(t *testing.T) {
	p := genCircle(t, 40)
	code, out, stderr := tsp(t, "solve", p, "--algo", "2opt-ils", "--backend", "cpu", "--time", "10m", "--json", "-", "--quiet")
	if code != 0 {
		t.Fatalf("solve: exit %d: %s", code, stderr)
	}
	var rep map[string]any
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep["stop_reason"] != "optimum" || rep["length"] != rep["optimum"] || rep["stopped"] != true {
		t.Fatalf("stop_reason %v, length %v, optimum %v, stopped %v", rep["stop_reason"], rep["length"], rep["optimum"], rep["stopped"])
	}
	code, out, _ = tsp(t, "solve", p, "--algo", "2opt-ils", "--backend", "cpu", "--time", "10m")
	if code != 0 || !strings.Contains(out, "optimum reached") {
		t.Fatalf("summary: exit %d, %q", code, out)
	}
}

// A climb that cannot finish in the time given says so once, after the
// summary (a 5,000-city climb's last pass alone evaluates 12.5 million
// moves).
func TestSolveClimbNote(t *testing.T) {
	p := filepath.Join(t.TempDir(), "u5000.tsp")
	if code, _, stderr := tsp(t, "gen", "--kind", "uniform", "--n", "5000", "--out", p); code != 0 {
		t.Fatalf("gen: exit %d: %s", code, stderr)
	}
	code, out, stderr := tsp(t, "solve", p, "--algo", "2opt-climb", "--backend", "cpu", "--time", "50ms", "--bound", "0")
	if code != 0 {
		t.Fatalf("solve: exit %d: %s", code, stderr)
	}
	if strings.Count(out, "no climb reached a local minimum in the time given") != 1 {
		t.Fatalf("summary %q: want the note once", out)
	}
}
