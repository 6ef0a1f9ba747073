package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tsplab/tsplab/internal/tsplibdir"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/report"
)

// TestCountsInTheSingular: a count of one takes the singular noun, in the
// engine's device line, in a reader's error and in the commands' headers.
func TestCountsInTheSingular(t *testing.T) {
	p := genCircle(t, 12)
	for _, algo := range []string{"auto", "pop", "2opt-ils"} {
		code, out, stderr := tsp(t, "solve", p, "--algo", algo, "--workers", "1", "--time", "1")
		if code != 0 || !strings.Contains(out, "1 worker on ") || strings.Contains(out, "1 workers") {
			t.Errorf("%s --workers 1: exit %d, %q (%s)", algo, code, out, stderr)
		}
	}
	dir := t.TempDir()
	bad := writeTestFile(t, dir, "one.tsp", "NAME : one\nTYPE : TSP\nDIMENSION : 3\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n1 5\n2 5 5\n3 1 1\nEOF\n")
	code, _, stderr := tsp(t, "info", bad)
	if code != 1 || !strings.Contains(stderr, "node 1 has 1 coordinate, want 2") {
		t.Errorf("one coordinate: exit %d, %q", code, stderr)
	}
	one := writeTestFile(t, dir, "single.csv", "id,x,y\n1,3,4\n")
	code, out, stderr := tsp(t, "engines", one)
	if code != 0 || !strings.Contains(out, "(1 city)") {
		t.Errorf("engines on one city: exit %d, %q (%s)", code, firstLine(out), stderr)
	}
}

// TestLongNumbersGrouped: what gen, info, eval and engines print for
// people has the thousands of its numbers apart.
func TestLongNumbersGrouped(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "u10k.tsp")
	code, _, stderr := tsp(t, "gen", "--kind", "uniform", "--n", "10000", "--out", p)
	if code != 0 || !strings.Contains(stderr, "(10,000 cities)") {
		t.Errorf("gen: exit %d, %q", code, stderr)
	}
	big := filepath.Join(dir, "u200.tsp")
	if code, _, stderr := tsp(t, "gen", "--kind", "uniform", "--n", "200", "--out", big); code != 0 {
		t.Fatalf("gen: %s", stderr)
	}
	code, out, _ := tsp(t, "info", big, "--bound", "20s")
	if code != 0 || !strings.Contains(out, "lower_bound: ") {
		t.Fatalf("info: exit %d, %q", code, out)
	}
	checkWords(t, "info", strings.ReplaceAll(out, big, "FILE"))
	code, out, _ = tsp(t, "engines", "--verbose", "--all")
	if code != 0 {
		t.Fatalf("engines: exit %d", code)
	}
	if m := longNumber.FindString(out); m != "" {
		t.Errorf("engines: %q is not grouped", m)
	}
	a280 := tsplibdir.Instance(t, "a280")
	code, out, _ = tsp(t, "eval", a280, filepath.Join(filepath.Dir(a280), "opt", "a280.opt.tour"))
	if code != 0 || !strings.Contains(out, "above the optimum 2,579\n") || lastLine(out) != "2579" {
		t.Errorf("eval a280: exit %d, %q", code, out)
	}
}

