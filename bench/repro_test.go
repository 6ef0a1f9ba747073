package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tsplab/tsplab/internal/tsplibdir"
	"github.com/tsplab/tsplab/solver"
	_ "github.com/tsplab/tsplab/solver/cpu" // the engines the suites run
)

// needPapers returns the papers' folder or skips the test.
func needPapers(t *testing.T) string {
	t.Helper()
	d := PapersDir()
	if d == "" {
		t.Skipf("the papers' tables are absent (set $%s or put them in ../shared/papers)", PapersEnv)
	}
	if _, err := os.Stat(filepath.Join(d, "lam-table2.csv")); err != nil {
		t.Skipf("the papers' tables are absent: %v", err)
	}
	return d
}

// TestReproSuitesQuick runs every reproduction suite in Quick mode on one
// instance (a few seconds, so also under -short): without a GPU engine each
// still fills its CPU columns, says the GPU is unavailable, cites its paper,
// writes its files, and fills its paper columns from the papers' CSVs.
func TestReproSuitesQuick(t *testing.T) {
	dir := tsplibdir.Need(t)
	papersDir := needPapers(t)
	cases := []struct {
		suite, inst string
		files       []string
		want        []string
	}{
		// rd100's Table 2 row: GPU PSPM SSES 456.8, SEC 0.14; average speedup 99.0.
		{"lam", "rd100", []string{"lam-table2.md", "lam-table3.csv", "lam-table4.md", "lam-fig4.png", "lam-fig4.csv"},
			[]string{"| rd100 | 100 | 1 |", "| 456.8 |", "| 0.14 |", "| 99.0 |", "| 48.31 |", "| 909.7 |", "Tesla C2050"}},
		{"oneil", "d18512", []string{"oneil.md", "oneil-tspgpu.csv", "oneil-quality.md", "oneil-fig6.png", "oneil-fig6.csv"},
			[]string{"d18512[:200]", "60 billion", "K40", "| 36235 |", "TSP_GPU 2.3 on the H100, as measured for the issue"}},
		{"rocki", "berlin52", []string{"rocki.md", "rocki.csv", "rocki-checks.png", "rocki-checks.csv"},
			[]string{"| berlin52 | 52 |", "| 20 µs |", "| 76.56 |", "| 8930 |", "GTX 680"}},
		{"delevacq", "kroA100", []string{"delevacq-table1.md", "delevacq-table3.csv"},
			[]string{"| kroA100 | 1 |", "| 25.06 |", "| 7.83 |", "1, 120, 000 / 5, 500", "Fermi C2050"}},
		{"luong", "eil101", []string{"luong.md", "luong.csv", "luong-time.png"},
			[]string{"| eil101 | 101 | 5050 |", "| 0.4×4.3 |", "Tesla M2050"}},
	}
	for _, c := range cases {
		t.Run(c.suite, func(t *testing.T) {
			tsplibdir.Instance(t, c.inst)
			out := t.TempDir()
			var buf, log bytes.Buffer
			opt := Options{TSPLIBDir: dir, OutDir: out, Quick: true, Time: 100 * time.Millisecond, Instances: []string{c.inst}, Log: &log, PapersDir: papersDir}
			if err := Run(context.Background(), c.suite, opt, &buf); err != nil {
				t.Fatal(err)
			}
			md := buf.String()
			want := c.want
			if solverHasGPU() {
				want = append(want, "NVIDIA")
			} else {
				want = append(want, "GPU unavailable")
			}
			for _, w := range append(want, "cores", "Paper columns read at run time") {
				if !strings.Contains(md, w) {
					t.Errorf("%s: output lacks %q:\n%s", c.suite, w, md)
				}
			}
			// Phrases of figures once written in by hand (Delévacq's abstract
			// "up to 6.02"); a bare number could be one this run measured.
			for _, bad := range []string{"up to 6.02", "about 100", "430 GFLOPS", "n/a (not found)", "Paper columns not available"} {
				if strings.Contains(md, bad) {
					t.Errorf("%s: output has %q", c.suite, bad)
				}
			}
			for _, f := range c.files {
				st, err := os.Stat(filepath.Join(out, f))
				if err != nil || st.Size() == 0 {
					t.Errorf("%s: %s missing or empty (%v)", c.suite, f, err)
				}
			}
		})
	}
}

