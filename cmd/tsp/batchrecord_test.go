package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/instfile"
	"github.com/tsplab/tsplab/solver/report"
)

// TestBatchOutNotOntoAnInput: tsp batch's --out may not name a file the
// batch reads: the table --optima names (as a .csv, or optima.csv in the
// folder it names, directly or through a link) and an instance file of a
// folder given as input. Each is a usage error before any work, and the
// file keeps its content.
func TestBatchOutNotOntoAnInput(t *testing.T) {
	dir := t.TempDir()
	inst := writeTestFile(t, dir, "sq.csv", "x,y\n0,0\n10,0\n10,10\n0,10\n5,15\n")
	optDir := filepath.Join(dir, "opt")
	if err := os.Mkdir(optDir, 0o755); err != nil {
		t.Fatal(err)
	}
	folderTable := writeTestFile(t, optDir, "optima.csv", "name,optimum\nother,10\n")
	table := writeTestFile(t, dir, "known.csv", "name,optimum\nother,10\n")
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(table, link); err != nil {
		t.Fatal(err)
	}
	folder := filepath.Join(dir, "many")
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	member := writeTestFile(t, folder, "b.csv", "x,y\n0,0\n3,0\n3,4\n")
	for _, c := range []struct {
		args  []string
		input string
	}{
		{[]string{inst, "--optima", optDir, "--out", folderTable}, folderTable},
		{[]string{inst, "--optima", table, "--out", table}, table},
		{[]string{inst, "--optima", table, "--out", link}, table},
		{[]string{folder, "--out", member}, member},
	} {
		before, _ := os.ReadFile(c.input)
		args := append([]string{"batch", "--backend", "cpu", "--quiet"}, c.args...)
		code, _, stderr := tsp(t, args...)
		if code != 2 || !strings.Contains(stderr, "is an input file") {
			t.Errorf("%v: exit %d, %q: want a usage error naming an input file", c.args, code, stderr)
		}
		if after, _ := os.ReadFile(c.input); string(after) != string(before) {
			t.Errorf("%v rewrote %s:\n%s", c.args, c.input, after)
		}
	}
}

// TestBatchLineFromTheRecord: a batch's line says what the run's record
// (report.Report) says of the same result: its length in the file's
// units, the optimum and the gap above it, and, for an open path, the
// route with its ends, as solve's report gives them under account.route;
// a closed tour's line has no route.
func TestBatchLineFromTheRecord(t *testing.T) {
	in, err := instfile.ParsePoints(strings.NewReader("id,x,y\n7,0,0\n8,3,0\n9,3,4\n"), "p.csv")
	if err != nil {
		t.Fatal(err)
	}
	res := solver.Result{Tour: []int{2, 0, 1}, Algorithm: "auto", Backend: "cpu"}
	res.Length = solver.TourLength(in, res.Tour)
	in.Optimum = res.Length * 99 / 100 // in the instance's units
	r := &batchRequest{tours: true}
	for _, route := range []*solver.RouteAccount{nil, {Open: true, From: "9", To: "8"}} {
		res.Account.Route = route
		l := r.line(context.Background(), batchItem{file: "p.csv"}, in, res, 0, false)
		rep := report.New(in, res)
		b, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		var back map[string]any
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if back["length"].(float64) != rep.Length || back["optimum"].(float64) != *rep.Optimum || back["gap_percent"].(float64) != *rep.GapPercent {
			t.Errorf("line %s; the record says length %v, optimum %v, gap %v", b, rep.Length, *rep.Optimum, *rep.GapPercent)
		}
		if got := back["route"]; (route == nil) != (got == nil) {
			t.Errorf("route %+v: the line's route is %v", route, got)
		}
		if route != nil && (l.Route == nil || *l.Route != *route) {
			t.Errorf("the line's route %+v, want the record's %+v", l.Route, route)
		}
		if !slices.Equal(l.Tour, []int64{9, 7, 8}) {
			t.Errorf("tour %v, want the ids 9 7 8", l.Tour)
		}
	}
}
