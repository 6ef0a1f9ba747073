package bench

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tsplab/tsplab/internal/tsplibdir"
	"github.com/tsplab/tsplab/solver"
)

func TestTTQSuiteQuick(t *testing.T) {
	dir := tsplibdir.Need(t)
	tsplibdir.Instance(t, "a280")
	out := t.TempDir()
	var buf bytes.Buffer
	opt := Options{TSPLIBDir: dir, OutDir: out, Quick: true, Time: 300 * time.Millisecond, Instances: []string{"a280", "uniform-2000"}}
	if err := Run(context.Background(), "ttq", opt, &buf); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	for _, want := range []string{"| a280 | 280 | optimum | auto cpu |", "| uniform-2000 | 2000 | 0.7124·√(N·A) | auto cpu |"} {
		if !strings.Contains(md, want) {
			t.Errorf("table lacks %q:\n%s", want, md)
		}
	}
	recs := readCSV(t, filepath.Join(out, "ttq-curves.csv"))
	// the CPU curve of a280 is a running minimum that ends at the result
	var prev float64 = math.Inf(1)
	n := 0
	for _, r := range recs[1:] {
		if r[0] != "a280" || r[1] != "auto cpu" {
			continue
		}
		var l float64
		if _, err := fmtSscan(r[3], &l); err != nil {
			t.Fatal(err)
		}
		if l >= prev {
			t.Fatalf("curve not strictly decreasing: %v", recs)
		}
		prev = l
		n++
	}
	if n == 0 {
		t.Fatalf("no CPU curve for a280: %v", recs)
	}
	if _, err := os.Stat(filepath.Join(out, "ttq-a280.png")); err != nil {
		t.Fatal(err)
	}
}

func TestTTQReferenceAndBudget(t *testing.T) {
	in := solver.NewCoordInstance("u", solver.Euc2D, []float64{0, 100, 100, 0}, []float64{0, 0, 100, 100}, nil)
	ref, name := ttqReference(in, true)
	if name != "0.7124·√(N·A)" || math.Abs(ref-0.7124*math.Sqrt(4*100*100)) > 1e-9 {
		t.Fatalf("uniform reference %v %q", ref, name)
	}
	if _, name := ttqReference(in, false); name != "" {
		t.Fatalf("a TSPLIB instance without optimum got reference %q", name)
	}
	in.Optimum = 400
	if ref, name := ttqReference(in, true); ref != 400 || name != "optimum" {
		t.Fatalf("with optimum: %v %q", ref, name)
	}
	if ttqBudget(Options{}, 2392) != 20*time.Second || ttqBudget(Options{}, 85900) != time.Minute || ttqBudget(Options{Quick: true}, 85900) != 3*time.Second {
		t.Fatal("budgets")
	}
}

func fmtSscan(s string, v *float64) (int, error) { return fmt.Sscan(s, v) }

// TestSavePlotLogOneValue: a log-scale plot whose points share one value
// on an axis (a run at the optimum from its first snapshot) still draws.
func TestSavePlotLogOneValue(t *testing.T) {
	dir := t.TempDir()
	s := Series{Name: "flat", X: []float64{0.5, 2}, Y: []float64{1e-3, 1e-3}}
	if err := SavePlot(dir, "flat", "t", "x", "y", true, true, s, Series{Name: "dot", X: []float64{1}, Y: []float64{1e-3}}); err != nil {
		t.Fatal(err)
	}
	if err := SavePlot(dir, "dot", "t", "x", "y", true, true, Series{Name: "dot", X: []float64{1}, Y: []float64{2}}); err != nil {
		t.Fatal(err)
	}
}

// saveCSV creates the folder and replaces the file whole (a new file
// renamed over the old one, never the old one truncated in place), with
// the same text as Table.CSV.
func TestSaveCSVReplacesWhole(t *testing.T) {
	tb := &Table{Header: []string{"a", "b"}, Rows: [][]string{{"1", "2"}, {"3", "x,y"}}}
	path := filepath.Join(t.TempDir(), "sub", "c.csv")
	if err := saveCSV(path, tb); err != nil {
		t.Fatal(err)
	}
	before, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := saveCSV(path, tb); err != nil {
		t.Fatal(err)
	}
	after, _ := os.Stat(path)
	if os.SameFile(before, after) {
		t.Error("saveCSV rewrote the old file in place")
	}
	var want bytes.Buffer
	if err := tb.CSV(&want); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != want.String() {
		t.Errorf("saveCSV wrote %q, Table.CSV gives %q", got, want.String())
	}
}