// solverHasGPU reports whether a GPU engine can run here.
func solverHasGPU() bool {
	e, err := solver.Lookup("2opt-climb", solver.BackendGPU)
	return err == nil && e.Available() == nil
}

// TestPapersAbsent: without the papers' folder a suite still runs, says so
// in one line and marks the paper columns not available.
func TestPapersAbsent(t *testing.T) {
	dir := tsplibdir.Need(t)
	tsplibdir.Instance(t, "eil101")
	var buf bytes.Buffer
	opt := Options{TSPLIBDir: dir, Quick: true, Time: 50 * time.Millisecond, Instances: []string{"eil101"}, PapersDir: filepath.Join(t.TempDir(), "none")}
	if err := Run(context.Background(), "luong", opt, &buf); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	if !strings.Contains(md, "Paper columns not available") || !strings.Contains(md, "| "+PaperNA+" |") {
		t.Fatalf("no 'not available' note or cell:\n%s", md)
	}
	if strings.Contains(md, "0.4×") {
		t.Fatalf("a paper figure without the papers:\n%s", md)
	}
}

// TestInstanceListsMatchPapers: the suites' instance lists are the papers'
// own, in their order.
func TestInstanceListsMatchPapers(t *testing.T) {
	p := newPapers(needPapers(t))
	first := func(file string, col int) []string {
		tb := p.table(file)
		if tb == nil {
			t.Fatalf("%s unreadable: %v", file, p.errs)
		}
		var out []string
		for _, r := range tb.rows {
			if r[col] == "average" || (len(out) > 0 && out[len(out)-1] == r[col]) {
				continue
			}
			out = append(out, r[col])
		}
		return out
	}
	for _, c := range []struct {
		file string
		list []string
	}{{"lam-table2.csv", LamInstances}, {"rocki-table2.csv", RockiInstances}, {"delevacq-table3.csv", DelevacqInstances}, {"luong-table6-tsp.csv", nil}} {
		got := first(c.file, 0)
		want := c.list
		if want == nil {
			want = LuongInstances
			seen := map[string]bool{}
			var uniq []string
			for _, g := range got {
				if !seen[g] {
					seen[g] = true
					uniq = append(uniq, g)
				}
			}
			got = uniq
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s lists %v, the suite %v", c.file, got, want)
		}
	}
}

func TestPaperFloat(t *testing.T) {
	for in, want := range map[string]float64{"4.6": 4.6, "1, 120, 000": 1120000, "76.56": 76.56, "20 µs": 20} {
		if v, ok := paperFloat(in); !ok || v != want {
			t.Errorf("paperFloat(%q) = %v, %v; want %v", in, v, ok, want)
		}
	}
	for _, in := range []string{"-", ".", ""} {
		if _, ok := paperFloat(in); ok {
			t.Errorf("paperFloat(%q) parsed a placeholder", in)
		}
	}
}

