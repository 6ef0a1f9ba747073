package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPointLists runs info, solve, bound and render on point lists as a
// user would: lengths in the file's units, the tour as a CSV of ids, bad
// lines named FILE:LINE.
func TestPointLists(t *testing.T) {
	dir := t.TempDir()
	sq := writeTestFile(t, dir, "square.csv", "id,x,y\n10,0,0\n20,1,1\n30,1,0\n40,0,1\n50,0.5,0\n")
	code, out, stderr := tsp(t, "solve", sq, "--backend", "cpu", "--time", "2s", "--out", filepath.Join(dir, "tour.csv"))
	if code != 0 || !strings.Contains(out, "square: length 4,") {
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
	if code, _, stderr := tsp(t, "eval", sq, wrong); code != 1 || !strings.Contains(stderr, "wrong.csv: id 60 is not a city of square") {
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
	if code != 0 || !strings.Contains(out, "stops: length 2152") {
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
