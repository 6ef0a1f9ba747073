package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/tsplab/tsplab/internal/tsplibdir"
)

// TestSolveStartOptimal starts every CPU engine from pr2392's optimal tour:
// each run ends at once at the optimum, which none reaches from its own
// start in the time given.
func TestSolveStartOptimal(t *testing.T) {
	file := tsplibdir.Instance(t, "pr2392")
	opt := filepath.Join(filepath.Dir(file), "opt", "pr2392.opt.tour")
	for _, algo := range []string{"auto", "2opt-ils", "3opt-ils", "2opt-climb", "swap-climb", "sa", "pssm", "pspm", "sspm"} {
		t.Run(algo, func(t *testing.T) {
			code, out, stderr := tsp(t, "solve", file, "--start", opt, "--algo", algo, "--backend", "cpu", "--time", "2s")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if !strings.Contains(out, "length 378,032 (gap 0.00%") || !strings.Contains(out, "optimum reached") {
				t.Fatalf("not ended at the optimum: %s", out)
			}
		})
	}
}

func TestSolveStartBad(t *testing.T) {
	dir := t.TempDir()
	inst := writeTestFile(t, dir, "sq.tsp", "NAME: sq\nTYPE: TSP\nDIMENSION: 4\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 1 0\n3 1 1\n4 0 1\nEOF\n")
	cases := []struct {
		name, tour string
		want       []string
	}{
		{"unknown id", "1\n2\n7\n4\n", []string{"bad.txt:3:", "id 7 is not a city of sq"}},
		{"a city twice", "1,2,2,4\n", []string{"bad.txt:1:", "city 2 given twice"}},
		{"a missing city", "1\n2\n3\n", []string{"bad.txt:3:", "city 4 (id 4) is missing"}},
		{"tsplib out of range", "TOUR_SECTION\n1\n2\n3\n9\n-1\n", []string{"bad.txt:5:", "out of range 1..4"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tour := writeTestFile(t, dir, "bad.txt", c.tour)
			code, _, stderr := tsp(t, "solve", inst, "--start", tour, "--backend", "cpu", "--time", "1s")
			if code != 1 {
				t.Fatalf("exit %d, want 1: %s", code, stderr)
			}
			oneErrorLine(t, stderr, c.want...)
		})
	}
	if code, _, stderr := tsp(t, "solve", inst, "--start", filepath.Join(dir, "none.txt")); code != 1 {
		t.Fatalf("missing start file: exit %d: %s", code, stderr)
	}
}