// TestLamCPUColumnsAreReal checks that lam's Table 2 fills the CPU columns
// with measured numbers (a positive rate and a gap within 0..1000 %).
func TestLamCPUColumnsAreReal(t *testing.T) {
	dir := tsplibdir.Need(t)
	tsplibdir.Instance(t, "rd100")
	out := t.TempDir()
	opt := Options{TSPLIBDir: dir, OutDir: out, Quick: true, Time: 100 * time.Millisecond, Instances: []string{"rd100"}}
	if err := Run(context.Background(), "lam", opt, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	recs := readCSV(t, filepath.Join(out, "lam-table2.csv"))
	row := recs[1]
	if row[0] != "rd100" || (!solverHasGPU() && row[11] != "n/a") {
		t.Fatalf("row %q: want rd100 with no GPU figure", row)
	}
	var sses, sec float64
	if _, err := fmtScan(row[3], &sses); err != nil || sses <= 0 {
		t.Fatalf("SSPM SSES %q", row[3])
	}
	if _, err := fmtScan(row[5], &sec); err != nil || sec < 0 || sec > 1000 {
		t.Fatalf("SSPM SEC %q", row[5])
	}
}

func TestCPUTwoOptPassFindsBestMove(t *testing.T) {
	in := solver.NewCoordInstance("sq", solver.Euc2D, []float64{0, 10, 10, 0, 5}, []float64{0, 10, 0, 10, -3}, nil)
	tr := []int{0, 1, 2, 3, 4}
	x, y := tourCoords(in, tr)
	best, bi, bj, moves := cpuTwoOptPass(x, y, len(tr))
	if moves != int64(len(tr)*(len(tr)-3)/2) {
		t.Fatalf("moves %d, want %d", moves, len(tr)*(len(tr)-3)/2)
	}
	// brute force over the same moves
	d := func(a, b int) float64 { return math.Hypot(x[a]-x[b], y[a]-y[b]) }
	want := 0.0
	n := len(tr)
	for i := 0; i < n; i++ {
		for j := i + 2; j < n; j++ {
			if i == 0 && j == n-1 {
				continue
			}
			if dl := d(i, j) + d(i+1, (j+1)%n) - d(i, i+1) - d(j, (j+1)%n); dl < want {
				want = dl
			}
		}
	}
	if math.Abs(best-want) > 1e-9 || (want < 0 && bi < 0) {
		t.Fatalf("best %v at (%d,%d), want %v", best, bi, bj, want)
	}
	// the descent ends 2-optimal
	tt := append([]int(nil), tr...)
	if _, _, _, done := cpuDescent(in, tt, time.Second); !done {
		t.Fatal("descent did not finish")
	}
	x, y = tourCoords(in, tt)
	if b, _, _, _ := cpuTwoOptPass(x, y, n); b < -1e-7 {
		t.Fatalf("after the descent a move still gains %v", -b)
	}
}

func fmtScan(s string, v *float64) (int, error) { return fmt.Sscan(s, v) }

// BenchmarkCPUTwoOptPass is the CPU reference of the rocki suite: one full
// 2-opt pass over 2,000 random cities (reports moves/s).
func BenchmarkCPUTwoOptPass(b *testing.B) {
	n := 2000
	x, y := make([]float64, n), make([]float64, n)
	for i := range x {
		x[i], y[i] = float64((i*7919)%10007), float64((i*104729)%10009)
	}
	var moves int64
	for i := 0; i < b.N; i++ {
		_, _, _, m := cpuTwoOptPass(x, y, n)
		moves += m
	}
	b.ReportMetric(float64(moves)/b.Elapsed().Seconds(), "moves/s")
}

// TestSmallestInstances: the Fig. 7 list takes the smallest coordinate
// instances by DIMENSION and leaves out explicit-matrix and GEO ones.
func TestSmallestInstances(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"big":      "NAME: big\nTYPE: TSP\nDIMENSION: 300\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n",
		"small":    "NAME: small\nTYPE: TSP\nDIMENSION : 50\nEDGE_WEIGHT_TYPE : ATT\nNODE_COORD_SECTION\n",
		"mid":      "NAME: mid\nDIMENSION: 100\nEDGE_WEIGHT_TYPE: CEIL_2D\nNODE_COORD_SECTION\n",
		"explicit": "NAME: explicit\nDIMENSION: 10\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_SECTION\n",
		"geo":      "NAME: geo\nDIMENSION: 12\nEDGE_WEIGHT_TYPE: GEO\nNODE_COORD_SECTION\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name+".tsp"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got := strings.Join(smallestInstances(dir, 2), ","); got != "small,mid" {
		t.Fatalf("smallest 2: %s, want small,mid", got)
	}
	if got := len(smallestInstances(dir, 10)); got != 3 {
		t.Fatalf("%d instances, want the 3 coordinate ones", got)
	}
}

