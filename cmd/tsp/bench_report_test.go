package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tsplab/tsplab/internal/tsplibdir"
)

// TestBenchReportCPUQuick runs the plan's CPU part in its short version and checks that each table's
// CSV names the build given, and that the page written from them holds those tables and says which
// part writes the tables not measured.
func TestBenchReportCPUQuick(t *testing.T) {
	if testing.Short() {
		t.Skip("runs engines for a few seconds")
	}
	dir := tsplibdir.Need(t)
	tmp := t.TempDir()
	results, page := filepath.Join(tmp, "results"), filepath.Join(tmp, "B.md")
	code, _, stderr := tsp(t, "bench", "report", "--run", "cpu", "--quick", "--build", "abc1234", "--workers", "1",
		"--tsplib", dir, "--results", results, "--doc", page, "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, id := range []string{"cpu-auto", "cpu-engines"} {
		b, err := os.ReadFile(filepath.Join(results, "report-"+id+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(b), "build,machine,date,") || !strings.Contains(string(b), "\nabc1234 (--quick") {
			t.Errorf("report-%s.csv does not name the build on each row:\n%s", id, b)
		}
	}
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"*Build abc1234 (--quick", "| auto |", "*Not measured yet: `tsp bench report --run gpu-a` writes it.*"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

func TestBenchReportUsage(t *testing.T) {
	if code, _, stderr := tsp(t, "bench", "report", "--run", "gpu-z"); code != 2 || !strings.Contains(stderr, "--run gpu-z") {
		t.Errorf("unknown part: exit %d, %q; want 2 and a line naming it", code, stderr)
	}
}
