package bench

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tsplab/tsplab/internal/tsplibdir"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/gen"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// lkhEnv names the LKH-3 executable the tests that run the real one use;
// they skip without it.
const lkhEnv = "TSPLAB_LKH"

// A trace in LKH-3's format at TRACE_LEVEL = 1, written for the test.
const lkhSample = `PARAMETER_FILE = run.par
Reading PROBLEM_FILE: "problem.tsp" ... done
CANDIDATE_SET_TYPE = QUADRANT
MAX_CANDIDATES = 5
RUNS = 1
Lower bound = 19816345.0, Gap = 0.83%, Ascent time = 0.00 sec.
Cand.min = 2, Cand.avg = 5.0, Cand.max = 5
Preprocessing time = 0.23 sec.
* 1: Cost = 20230011, Gap = 1.0363%, Time = 2.51 sec.
* 2: Cost = 20150002, Gap = 0.6368%, Time = 2.97 sec.
  3: Cost = 20160000, Gap = 0.6867%, Time = 3.30 sec.
* 4: Cost = 20049999, Time = 3.75 sec.
* 5: Cost = 0_20040000, Time = 3.80 sec.
*** Time limit exceeded ***
Run 1: Cost = 20049999, Gap = 0.1373%, Time = 19.80 sec. <

Successes/Runs = 0/1
Cost.min = 20049999, Cost.avg = 20049999.00, Cost.max = 20049999
Time.total = 20.25 sec.
`

