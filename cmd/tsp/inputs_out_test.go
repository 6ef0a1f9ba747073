package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// No output of any kind is written onto a file the command read: the
// instance, a start tour, an optima table, the optimal tour beside the
// instance; whether named by the same path or through a link. Each is
// refused as a usage error before the run, and keeps its content.
func TestNoOutputOntoAnInput(t *testing.T) {
	dir := t.TempDir()
	inst := writeTestFile(t, dir, "stops.csv", "name,lat,lon\nA,52.52,13.405\nB,48.8566,2.3522\nC,51.5074,-0.1278\nD,50.85,4.35\nE,52.37,4.89\n")
	opt := writeTestFile(t, dir, "stops.opt.tour", "NAME : stops\nTYPE : TOUR\nDIMENSION : 5\nTOUR_SECTION\n1\n5\n4\n2\n3\n-1\nEOF\n")
	start := writeTestFile(t, dir, "start.txt", "A\nB\nC\nD\nE\n")
	optima := writeTestFile(t, dir, "known.csv", "name,optimum\nother,10\n")
	inputs := []string{inst, opt, start, optima}
	before := map[string]string{}
	for _, f := range inputs {
		b, _ := os.ReadFile(f)
		before[f] = string(b)
	}
	type kind struct {
		ext  string
		args func(out string) []string
	}
	solveArgs := []string{"solve", inst, "--start", start, "--optima", optima, "--backend", "cpu", "--time", "0.1", "--quiet"}
	var kinds []kind
	for _, ext := range []string{".tour", ".txt", ".csv", ".geojson", ".gpx", ".json"} {
		kinds = append(kinds, kind{ext, func(out string) []string { return append(solveArgs[:len(solveArgs):len(solveArgs)], "--out", out) }})
	}
	kinds = append(kinds, kind{".report", func(out string) []string { return append(solveArgs[:len(solveArgs):len(solveArgs)], "--json", out) }})
	for _, ext := range []string{".png", ".svg", ".pdf"} {
		kinds = append(kinds, kind{ext, func(out string) []string {
			return []string{"render", inst, "--tour", start, "--optima", optima, "--optimal", "--out", out}
		}})
	}
	kinds = append(kinds, kind{".bound", func(out string) []string {
		return []string{"bound", inst, "--optima", optima, "--json", out, "--quiet"}
	}})
	for i, k := range kinds {
		for j, in := range inputs {
			if k.ext == ".bound" && in == start {
				continue // tsp bound reads no tour
			}
			// the input itself, where its name has the kind's extension, and a link to it named as the kind's file
			targets := []string{filepath.Join(dir, "link"+string(rune('a'+i))+string(rune('a'+j))+k.ext)}
			if err := os.Symlink(in, targets[0]); err != nil {
				t.Fatal(err)
			}
			if filepath.Ext(in) == k.ext {
				targets = append(targets, in)
			}
			for _, out := range targets {
				args := k.args(out)
				code, _, stderr := tsp(t, args...)
				if code != 2 || !strings.Contains(stderr, "is an input file") {
					t.Errorf("%s onto %s: exit %d, %q: want a usage error naming an input file", k.ext, filepath.Base(in), code, stderr)
				}
				for _, f := range inputs {
					if b, _ := os.ReadFile(f); string(b) != before[f] {
						t.Fatalf("%v rewrote %s:\n%s", args, filepath.Base(f), b)
					}
				}
			}
		}
	}
}
