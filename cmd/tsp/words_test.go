package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tsplab/tsplab/internal/tsplibdir"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/report"
	"github.com/tsplab/tsplab/solver/session"
)

// longNumber finds a number of six digits or more without its thousands
// apart.
var longNumber = regexp.MustCompile(`\d{6,}`)

// engineDiary are the words of the engines' old notes that a user never
// needs.
var engineDiary = []string{"children entered", "first tours", "gains merging"}

// checkWords fails on an ungrouped long number or a word of the engines'
// diary in out.
func checkWords(t *testing.T, what, out string) {
	t.Helper()
	if m := longNumber.FindString(out); m != "" {
		t.Errorf("%s: %q is not grouped in\n%s", what, m, out)
	}
	for _, w := range engineDiary {
		if strings.Contains(out, w) {
			t.Errorf("%s says %q:\n%s", what, w, out)
		}
	}
}

// TestSolveWordsFnl4461: a 3-s run on fnl4461 prints no long number
// ungrouped and none of the engines' diary.
func TestSolveWordsFnl4461(t *testing.T) {
	p := filepath.Join(tsplibdir.Need(t), "fnl4461.tsp")
	r := bin(t, "solve", p, "--time", "3s")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	checkWords(t, "fnl4461", r.stdout+r.stderr)
}

// millimetres writes n holes of a board in millimetres, three decimals
// each, as a point list: its lengths have a scale of 10³ inside.
func millimetres(t *testing.T, n int) string {
	r := rand.New(rand.NewPCG(7, 7))
	var b strings.Builder
	b.WriteString("id,x,y\n")
	for i := range n {
		fmt.Fprintf(&b, "%d,%.3f,%.3f\n", i+1, 160*r.Float64(), 100*r.Float64())
	}
	return writeTestFile(t, t.TempDir(), "holes.csv", b.String())
}

// TestPopulationWordsInFileUnits: a population search on a point list in
// millimetres reports its account in the file's units, in the JSON report,
// in the progress lines (with the pool's capacity) and in words (grouped,
// plurals right, no diary).
func TestPopulationWordsInFileUnits(t *testing.T) {
	p := millimetres(t, 600)
	r := bin(t, "solve", p, "--algo", "pop", "--time", "2s", "--json", "-", "--progress", "json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var rep report.Report
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("report: %v\n%s", err, r.stdout)
	}
	e := rep.Account.EAX
	if e == nil || rep.Account.Pool == nil || rep.Account.Search != solver.SearchPopulation {
		t.Fatalf("account %+v: no population search", rep.Account)
	}
	// the scaled integers would be a thousand times the length
	if !(rep.Length <= e.Best && e.Best <= e.FirstBest && e.FirstBest < 2*rep.Length) {
		t.Errorf("length %v, EAX best %v to %v: not in the file's units", rep.Length, e.FirstBest, e.Best)
	}
	pooled := false
	for _, l := range jsonLines(t, r.stderr) {
		pl, ok := l["pool"].(map[string]any)
		if !ok {
			continue
		}
		pooled = true
		if c, ok := pl["capacity"].(float64); !ok || c != float64(rep.Account.Pool.Capacity) {
			t.Errorf("progress pool %v: capacity not %d", pl, rep.Account.Pool.Capacity)
		}
		if acc, ok := l["account"].(map[string]any); !ok || acc["pool"] == nil {
			t.Errorf("progress line %v: no account with the pool", l)
		}
	}
	if !pooled {
		t.Error("no progress line has the pool")
	}
	v := bin(t, "solve", p, "--algo", "pop", "--time", "2s", "--verbose")
	if v.code != 0 {
		t.Fatalf("exit %d: %s", v.code, v.stderr)
	}
	checkWords(t, "pop", v.stdout+v.stderr)
	if m := regexp.MustCompile(`best ([\d,.]+) to ([\d,.]+)`).FindStringSubmatch(v.stdout); m == nil {
		t.Errorf("verbose account without the population's best:\n%s", v.stdout)
	} else if f := parseGrouped(t, m[2]); f > 2*rep.Length {
		t.Errorf("verbose says the population's best is %v beside a length of %v", f, rep.Length)
	}
	if !strings.Contains(v.stdout, "evolved 1 population by edge assembly crossover") && !strings.Contains(v.stdout, "recombined a pool of") {
		t.Errorf("summary says nothing of the population or the pool:\n%s", v.stdout)
	}
}