func TestParseLKHLine(t *testing.T) {
	var got []lkhEvent
	for _, line := range strings.Split(lkhSample, "\n") {
		if ev, ok := parseLKHLine(line); ok {
			got = append(got, ev)
		}
	}
	want := []lkhEvent{
		{kind: 'P', sec: 0.23},
		{'*', 1, 20230011, 2.51},
		{'*', 2, 20150002, 2.97},
		{'*', 4, 20049999, 3.75},
		{'R', 1, 20049999, 19.80},
	}
	if len(got) != len(want) {
		t.Fatalf("events %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("event %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	for _, bad := range []string{"* x: Cost = 5, Time = 1.00 sec.", "* 3: Cost = 5", "* 3: Time = 1.00 sec.", "Run 1: Cost = -4, Time = 1.00 sec.",
		"* 0: Cost = 5, Time = 1.00 sec.", "Preprocessing time = soon", "Cost = 5, Time = 1.00 sec."} {
		if ev, ok := parseLKHLine(bad); ok {
			t.Errorf("%q read as %+v", bad, ev)
		}
	}
}

func TestLKHSettings(t *testing.T) {
	if p := lkhSettingFor(2392).params; len(p) != 0 {
		t.Errorf("pr2392 gets %v, want LKH's defaults", p)
	}
	for _, n := range []int{4461, 13509, 85900} {
		got := map[string]string{}
		for _, p := range lkhSettingFor(n).params {
			got[p[0]] = p[1]
		}
		if got["CANDIDATE_SET_TYPE"] != "QUADRANT" || got["SUBGRADIENT"] != "NO" || got["MAX_CANDIDATES"] != "5" || got["INITIAL_TOUR_ALGORITHM"] != "GREEDY" {
			t.Errorf("%d cities get %v", n, got)
		}
	}
	if lkhGrace(time.Second) != 2*time.Second || lkhGrace(time.Minute) != 15*time.Second || lkhGrace(time.Hour) != 30*time.Second {
		t.Error("grace")
	}
	if s := fmtCities(1000000); s != "1,000,000" {
		t.Error(s)
	}
}

// fakeLKH writes a stand-in for LKH-3: it copies its parameter file and
// problem.tsp into seen, then by mode fails, hangs after one improvement,
// or prints a trace whose last cost is the length of the identity tour
// (EUC_2D, computed with awk) plus lie, and writes that tour to its
// TOUR_FILE.
func fakeLKH(t *testing.T, mode string, lie int) (bin, seen string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in is a shell script")
	}
	dir := t.TempDir()
	seen = filepath.Join(dir, "seen")
	if err := os.Mkdir(seen, 0o755); err != nil {
		t.Fatal(err)
	}
	script := `#!/bin/sh
par="$1"
cp "$par" "SEEN/run.par" && cp problem.tsp "SEEN/problem.tsp" || exit 3
case MODE in
fail) echo "PROBLEM_FILE: cannot read" >&2; exit 1;;
hang) echo "* 1: Cost = 1000, Time = 0.00 sec."; exec sleep 60;;
esac
coords='BEGIN{n=0} /^NODE_COORD_SECTION/{s=1;next} /^EOF/{s=0} s&&NF>=3{x[n]=$2;y[n]=$3;n++}'
len=$(awk "$coords"' END{t=0;for(i=0;i<n;i++){j=(i+1)%n;dx=x[i]-x[j];dy=y[i]-y[j];t+=int(sqrt(dx*dx+dy*dy)+0.5)};printf "%d\n", t}' problem.tsp)
n=$(awk "$coords"' END{print n}' problem.tsp)
echo "PARAMETER_FILE = $par"
echo "Preprocessing time = 0.01 sec."
echo "* 1: Cost = $((len*3)), Time = 0.00 sec."
echo "  2: Cost = $((len*4)), Time = 0.00 sec."
echo "* 3: Cost = $((len*2)), Gap = 12.5000%, Time = 0.01 sec."
echo "* 4: Cost = $((len+LIE)), Time = 0.02 sec."
echo "Run 1: Cost = $((len+LIE)), Time = 0.02 sec."
tour=$(sed -n 's/^TOUR_FILE = //p' "$par")
{ echo "NAME : fake.tour"; echo "TYPE : TOUR"; echo "DIMENSION : $n"; echo TOUR_SECTION
  i=1; while [ $i -le $n ]; do echo $i; i=$((i+1)); done; echo -1; echo EOF; } > "$tour"
`
	script = strings.NewReplacer("SEEN", seen, "MODE", mode, "LIE", strconv.Itoa(lie)).Replace(script)
	bin = filepath.Join(dir, "fake-lkh")
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin, seen
}

// hexagon is a 6-city EUC_2D instance (not from a file).
func hexagon() *solver.Instance {
	x := []float64{0, 100, 150, 100, 0, -50}
	y := []float64{0, 0, 87, 173, 173, 87}
	return solver.NewCoordInstance("hex", solver.Euc2D, x, y, nil)
}

func identity(n int) []int {
	t := make([]int, n)
	for i := range t {
		t[i] = i
	}
	return t
}

// TestRunLKHFake: the runner writes LKH's parameter file, gives it the
// instance, reads its trace into a strictly improving curve, and checks
// the tour it writes against its last cost.
func TestRunLKHFake(t *testing.T) {
	bin, seen := fakeLKH(t, "ok", 0)
	in := hexagon()
	in.Optimum = 600
	l := solver.TourLength(in, identity(in.N))
	res, err := runLKH(context.Background(), bin, in, time.Minute, time.Minute, 7)
	if err != nil {
		t.Fatal(err)
	}
	var lens []int64
	for i, p := range res.pts {
		lens = append(lens, p.len)
		if i > 0 && p.t < res.pts[i-1].t {
			t.Errorf("times go back: %v", res.pts)
		}
	}
	if want := []int64{3 * l, 2 * l, l}; !equal(lens, want) {
		t.Errorf("curve %v, want %v", lens, want)
	}
	if res.length != l || !res.checked || res.killed || res.prep != 0.01 {
		t.Errorf("result %+v, want length %d, checked", res, l)
	}
	par, err := os.ReadFile(filepath.Join(seen, "run.par"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"PROBLEM_FILE = problem.tsp\n", "RUNS = 1\n", "SEED = 7\n", "TIME_LIMIT = 60.000\n", "TRACE_LEVEL = 1\n", "OPTIMUM = 600\n", "TOUR_FILE = best.tour\n"} {
		if !strings.Contains(string(par), want) {
			t.Errorf("parameter file lacks %q:\n%s", want, par)
		}
	}
	if strings.Contains(string(par), "CANDIDATE_SET_TYPE") {
		t.Errorf("a 6-city instance got the large instances' settings:\n%s", par)
	}
	back, err := tsplib.Read(filepath.Join(seen, "problem.tsp"))
	if err != nil || back.N != in.N || back.X[2] != 150 || back.Y[2] != 87 {
		t.Fatalf("problem file: %v %+v", err, back)
	}

	// improvements after the budget are left out; the tour is still checked
	res, err = runLKH(context.Background(), bin, in, time.Nanosecond, time.Minute, 1)
	if err != nil || len(res.pts) != 0 || res.length != 0 || !res.checked {
		t.Errorf("after the budget: %+v %v", res, err)
	}
}

func equal(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestRunLKHFakeFile: an instance read from a file reaches LKH as that
// file, not rewritten.
func TestRunLKHFakeFile(t *testing.T) {
	bin, seen := fakeLKH(t, "ok", 0)
	text := "NAME: sq\nTYPE: TSP\nDIMENSION: 4\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0.0 0.0\n2 30.0 0.0\n3 30.0 40.0\n4 0.0 40.0\nEOF\n"
	path := filepath.Join(t.TempDir(), "sq.tsp")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	in, err := tsplib.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	res, err := runLKH(context.Background(), bin, in, time.Minute, time.Minute, 1)
	if err != nil || res.length != 140 || !res.checked {
		t.Fatalf("%+v %v", res, err)
	}
	if got, _ := os.ReadFile(filepath.Join(seen, "problem.tsp")); string(got) != text {
		t.Errorf("LKH read %q, want the file itself", got)
	}
}

// TestRunLKHFakeErrors: a tour that does not measure as reported, a
// failing process, one that outruns its budget and grace, and Ctrl-C.
func TestRunLKHFakeErrors(t *testing.T) {
	in := hexagon()
	bin, _ := fakeLKH(t, "ok", -1)
	if _, err := runLKH(context.Background(), bin, in, time.Minute, time.Minute, 1); err == nil || !strings.Contains(err.Error(), "measures") {
		t.Errorf("a tour longer than reported: %v", err)
	}
	bin, _ = fakeLKH(t, "fail", 0)
	if _, err := runLKH(context.Background(), bin, in, time.Minute, time.Minute, 1); err == nil || !strings.Contains(err.Error(), "PROBLEM_FILE: cannot read") {
		t.Errorf("a failing process: %v", err)
	}
	bin, _ = fakeLKH(t, "hang", 0)
	res, err := runLKH(context.Background(), bin, in, 50*time.Millisecond, 50*time.Millisecond, 1)
	if err != nil || !res.killed || res.checked {
		t.Errorf("a process past its grace: %+v %v", res, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(100 * time.Millisecond); cancel() }()
	if _, err := runLKH(ctx, bin, in, time.Minute, time.Minute, 1); !errors.Is(err, context.Canceled) {
		t.Errorf("interrupted: %v", err)
	}
	if _, err := lkhBinary(t.TempDir()); err == nil {
		t.Error("a folder taken as the binary")
	}
	if _, err := lkhBinary(filepath.Join(t.TempDir(), "none")); err == nil {
		t.Error("a missing binary taken")
	}
}

// TestTTQPeerLKH: with --peer-lkh the suite runs the peer beside the CPU
// engine, its rows, mean and curve in the same table, and --only picks
// the engines.
func TestTTQPeerLKH(t *testing.T) {
	bin, _ := fakeLKH(t, "ok", 0)
	out := t.TempDir()
	var buf bytes.Buffer
	// The stand-in's trace must come within the budget (later improvements
	// are dropped): 1.5 s leaves room for its shell and awk on a loaded
	// machine.
	opt := Options{TSPLIBDir: t.TempDir(), OutDir: out, Runs: 2, Time: 1500 * time.Millisecond, Instances: []string{"uniform-1200"},
		PeerLKH: bin, Only: []string{"cpu", "lkh"}}
	if err := Run(context.Background(), "ttq", opt, &buf); err != nil {
		t.Fatal(err)
	}
	u, err := gen.Generate("uniform", 1200, 1)
	if err != nil {
		t.Fatal(err)
	}
	l := solver.TourLength(u, identity(u.N))
	recs := readCSV(t, filepath.Join(out, "ttq.csv"))
	rows := map[string][]string{}
	for _, r := range recs[1:] {
		rows[r[3]] = r
	}
	for _, lbl := range []string{"auto cpu, seed 1", LKHLabel + ", seed 1", LKHLabel + ", seed 2", LKHLabel + ", mean of 2"} {
		if rows[lbl] == nil {
			t.Fatalf("no row %q:\n%s", lbl, buf.String())
		}
	}
	if rows["auto gpu, seed 1"] != nil {
		t.Errorf("--only cpu,lkh ran the GPU:\n%s", buf.String())
	}
	if got := rows[LKHLabel+", seed 2"][6]; got != strconv.FormatInt(l, 10) {
		t.Errorf("LKH's length %s, want %d", got, l)
	}
	if h := recs[0]; h[len(h)-4] != "gap % at 10 s" || len(h) != 8+len(TTQThresholds)+len(TTQAt) {
		t.Errorf("header %v", h)
	}
	n := 0
	for _, r := range readCSV(t, filepath.Join(out, "ttq-curves.csv"))[1:] {
		if strings.HasPrefix(r[1], LKHLabel) {
			n++
		}
	}
	if n != 6 {
		t.Errorf("%d curve points of LKH, want 3 per run", n)
	}
	if !strings.Contains(buf.String(), "auto on the CPU and LKH-3 on one core") {
		t.Errorf("title:\n%s", buf.String())
	}

	for _, only := range [][]string{{"lkh"}, {"tpu"}} {
		opt := Options{TSPLIBDir: t.TempDir(), Time: 100 * time.Millisecond, Instances: []string{"uniform-1200"}, Only: only}
		if err := Run(context.Background(), "ttq", opt, &buf); err == nil {
			t.Errorf("--only %v without a peer ran", only)
		}
	}
}

// TestTTQAt: the gap columns take the best tour by each time, the run's
// last at its budget, and nothing past it.
func TestTTQAt(t *testing.T) {
	pts := []ttqPoint{{2 * time.Second, 100}, {15 * time.Second, 90}, {20*time.Second + time.Millisecond, 80}}
	if got := ttqAt(pts, 20*time.Second); !equal(got, []int64{100, 80, -1, -1}) {
		t.Errorf("budget 20 s: %v", got)
	}
	if got := ttqAt(pts[1:], time.Minute); !equal(got, []int64{0, 90, 80, 80}) {
		t.Errorf("budget 60 s: %v", got)
	}
	gap := func(l int64) float64 { return float64(l-80) / 80 * 100 }
	if s := fmtAt(100, gap, true) + "|" + fmtAt(0, gap, true) + "|" + fmtAt(-1, gap, true) + "|" + fmtAt(90, gap, false); s != "25.000|—||n/a" {
		t.Error(s)
	}
	var m ttqMean
	m.add(solver.Result{Length: 80}, time.Second, make([]float64, len(TTQThresholds)), []int64{100, 80, -1, -1})
	m.add(solver.Result{Length: 80}, time.Second, make([]float64, len(TTQThresholds)), []int64{0, 80, -1, -1})
	row := m.row("x", 1, "optimum", "mean", gap, true)
	if got := row[len(row)-4:]; got[0] != "— (1 of 2)" || got[1] != "0.000" || got[2] != "" {
		t.Errorf("mean's gap columns %v", got)
	}
	if !math.IsNaN(ttqReach(nil, gap)[0]) {
		t.Error("reach of no points")
	}
}

// TestRunLKHReal runs the LKH-3 binary named by $TSPLAB_LKH on a280 for
// two seconds: its curve improves, and its tour is checked.
func TestRunLKHReal(t *testing.T) {
	bin := os.Getenv(lkhEnv)
	if bin == "" {
		t.Skip("no LKH-3 binary: set " + lkhEnv)
	}
	dir := tsplibdir.Need(t)
	in, err := tsplib.Load(tsplibdir.Instance(t, "a280"), dir)
	if err != nil {
		t.Fatal(err)
	}
	abs, err := lkhBinary(bin)
	if err != nil {
		t.Fatal(err)
	}
	res, err := runLKH(context.Background(), abs, in, 2*time.Second, 10*time.Second, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.pts) == 0 || !res.checked || res.length < in.Optimum || res.pts[len(res.pts)-1].len != res.length {
		t.Fatalf("%+v", res)
	}
	for i := 1; i < len(res.pts); i++ {
		if res.pts[i].len >= res.pts[i-1].len {
			t.Fatalf("curve does not improve: %v", res.pts)
		}
	}
}