// TestKernelRateRunsAtLeastMinKernel: with the paper's protocol the
// measured series are sized from a first rate so that each gives at least
// the asked kernel time, and the best of the tries is kept.
func TestKernelRateRunsAtLeastMinKernel(t *testing.T) {
	const n, B, rate = 1000, 7, 2e11
	perLaunch := float64(B) * n * (n - 3) / 2
	var calls []int
	g := &fakeGPU{
		evalRate: func(n, passes int, seed uint64) (KernelRate, error) {
			calls = append(calls, passes)
			return KernelRate{MovesPerSec: rate * (1 + float64(seed%3)/10), Device: "fake GPU"}, nil
		},
		evalBatch: func(int) (int, error) { return B, nil },
	}
	r := &repro{opt: Options{GPU: g}}
	got := r.kernelRate(n, 3, time.Second)
	if len(calls) != 4 || calls[0] != 0 {
		t.Fatalf("calls %v: want a default series, then 3 sized ones", calls)
	}
	for _, p := range calls[1:] {
		if secs := float64(p) * perLaunch / rate; secs < 1 {
			t.Fatalf("a series of %d launches runs %.2f s of kernel, want >= 1 s", p, secs)
		}
	}
	if want := rate * 1.2; got != want {
		t.Fatalf("rate %g, want the best of the tries %g", got, want)
	}
	if r.device != "fake GPU" {
		t.Fatalf("device %q", r.device)
	}
}

// TestRockiGeneratesMissingInstances: a Table II instance the TSPLIB folder
// lacks becomes a generated instance of the same size, marked so.
func TestRockiGeneratesMissingInstances(t *testing.T) {
	r := &repro{opt: Options{TSPLIBDir: t.TempDir()}}
	in, generated, err := r.rockiLoad("sra104815")
	if err != nil || !generated || in.N != 104815 || !strings.Contains(in.Name, "generated") {
		t.Fatalf("got %v, generated %v, err %v", in, generated, err)
	}
	if _, _, err := r.rockiLoad("nodigits"); err == nil {
		t.Fatal("a name without a size was accepted")
	}
}

// TestRockiCopyColumns: the one-pass hook's kernel and copy times fill
// their columns beside the paper's.
func TestRockiCopyColumns(t *testing.T) {
	dir := tsplibdir.Need(t)
	tsplibdir.Instance(t, "berlin52")
	papersDir := needPapers(t)
	g := &fakeGPU{onePass: func(in *solver.Instance, tour []int, reps int) (PassTimes, error) {
		if solver.ValidateTour(tour, in.N) != nil {
			t.Errorf("OnePass got an invalid tour")
		}
		return PassTimes{Kernel: 7 * time.Microsecond, Upload: 30 * time.Microsecond, Download: 9 * time.Microsecond, Device: "fake GPU"}, nil
	}}
	var buf bytes.Buffer
	opt := Options{TSPLIBDir: dir, Quick: true, Instances: []string{"berlin52"}, PapersDir: papersDir, GPU: g}
	if err := Run(context.Background(), "rocki", opt, &buf); err != nil {
		t.Fatal(err)
	}
	want := "| berlin52 | 52 | 7 µs | 20 µs | 30 µs | 50 µs | 9 µs | 11 µs | 46 µs | 81 µs | 182.00 | 76.56 |" // 1274 moves in 7 µs
	if !strings.Contains(buf.String(), want) {
		t.Fatalf("no row %q in:\n%s", want, buf.String())
	}
}