// TestTTQRuns: with --runs 2 every engine runs seeds 1 and 2 (their own
// rows and curves) and a mean row whose length is the runs' mean; the
// suite's engine options reach the engine that takes them.
func TestTTQRuns(t *testing.T) {
	out := t.TempDir()
	var buf bytes.Buffer
	opt := Options{TSPLIBDir: t.TempDir(), OutDir: out, Runs: 2, Time: 200 * time.Millisecond, Instances: []string{"uniform-1500"},
		Extra: map[string]string{"stale": "5", "wsegment": "50"}}
	if err := Run(context.Background(), "ttq", opt, &buf); err != nil {
		t.Fatal(err)
	}
	recs := readCSV(t, filepath.Join(out, "ttq.csv"))
	lengths := map[string]float64{}
	for _, r := range recs[1:] {
		if r[0] != "uniform-1500" || !strings.HasPrefix(r[3], "auto cpu") {
			continue
		}
		var l float64
		if _, err := fmtSscan(r[6], &l); err != nil {
			t.Fatalf("row %v: %v", r, err)
		}
		lengths[r[3]] = l
	}
	s1, ok1 := lengths["auto cpu, seed 1"]
	s2, ok2 := lengths["auto cpu, seed 2"]
	m, okm := lengths["auto cpu, mean of 2"]
	if !ok1 || !ok2 || !okm {
		t.Fatalf("rows %v:\n%s", lengths, buf.String())
	}
	if math.Abs(m-(s1+s2)/2) > 0.5 {
		t.Errorf("mean row %v, runs %v and %v", m, s1, s2)
	}
	curves := readCSV(t, filepath.Join(out, "ttq-curves.csv"))
	seen := map[string]bool{}
	for _, r := range curves[1:] {
		seen[r[1]] = true
	}
	if !seen["auto cpu, seed 1"] || !seen["auto cpu, seed 2"] {
		t.Errorf("curves of %v", seen)
	}
	if !strings.Contains(buf.String(), "2 runs each (seeds 1–2)") {
		t.Errorf("title:\n%s", buf.String())
	}
}

// TestTTQOrder: the engines take turns to go first from seed to seed.
func TestTTQOrder(t *testing.T) {
	for seed, want := range map[int]string{1: "[0 1]", 2: "[1 0]", 3: "[0 1]", 4: "[1 0]"} {
		if got := fmt.Sprint(ttqOrder(seed, 2)); got != want {
			t.Errorf("seed %d: order %s, want %s", seed, got, want)
		}
	}
	if got := fmt.Sprint(ttqOrder(2, 3)); got != "[2 1 0]" {
		t.Errorf("three engines, seed 2: %s", got)
	}
}

// TestTTQDIMACSInstances: DIMACS TSP Challenge names are generated by the
// challenge's generators and measured against their optimum or best known
// length.
func TestTTQDIMACSInstances(t *testing.T) {
	r := &repro{}
	cases := []struct {
		name, refName string
		n             int
		ref           float64
		uniform       bool
	}{
		{"C1k.0", "optimum", 1000, 11387430, false},
		{"E10k.0", "best known", 10000, 71865826, true},
		{"C10k.1", "best known", 10000, 33186248, false},
	}
	for _, c := range cases {
		in, uniform, err := r.ttqInstance(c.name)
		if err != nil {
			t.Fatal(err)
		}
		ref, refName := ttqReference(in, uniform)
		if in.N != c.n || in.Name != c.name || uniform != c.uniform || ref != c.ref || refName != c.refName {
			t.Errorf("%s: %d cities named %q, uniform %v, reference %v (%s)", c.name, in.N, in.Name, uniform, ref, refName)
		}
	}
}