// parseGrouped reads a number with its thousands apart.
func parseGrouped(t *testing.T, s string) float64 {
	var f float64
	if _, err := fmt.Sscan(strings.ReplaceAll(s, ",", ""), &f); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestTinyLengthsInFileUnits: runs on 3 cities and 4 points give every
// length in the file's units, in the summary and the report.
func TestTinyLengthsInFileUnits(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name, text string
		length     float64
	}{
		{"three.csv", "x,y\n0,0\n3,0\n0,4.5\n", 3 + 4.5 + math.Sqrt(9+4.5*4.5)},
		{"four.csv", "x,y\n0,0\n1.5,0\n1.5,1.5\n0,1.5\n", 6},
	} {
		p := writeTestFile(t, dir, c.name, c.text)
		r := bin(t, "solve", p, "--time", "1s", "--json", filepath.Join(dir, c.name+".json"), "--verbose")
		if r.code != 0 {
			t.Fatalf("%s: exit %d: %s", c.name, r.code, r.stderr)
		}
		m := regexp.MustCompile(`length ([\d,.]+)`).FindStringSubmatch(r.stdout)
		if m == nil || math.Abs(parseGrouped(t, m[1])-c.length) > 1e-3 {
			t.Errorf("%s: summary %q, want length %.4f", c.name, r.stdout, c.length)
		}
		for _, f := range regexp.MustCompile(`best ([\d,.]+)`).FindAllStringSubmatch(r.stderr, -1) {
			if math.Abs(parseGrouped(t, f[1])-c.length) > 1e-3 {
				t.Errorf("%s: progress %q, want %.4f", c.name, f[0], c.length)
			}
		}
	}
}

// TestEndsProgressIsThePathLength: with --ends the progress shows the
// path's length, as the summary does, not that of the tour through the
// edge between the ends.
func TestEndsProgressIsThePathLength(t *testing.T) {
	in := solver.NewCoordInstance("line", solver.Euc2D, []float64{0, 10, 20, 30}, []float64{0, 0, 0, 0}, nil)
	e, err := solver.Lookup("auto", solver.BackendCPU)
	if err != nil {
		t.Fatal(err)
	}
	f := routeFlags{ends: "1,4"}
	var p solver.Params
	rt, err := f.newRoute(in, e, &p)
	if err != nil {
		t.Fatal(err)
	}
	var o outputs
	rt.adjust(&o)
	var buf bytes.Buffer
	pr := newProgress(&buf, rt.in, 0, false)
	pr.length = o.pathLength
	tour := []int{0, 1, 2, 3} // the path 1-2-3-4 (30) closed by the edge 4-1 (30)
	pr.show(solver.Snapshot{Tour: tour, Length: 60, Best: tour, BestLength: 60})
	if !strings.Contains(buf.String(), "best 30 ") {
		t.Errorf("progress %q, want the path's length 30", buf.String())
	}
}

// TestEarlyStopSaysWhatWasWritten: a stop before any search has a tour
// says the tour written is the file's order, even where that order is
// the optimum; a stop later says it is the best found by then.
func TestEarlyStopSaysWhatWasWritten(t *testing.T) {
	for _, c := range []struct {
		res         solver.Result
		interrupted bool
		want        string
	}{
		{solver.Result{Tour: []int{0, 1, 2, 3}, StopReason: solver.StopInterrupt}, true, "the file's order"},
		{solver.Result{Tour: []int{0, 1, 2, 3}, StopReason: solver.StopOptimum}, true, "the file's order"},
		{solver.Result{Tour: []int{0, 2, 1, 3}, Moves: 12, StopReason: solver.StopInterrupt}, true, "the best tour found by then"},
		{solver.Result{Tour: []int{0, 1, 2, 3}, StopReason: solver.StopTime}, false, ""},
	} {
		var buf bytes.Buffer
		warnEarlyStop(&env{stderr: &buf}, session.Outcome{Result: c.res}, c.interrupted)
		if got := buf.String(); (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%+v: warning %q, want %q", c.res, got, c.want)
		}
	}
}