// TestDelevacqQuickHonoursBudgets: the quick protocol scales it_total by
// 1/2000 and splits it over the population (it_lim = it_total / nb_sol),
// and the sequential first-improvement run gets 1,048,576 / 2000 kicks.
func TestDelevacqQuickHonoursBudgets(t *testing.T) {
	dir := tsplibdir.Need(t)
	tsplibdir.Instance(t, "kroA100")
	out := t.TempDir()
	var buf bytes.Buffer
	opt := Options{TSPLIBDir: dir, OutDir: out, Quick: true, Runs: 1, Instances: []string{"kroA100"}, PapersDir: needPapers(t)}
	if err := Run(context.Background(), "delevacq", opt, &buf); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	// kroA100: it_total 1,120,000 -> 560; blocks per solution 120 and 70
	// Table 1: it_total 1,048,576 -> 524, it_lim 524 / 8 = 65 at nb_sol 8
	gpuTrials := "0" // no GPU in the options
	for _, w := range []string{"| kroA100 | 1 | 1 | 1, 120, 000 / 5, 500 | 560 | 120 |", "| kroA100 | 8 | 1 | 1, 120, 000 / 5, 500 | 70 | 70 |",
		"| kroA100 | 1 | " + gpuTrials + " | 524 |", "| kroA100 | 8 | " + gpuTrials + " | 65 |", "(524 kicks)"} {
		if !strings.Contains(md, w) {
			t.Errorf("output lacks %q:\n%s", w, md)
		}
	}
}

// TestDelevacqOnly: --only table3 writes Table 3 alone, nbN keeps one
// population size; an unknown part is refused.
func TestDelevacqOnly(t *testing.T) {
	dir := tsplibdir.Need(t)
	tsplibdir.Instance(t, "kroA100")
	out := t.TempDir()
	opt := Options{TSPLIBDir: dir, OutDir: out, Quick: true, Runs: 1, Instances: []string{"kroA100"}, PapersDir: needPapers(t), Only: []string{"table3"}}
	var buf bytes.Buffer
	if err := Run(context.Background(), "delevacq", opt, &buf); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, "delevacq-table1.csv")); err == nil {
		t.Error("delevacq-table1.csv written; --only named table3 alone")
	}
	if rows := readCSV(t, filepath.Join(out, "delevacq-table3.csv")); len(rows) < 3 || rows[1][0] != "kroA100" {
		t.Fatalf("Table 3 rows: %v", rows)
	}
	// a population size alone: Table 3's nb_sol 8 row and no other
	opt.Only = []string{"table3", "nb8"}
	if err := Run(context.Background(), "delevacq", opt, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	if rows := readCSV(t, filepath.Join(out, "delevacq-table3.csv")); len(rows) != 2 || rows[1][1] != "8" {
		t.Fatalf("--only table3,nb8: Table 3 rows %v", rows)
	}
	for _, bad := range []string{"table2", "nb3"} {
		opt.Only = []string{bad}
		if err := Run(context.Background(), "delevacq", opt, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), bad) {
			t.Fatalf("--only %s: err = %v", bad, err)
		}
	}
}

// TestLuongQuickIsATabuSearch: the quick protocol runs the tabu search
// (200 iterations) and times the CPU side.
func TestLuongQuickIsATabuSearch(t *testing.T) {
	dir := tsplibdir.Need(t)
	tsplibdir.Instance(t, "eil101")
	var buf bytes.Buffer
	opt := Options{TSPLIBDir: dir, Quick: true, Instances: []string{"eil101"}, PapersDir: needPapers(t)}
	if err := Run(context.Background(), "luong", opt, &buf); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	if !strings.Contains(md, "tabu search of 200 iterations") || !strings.Contains(md, "tabu=200") {
		t.Fatalf("not the tabu protocol:\n%s", md)
	}
	row := md[strings.Index(md, "| eil101 |"):]
	row = row[:strings.Index(row, "\n")]
	cells := strings.Split(row, "|")
	if v, err := strconv.ParseFloat(strings.TrimSpace(cells[5]), 64); err != nil || v <= 0 {
		t.Fatalf("CPU time cell %q is not a time: %s", cells[5], row)
	}
}

