package bench

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tsplab/tsplab/internal/tsplibdir"
	"github.com/tsplab/tsplab/solver"
	_ "github.com/tsplab/tsplab/solver/cpu" // the engines the suites run
)

// TestReproSuitesQuick runs every reproduction suite in Quick mode on a
// tiny instance list (a few seconds, so also under -short): without a GPU engine each still fills its CPU
// columns, says the GPU is unavailable, cites its paper and writes its
// files.
func TestReproSuitesQuick(t *testing.T) {
	dir := tsplibdir.Need(t)
	cases := []struct {
		suite, inst string
		files       []string
		want        []string
	}{
		{"lam", "rd100", []string{"lam-table2.md", "lam-table3.csv", "lam-table4.md"}, []string{"| rd100 | 100 |", "99x", "Table 4"}},
		{"oneil", "d18512", []string{"oneil.md", "oneil.csv", "oneil-moves.png"}, []string{"d18512[:200]", "K40", "O'Neil"}},
		{"rocki", "berlin52", []string{"rocki.md", "rocki.csv", "rocki-checks.png"}, []string{"| berlin52 | 52 | 1274 |", "C2075"}},
		{"delevacq", "kroA100", []string{"delevacq-speedup.md", "delevacq-quality.csv"}, []string{"| kroA100 | 100 |", "6.02", "LION 6"}},
		{"luong", "eil101", []string{"luong-speedup.md", "luong-quality.csv", "luong-moves.png"}, []string{"| eil101 | 101 | 5050 |", "Transactions on Computers"}},
	}
	for _, c := range cases {
		t.Run(c.suite, func(t *testing.T) {
			tsplibdir.Instance(t, c.inst)
			out := t.TempDir()
			var buf, log bytes.Buffer
			opt := Options{TSPLIBDir: dir, OutDir: out, Quick: true, Time: 100 * time.Millisecond, Instances: []string{c.inst}, Log: &log}
			if err := Run(context.Background(), c.suite, opt, &buf); err != nil {
				t.Fatal(err)
			}
			md := buf.String()
			for _, w := range append(c.want, "GPU unavailable", "cores", NotFound) {
				if !strings.Contains(md, w) {
					t.Errorf("%s: output lacks %q:\n%s", c.suite, w, md)
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
	f, err := os.Open(filepath.Join(out, "lam-table2.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	row := recs[1]
	if row[0] != "rd100" || row[4] != "n/a" {
		t.Fatalf("row %q: want rd100 with no GPU figure", row)
	}
	var sses, sec float64
	if _, err := fmtScan(row[2], &sses); err != nil || sses <= 0 {
		t.Fatalf("SSPM SSES %q", row[2])
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