// firstLine is s up to its first newline.
func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// TestQuietPrintsNothing: solve --quiet prints nothing on stdout or stderr,
// not the summary nor a note on the bound, and still writes its files; an
// error still says itself.
func TestQuietPrintsNothing(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "u300.tsp")
	if code, _, stderr := tsp(t, "gen", "--kind", "uniform", "--n", "300", "--out", p); code != 0 {
		t.Fatalf("gen: %s", stderr)
	}
	tour, js := filepath.Join(dir, "u.tour"), filepath.Join(dir, "u.json")
	code, out, stderr := tsp(t, "solve", p, "--time", "0.3", "--quiet", "--out", tour, "--json", js)
	if code != 0 || out != "" || stderr != "" {
		t.Errorf("--quiet: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	completeTour(t, tour, 300)
	if _, err := os.Stat(js); err != nil {
		t.Errorf("--quiet wrote no report: %v", err)
	}
	code, out, stderr = tsp(t, "solve", p, "--time", "0.3", "--quiet", "--json", "-")
	if code != 0 || !strings.HasPrefix(out, "{") || stderr != "" {
		t.Errorf("--quiet --json -: exit %d, stdout %.40q, stderr %q", code, out, stderr)
	}
	code, _, stderr = tsp(t, "solve", filepath.Join(dir, "none.tsp"), "--quiet")
	if code != 1 || stderr == "" {
		t.Errorf("--quiet on a missing file: exit %d, stderr %q", code, stderr)
	}
}

// TestGenSaysWhatItWrote: gen says in one line every file it wrote or
// updated, optima.csv included, and an --n its kind cannot take is a usage
// error (exit 2) as any other bad --n.
func TestGenSaysWhatItWrote(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "c20.tsp")
	code, _, stderr := tsp(t, "gen", "--kind", "circle", "--n", "20", "--out", p, "--opt-tour")
	want := "tsp: wrote " + p + " (20 cities) and its optimum 6,260 into " + filepath.Join(dir, "optima.csv") + ", its optimal tour into " + filepath.Join(dir, "c20.opt.tour") + "\n"
	if code != 0 || stderr != want {
		t.Errorf("gen circle: exit %d, %q, want %q", code, stderr, want)
	}
	code, _, stderr = tsp(t, "gen", "--kind", "uniform", "--n", "20", "--out", filepath.Join(dir, "u20.tsp"))
	if code != 0 || strings.Contains(stderr, "optima.csv") {
		t.Errorf("gen uniform: exit %d, %q", code, stderr)
	}
	for _, n := range []string{"7", "2", "0", "30000"} {
		kind := "grid"
		if n == "30000" {
			kind = "circle"
		}
		code, out, stderr := tsp(t, "gen", "--kind", kind, "--n", n)
		if code != 2 || out != "" || !strings.Contains(firstLine(stderr), "--n ") {
			t.Errorf("gen --kind %s --n %s: exit %d, %q", kind, n, code, stderr)
		}
	}
}

// TestTinyInstances: a run on 1, 2 or 3 cities, whose every tour is
// optimal, says so plainly with the length, and nothing of a search, a gap
// or a bound; no progress line claims there is no tour yet.
func TestTinyInstances(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		points, want string
	}{
		{"id,x,y\n1,1000,0\n", "t1: length 0; one city: its tour is that city alone, and optimal\n"},
		{"id,x,y\n1,0,0\n2,3000,4000\n", "t2: length 10,000; every tour of 2 cities is optimal\n"},
		{"id,x,y\n1,0,0\n2,3,0\n3,3,4\n", "t3: length 12; every tour of 3 cities is optimal\n"},
	} {
		name := fmt.Sprintf("t%d", strings.Count(c.points, "\n")-1)
		p := writeTestFile(t, dir, name+".csv", c.points)
		code, out, stderr := tsp(t, "solve", p, "--time", "1")
		if code != 0 || out != c.want || stderr != "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want stdout %q alone", name, code, out, stderr, c.want)
		}
	}
}

// TestInternalsOnlyWhenVerbose: an annealer's schedule (its cooling
// factors, steps, sweeps and temperatures) and a point list's integer
// scale are said with --verbose alone.
func TestInternalsOnlyWhenVerbose(t *testing.T) {
	p := genCircle(t, 120)
	internals := []string{"alpha", "sweeps", "steps of", "T 1e+04"}
	code, out, stderr := tsp(t, "solve", p, "--algo", "pspm", "--backend", "cpu", "--time", "0.3")
	for _, w := range internals {
		if code != 0 || strings.Contains(out+stderr, w) {
			t.Errorf("pspm says %q without --verbose: exit %d\n%s%s", w, code, out, stderr)
		}
	}
	code, out, _ = tsp(t, "solve", p, "--algo", "pspm", "--backend", "cpu", "--time", "0.3", "--verbose")
	if code != 0 || !strings.Contains(out, "\nschedule fitted to the time limit: alpha ") {
		t.Errorf("pspm --verbose: exit %d, no schedule in\n%s", code, out)
	}
	csv := writeTestFile(t, t.TempDir(), "holes.csv", "id,x,y\n1,0.5,0.25\n2,10.125,3\n3,4,8.5\n4,7,1\n")
	code, out, _ = tsp(t, "info", csv, "--bound", "0")
	if code != 0 || strings.Contains(out, "10^") || !strings.Contains(out, "point list (lengths in file units)") {
		t.Errorf("info: exit %d\n%s", code, out)
	}
	code, out, _ = tsp(t, "info", csv, "--bound", "0", "--verbose")
	if code != 0 || !strings.Contains(out, "scale: lengths computed as integers in units of 10^-") {
		t.Errorf("info --verbose: exit %d\n%s", code, out)
	}
}