// TestLamOnlyRunsTheNamedParts: --only table2,sspm writes Table 2 alone,
// with CPU SSPM measured and the engines not named left n/a; an unknown
// part is refused.
func TestLamOnlyRunsTheNamedParts(t *testing.T) {
	dir := tsplibdir.Need(t)
	tsplibdir.Instance(t, "rd100")
	out := t.TempDir()
	// draw is a GPU pspm option: CPU SSPM must run without it (an engine
	// refuses an option it does not have), and the notes name it.
	opt := Options{TSPLIBDir: dir, OutDir: out, Quick: true, Instances: []string{"rd100"}, Only: []string{"table2", "sspm"}, Threads: 8,
		Extra: map[string]string{"draw": "uniform"}}
	var buf bytes.Buffer
	if err := Run(context.Background(), "lam", opt, &buf); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"lam-table3.csv", "lam-table4.csv", "lam-fig4.png"} {
		if _, err := os.Stat(filepath.Join(out, f)); err == nil {
			t.Errorf("%s written; --only named table2 alone", f)
		}
	}
	row := readCSV(t, filepath.Join(out, "lam-table2.csv"))[1]
	var sses float64
	if _, err := fmtScan(row[3], &sses); err != nil || sses <= 0 {
		t.Fatalf("SSPM SSES %q", row[3])
	}
	if row[7] != "n/a" || row[11] != "n/a" {
		t.Fatalf("PSSM SSES %q, PSPM SSES %q: want n/a (not named)", row[7], row[11])
	}
	if !strings.Contains(buf.String(), "Pm = TPB = 8 (--threads") {
		t.Fatalf("the notes do not say --threads 8 ran:\n%s", buf.String())
	}
	if !strings.Contains(buf.String(), "draw=uniform") {
		t.Fatalf("the notes do not name the engine option:\n%s", buf.String())
	}
	opt.Only = []string{"table9"}
	if err := Run(context.Background(), "lam", opt, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "table9") {
		t.Fatalf("--only table9: err = %v", err)
	}
}

// TestPolishLengthImproves: the CPU polish of a random tour is much
// shorter, and polishing a tour that is already locally optimal (its
// own polish) cannot make it longer.
func TestPolishLengthImproves(t *testing.T) {
	n := 300
	x, y := make([]float64, n), make([]float64, n)
	r := rand.New(rand.NewPCG(3, 4))
	for i := range x {
		x[i], y[i] = r.Float64()*1000, r.Float64()*1000
	}
	in := solver.NewCoordInstance("r300", solver.Euc2D, x, y, nil)
	tr := r.Perm(n)
	before := solver.TourLength(in, tr)
	after := polishLength(in, tr)
	if after >= before/3 {
		t.Fatalf("polish %d -> %d: want a large gain on a random tour", before, after)
	}
	if solver.TourLength(in, tr) != before {
		t.Fatal("polishLength changed its argument")
	}
}

// TestTruncatedLength: TSP_GPU's measure truncates every distance, so a
// tour of 3-4-5 triangles and half-unit edges differs from TSPLIB's.
func TestTruncatedLength(t *testing.T) {
	// A 3-4-5 triangle: exact distances, both measures agree.
	tri := solver.NewCoordInstance("tri", solver.Euc2D, []float64{0, 3, 0}, []float64{0, 0, 4}, nil)
	if got := truncatedLength(tri, []int{0, 1, 2}); got != 12 {
		t.Fatalf("triangle: %d, want 12", got)
	}
	// A 1.6 x 1.6 square: each side truncates to 1 (TSPLIB rounds to 2).
	sq := solver.NewCoordInstance("sq", solver.Euc2D, []float64{0, 1.6, 1.6, 0}, []float64{0, 0, 1.6, 1.6}, nil)
	if got, tsplib := truncatedLength(sq, []int{0, 1, 2, 3}), solver.TourLength(sq, []int{0, 1, 2, 3}); got != 4 || tsplib != 8 {
		t.Fatalf("square: truncated %d (want 4), TSPLIB %d (want 8)", got, tsplib)
	}
}

