package bench

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tsplab/tsplab/internal/tsplibdir"
	_ "github.com/tsplab/tsplab/solver/cpu" // the engines the suite runs
)

func TestCPUSuiteQuick(t *testing.T) {
	dir := tsplibdir.Need(t)
	tsplibdir.Instance(t, "a280")
	out := t.TempDir()
	var buf, log bytes.Buffer
	opt := Options{TSPLIBDir: dir, OutDir: out, Quick: true, Time: 200 * time.Millisecond, Instances: []string{"a280"}, Log: &log}
	if err := Run(context.Background(), "cpu", opt, &buf); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	for _, e := range CPUEngines {
		if !strings.Contains(md, "| a280 | 280 | "+e+" |") {
			t.Errorf("table lacks a row for %s:\n%s", e, md)
		}
	}
	if !strings.Contains(md, "cores") || !strings.Contains(md, "LKH-3") {
		t.Errorf("notes lack the machine or the reference:\n%s", md)
	}
	recs := readCSV(t, filepath.Join(out, "cpu.csv"))
	if len(recs) != 1+len(CPUEngines) || recs[0][7] != "gap %" {
		t.Fatalf("csv: %q", recs)
	}
	// auto's gap on a280 is a number from 0 up to the start tour's (how
	// far 200 ms take the search depends on the host: the engines' tests
	// check their quality by kicks budgets)
	for _, r := range recs[1:] {
		if r[2] != "auto" {
			continue
		}
		if g, err := strconv.ParseFloat(r[7], 64); err != nil || g < 0 || g >= 100 {
			t.Errorf("auto gap %q", r[7])
		}
	}
	if _, err := os.Stat(filepath.Join(out, "cpu.md")); err != nil {
		t.Fatal(err)
	}
	if log.Len() == 0 {
		t.Error("no progress lines")
	}
}

func TestCPUSuiteErrors(t *testing.T) {
	var buf bytes.Buffer
	if err := Run(context.Background(), "cpu", Options{}, &buf); err == nil {
		t.Fatal("no TSPLIB folder: no error")
	}
	err := Run(context.Background(), "cpu", Options{TSPLIBDir: t.TempDir(), Instances: []string{"nosuch"}}, &buf)
	if err == nil || !strings.Contains(err.Error(), "nosuch") {
		t.Fatalf("missing instance: %v", err)
	}
	if a, o := cpuBudgets(Options{}); a != 10*time.Second || o != 2*time.Second {
		t.Fatalf("default budgets %v %v", a, o)
	}
}
