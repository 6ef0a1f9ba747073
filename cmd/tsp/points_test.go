package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tsplab/tsplab/solver"
)

// TestPointLists runs info, solve, bound and render on point lists as a
// user would: lengths in the file's units, the tour as a CSV of ids, bad
// lines named FILE:LINE.
func TestPointLists(t *testing.T) {
	dir := t.TempDir()
	sq := writeTestFile(t, dir, "square.csv", "id,x,y\n10,0,0\n20,1,1\n30,1,0\n40,0,1\n50,0.5,0\n")
	code, out, stderr := tsp(t, "solve", sq, "--backend", "cpu", "--time", "2s", "--out", filepath.Join(dir, "tour.csv"))
	if code != 0 || !strings.Contains(out, "square: length 4 (") {
		t.Fatalf("solve: exit %d\n%s%s", code, out, stderr)
	}
	tour, err := os.ReadFile(filepath.Join(dir, "tour.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(tour)), "\n")
	if len(lines) != 6 || lines[0] != "id,x,y" || !strings.Contains(string(tour), "\n50,0.5,0\n") {
		t.Fatalf("tour.csv:\n%s", tour)
	}
	if code, out, stderr := tsp(t, "eval", sq, filepath.Join(dir, "tour.csv")); code != 0 || lastLine(out) != "4" {
		t.Fatalf("eval tour.csv: exit %d\n%s%s", code, out, stderr)
	}
	if code, _, stderr := tsp(t, "render", sq, "--tour", filepath.Join(dir, "tour.csv"), "--svg-path", "--out", filepath.Join(dir, "t.svg")); code != 0 {
		t.Fatalf("render --tour tour.csv: exit %d %s", code, stderr)
	}
	wrong := writeTestFile(t, dir, "wrong.csv", "id,x,y\n10,0,0\n20,1,1\n30,1,0\n40,0,1\n60,0.5,0\n")
	if code, _, stderr := tsp(t, "eval", sq, wrong); code != 1 || !strings.Contains(stderr, "id 60 is not a city of square") {
		t.Fatalf("eval with an unknown id: exit %d %s", code, stderr)
	}
	code, out, _ = tsp(t, "info", sq, "--bound", "2s")
	if code != 0 || !strings.Contains(out, "lower_bound: 4 ") || !strings.Contains(out, "format: point list") {
		t.Fatalf("info: exit %d\n%s", code, out)
	}
	if code, out, _ = tsp(t, "bound", sq); code != 0 || lastLine(out) != "4" {
		t.Fatalf("bound: exit %d\n%s", code, out)
	}
	if code, _, stderr = tsp(t, "render", sq, "--out", filepath.Join(dir, "sq.svg")); code != 0 {
		t.Fatalf("render: exit %d %s", code, stderr)
	}
	geo := writeTestFile(t, dir, "stops.txt", "lat lon\n52.52 13.405\n48.8566 2.3522\n51.5074 -0.1278\n")
	code, out, stderr = tsp(t, "solve", geo, "--backend", "cpu", "--time", "2s")
	if code != 0 || !strings.Contains(out, "stops: length 2,152") {
		t.Fatalf("solve lat/lon: exit %d\n%s%s", code, out, stderr)
	}
	bad := writeTestFile(t, dir, "bad.csv", "x,y\n0,0\n1,zero\n")
	for _, cmd := range [][]string{{"info", bad}, {"solve", bad}, {"render", bad, "--out", filepath.Join(dir, "x.png")}} {
		code, _, stderr := tsp(t, cmd...)
		if code != 1 {
			t.Errorf("%v: exit %d", cmd, code)
		}
		oneErrorLine(t, stderr, bad+":3: coordinate \"zero\" is not a number")
	}
}

// The JSON a script reads gives lengths in the file's units with the
// unit named, the instance's integers under *_scaled, and the gap the
// summary prints.
func TestPointListJSON(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("lat,lon\n")
	for i := range 30 {
		fmt.Fprintf(&b, "%.4f,%.4f\n", 45+float64(i%6)*0.7, 5+float64(i/6)*0.9)
	}
	geo := writeTestFile(t, dir, "grid.csv", b.String())
	code, out, stderr := tsp(t, "solve", geo, "--algo", "testclimb", "--quiet", "--bound", "2s", "--json", "-")
	var rep struct {
		Length           float64  `json:"length"`
		LengthScaled     int64    `json:"length_scaled"`
		ScaleExp         int      `json:"scale_exp"`
		Unit             string   `json:"unit"`
		LowerBound       *float64 `json:"lower_bound"`
		LowerBoundScaled *int64   `json:"lower_bound_scaled"`
		GapPercent       *float64 `json:"gap_percent"`
		GapAbove         string   `json:"gap_above"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil {
		t.Fatalf("solve --json: exit %d %q %s", code, out, stderr)
	}
	scale := math.Pow10(rep.ScaleExp)
	if rep.Unit != "metres" || rep.Length < 1000 || math.Abs(rep.Length*scale-float64(rep.LengthScaled)) > 0.5 {
		t.Errorf("length %v %s, %d scaled (scale_exp %d)", rep.Length, rep.Unit, rep.LengthScaled, rep.ScaleExp)
	}
	if rep.LowerBound == nil || rep.LowerBoundScaled == nil || math.Abs(*rep.LowerBound*scale-float64(*rep.LowerBoundScaled)) > 0.5 || *rep.LowerBound > rep.Length {
		t.Fatalf("lower bound %v, %v scaled: %s", rep.LowerBound, rep.LowerBoundScaled, out)
	}
	want := 100 * (rep.Length - *rep.LowerBound) / *rep.LowerBound
	if rep.GapPercent == nil || math.Abs(*rep.GapPercent-want) > 1e-6 || rep.GapAbove != "lower_bound" {
		t.Errorf("gap %v above %q, want %.4f above the lower bound", rep.GapPercent, rep.GapAbove, want)
	}
	code, out, _ = tsp(t, "bound", geo, "--quiet", "--json", "-")
	var brep struct {
		LowerBound       float64 `json:"lower_bound"`
		LowerBoundScaled int64   `json:"lower_bound_scaled"`
		Unit             string  `json:"unit"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &brep) != nil || brep.Unit != "metres" || math.Abs(brep.LowerBound*scale-float64(brep.LowerBoundScaled)) > 0.5 {
		t.Errorf("bound --json: exit %d %s", code, out)
	}
}

// Without an optimum or a bound, a large plane instance's summary shows
// the estimated optimum, labelled as an estimate.
func TestEstimateLine(t *testing.T) {
	x, y := make([]float64, 10000), make([]float64, 10000)
	for i := range x {
		x[i], y[i] = float64(i%100), float64(i/100)
	}
	in := solver.NewCoordInstance("g", solver.Euc2D, x, y, nil)
	est, ok := in.EstimateOptimum()
	if !ok {
		t.Fatal("no estimate")
	}
	line := estimateLine(in, int64(est*1.1), est)
	if !strings.HasPrefix(line, "about 10.0 % above the estimated optimum ") || !strings.Contains(line, "an estimate, not a bound") {
		t.Errorf("%q", line)
	}
	// cities that are not uniform (pla85900's) can have a tour shorter than the estimate
	if line := estimateLine(in, int64(est*0.8), est); !strings.HasPrefix(line, "about 20.0 % below the estimated optimum ") {
		t.Errorf("a tour shorter than the estimate: %q", line)
	}
}