// TestLuongCappedReferenceIsExtrapolated: with --time the one-core
// reference stops early and its table cell says from how many iterations
// its time comes; with --workers it runs beside the GPU runs and the
// notes say so.
func TestLuongCappedReferenceIsExtrapolated(t *testing.T) {
	dir := tsplibdir.Need(t)
	tsplibdir.Instance(t, "pcb442")
	md, cells := luongPcb442(t, Options{TSPLIBDir: dir, Quick: true, Time: 20 * time.Millisecond, Workers: 2, Instances: []string{"pcb442"}, PapersDir: needPapers(t)})
	if !strings.Contains(cells[6], "of 200 (time extrapolated)") {
		t.Fatalf("a reference capped at 20 ms should be extrapolated: %q", cells[6])
	}
	if !strings.Contains(md, "beside the GPU runs (--workers 2)") || !strings.Contains(md, "| 26.5 |") {
		t.Fatalf("notes lack the concurrent references, or the paper's one-core time 3.4×7.8 = 26.5 is missing:\n%s", md)
	}
}

// TestLuongReferenceCapBelowOneIteration: a cap that ends the one-core
// reference before its first iteration still gives a time, from two
// iterations run without it.
func TestLuongReferenceCapBelowOneIteration(t *testing.T) {
	dir := tsplibdir.Need(t)
	tsplibdir.Instance(t, "pcb442")
	_, cells := luongPcb442(t, Options{TSPLIBDir: dir, Quick: true, Time: time.Nanosecond, Instances: []string{"pcb442"}, PapersDir: needPapers(t)})
	if !strings.Contains(cells[6], "2 of 200 (time extrapolated)") {
		t.Fatalf("a reference capped before its first iteration should time two: %q", cells[6])
	}
}

// luongPcb442 runs the luong suite with opt and returns its markdown and
// the cells of pcb442's row, whose one-core time (cell 5) must be a time.
func luongPcb442(t *testing.T, opt Options) (string, []string) {
	t.Helper()
	var buf bytes.Buffer
	if err := Run(context.Background(), "luong", opt, &buf); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	row := md[strings.Index(md, "| pcb442 |"):]
	row = row[:strings.Index(row, "\n")]
	cells := strings.Split(row, "|")
	if v, err := strconv.ParseFloat(strings.TrimSpace(cells[5]), 64); err != nil || v <= 0 {
		t.Fatalf("CPU time cell %q is not a time: %s", cells[5], row)
	}
	return md, cells
}