// TestProgressStatusWhole: a status too long for the progress line gives
// way clause by clause, never cut inside a word; a population whose first
// descents have not ended, while a best tour shows, does not read as stuck
// at 0 tours.
func TestProgressStatusWhole(t *testing.T) {
	in := solver.NewCoordInstance("x", solver.GreatCircle, []float64{0, 3}, []float64{0, 4}, nil)
	p := &progress{in: in, terminal: true, limit: time.Minute, best: 12345678, lb: 12000000}
	building := &solver.Account{EAX: &solver.EAXAccount{Populations: 1, Descents: 300, Built: 0}}
	evolving := &solver.Account{EAX: &solver.EAXAccount{Populations: 12, Tours: 16, Generations: 1234}}
	for _, c := range []struct {
		acc  *solver.Account
		want string
	}{{building, "[building a population]"}, {evolving, "[evolving 16 tours]"}} {
		s := solver.Snapshot{Phase: solver.PhaseEvolve, Account: c.acc, BestLength: 12345678, Moves: 123456789, Elapsed: 100 * time.Second}
		got := p.line(s)
		if strings.Contains(got, "…") || !strings.Contains(got, c.want) || len([]rune(got)) > progressWidth {
			t.Errorf("line %q, want %q whole within %d columns", got, c.want, progressWidth)
		}
	}
	if s := report.Status(solver.PhaseEvolve, building); strings.Contains(s, " 0 ") {
		t.Errorf("status %q counts 0 tours", s)
	}
	if got := fitStatus("evolving 16 tours, generation 29 (population 2, with the best so far)", 30); got != "evolving 16 tours" {
		t.Errorf("fitStatus: %q", got)
	}
	if got := fitStatus("computing a lower bound", 10); got != "" {
		t.Errorf("fitStatus of one clause: %q", got)
	}
}

// TestTabuListedAndWorkersSaid: swap-climb's tabu search is listed with its
// options, and more than one worker for it, one sequential search, is
// refused in a line that says why instead of silently run on one.
func TestTabuListedAndWorkersSaid(t *testing.T) {
	_, out, _ := tsp(t, "engines", "--verbose")
	if b := engineBlock(out, "swap-climb   cpu"); !strings.Contains(b, "--opt tabu ") || !strings.Contains(b, "--opt tenure ") {
		t.Errorf("swap-climb's tabu search not listed:\n%s", b)
	}
	p := genCircle(t, 30)
	code, _, stderr := tsp(t, "solve", p, "--algo", "swap-climb", "--opt", "tabu=50", "--workers", "2")
	if code != 2 || !strings.Contains(firstLine(stderr), "--workers 2") || !strings.Contains(firstLine(stderr), "tabu") {
		t.Errorf("tabu on 2 workers: exit %d, %q", code, stderr)
	}
	code, out, stderr = tsp(t, "solve", p, "--algo", "swap-climb", "--opt", "tabu=50", "--workers", "1")
	if code != 0 || !strings.Contains(out, "1 worker on ") {
		t.Errorf("tabu on 1 worker: exit %d, %q %s", code, out, stderr)
	}
}

// TestOptimalStartEndsAtOnce: a run whose start tour is as short as the
// known optimum ends before the engine searches (no move evaluated), says
// the optimum is reached and shows no progress without a tour.
func TestOptimalStartEndsAtOnce(t *testing.T) {
	p := genCircle(t, 200)
	opt := strings.TrimSuffix(p, ".tsp") + ".opt.tour"
	for _, algo := range []string{"auto", "pop", "sa"} {
		code, out, stderr := tsp(t, "solve", p, "--algo", algo, "--start", opt, "--time", "10m", "--json", "-")
		var rep struct {
			Moves  int64  `json:"moves_evaluated"`
			Reason string `json:"stop_reason"`
		}
		if err := json.Unmarshal([]byte(out), &rep); code != 0 || err != nil {
			t.Fatalf("%s: exit %d, %v: %s", algo, code, err, stderr)
		}
		if rep.Moves != 0 || rep.Reason != "optimum" || strings.Contains(stderr, "no tour yet") {
			t.Errorf("%s from the optimal tour: %d moves, stop reason %q, stderr %q", algo, rep.Moves, rep.Reason, stderr)
		}
	}
}