// TestStoppedSuitesWriteWhatTheyMeasured: a suite stopped by its context
// (Ctrl-C, a caller's time limit) still writes its tables, with a line
// saying it was stopped, and returns the context's error; here stopped
// during the first instance's rows (luong) and before any (delevacq).
func TestStoppedSuitesWriteWhatTheyMeasured(t *testing.T) {
	dir := tsplibdir.Need(t)
	tsplibdir.Instance(t, "kroA100")
	tsplibdir.Instance(t, "eil101")
	for _, c := range []struct {
		suite, inst, file string
		after             time.Duration
	}{{"luong", "eil101", "luong.md", 30 * time.Millisecond}, {"delevacq", "kroA100", "delevacq-table3.md", 0}} {
		out := t.TempDir()
		ctx, cancel := context.WithCancel(context.Background())
		if c.after > 0 {
			time.AfterFunc(c.after, cancel)
		} else {
			cancel()
		}
		// luong without --quick: the whole 10,000-iteration reference, long
		// enough to be stopped in
		opt := Options{TSPLIBDir: dir, OutDir: out, Quick: c.suite != "luong", Runs: 1, Instances: []string{c.inst}, PapersDir: needPapers(t)}
		var buf bytes.Buffer
		err := Run(ctx, c.suite, opt, &buf)
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("%s: err = %v, want the context's", c.suite, err)
		}
		md, rerr := os.ReadFile(filepath.Join(out, c.file))
		if rerr != nil || !strings.Contains(string(md), "Stopped before the end") || !strings.Contains(buf.String(), "Stopped before the end") {
			t.Fatalf("%s: %s (%v) lacks the stop note:\n%s", c.suite, c.file, rerr, md)
		}
	}
}

// TestLamTable4AloneSkipsTable2: --only table4,sspm sweeps Pm without
// running Table 2 first (Table 2 runs only when named or for Table 3).
func TestLamTable4AloneSkipsTable2(t *testing.T) {
	dir := tsplibdir.Need(t)
	tsplibdir.Instance(t, "rd100")
	out := t.TempDir()
	opt := Options{TSPLIBDir: dir, OutDir: out, Quick: true, Instances: []string{"rd100"}, Only: []string{"table4", "sspm"}}
	var buf bytes.Buffer
	if err := Run(context.Background(), "lam", opt, &buf); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, "lam-table2.csv")); err == nil {
		t.Errorf("lam-table2.csv written; --only named table4 alone")
	}
	rows := readCSV(t, filepath.Join(out, "lam-table4.csv"))
	if len(rows) != 1+len(lamValues) {
		t.Fatalf("Table 4 has %d rows, want %d values", len(rows)-1, len(lamValues))
	}
	for _, row := range rows[1:] {
		var sses float64
		if _, err := fmtScan(row[2], &sses); err != nil || sses <= 0 {
			t.Fatalf("Pm %s: SSPM SSES %q", row[0], row[2])
		}
	}
}

// fakeGPU is a GPU for the suites' tests: the methods a test sets answer,
// the others fail.
type fakeGPU struct {
	evalRate  func(n, passes int, seed uint64) (KernelRate, error)
	evalBatch func(n int) (int, error)
	onePass   func(in *solver.Instance, t []int, reps int) (PassTimes, error)
}

var errFake = errors.New("not in this fake GPU")

func (g *fakeGPU) EvalRate(n, passes int, seed uint64) (KernelRate, error) {
	if g.evalRate == nil {
		return KernelRate{}, errFake
	}
	return g.evalRate(n, passes, seed)
}

func (g *fakeGPU) EvalBatch(n int) (int, error) {
	if g.evalBatch == nil {
		return 0, errFake
	}
	return g.evalBatch(n)
}

func (g *fakeGPU) OnePass(in *solver.Instance, t []int, reps int) (PassTimes, error) {
	if g.onePass == nil {
		return PassTimes{}, errFake
	}
	return g.onePass(in, t, reps)
}

func (g *fakeGPU) ClimbRate(*solver.Instance, time.Duration, time.Duration, uint64) (KernelRate, error) {
	return KernelRate{}, errFake
}

func (g *fakeGPU) TwoOptDescent(*solver.Instance, []int) (Descent, error) { return Descent{}, errFake }

func (g *fakeGPU) ThreeOptPopulation(context.Context, *solver.Instance, Population) (PopulationResult, error) {
	return PopulationResult{}, errFake
}

func (g *fakeGPU) FIPopulation(*solver.Instance, Population) (PopulationResult, error) {
	return PopulationResult{}, errFake
}

func (g *fakeGPU) FISequential(*solver.Instance, int, int, Population) (PopulationResult, error) {
	return PopulationResult{}, errFake
}
