package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tsplab/tsplab/bench"
	"github.com/tsplab/tsplab/internal/tsplibdir"
)

// TestBenchShardsMerge runs the cpu suite on a tiny configuration whole
// and in three shards, merges the shards and checks the merged report is
// the whole run's but for what each run measures (times, lengths, gaps,
// moves per second, which time-limited runs do not repeat).
func TestBenchShardsMerge(t *testing.T) {
	dir := tsplibdir.Need(t)
	tmp := t.TempDir()
	args := []string{"bench", "--suite", "cpu", "--quick", "--time", "40ms", "--instances", "berlin52,eil51", "--tsplib", dir, "--quiet", "--workers", "1"}
	whole := filepath.Join(tmp, "whole.json")
	if code, _, stderr := tsp(t, append(args, "--json", whole)...); code != 0 {
		t.Fatalf("whole run: exit %d: %s", code, stderr)
	}
	var shards []string
	for i := range 3 {
		p := filepath.Join(tmp, fmt.Sprintf("shard%d.json", i))
		if code, _, stderr := tsp(t, append(args, "--shard", fmt.Sprintf("%d/3", i), "--json", p)...); code != 0 {
			t.Fatalf("shard %d: exit %d: %s", i, code, stderr)
		}
		shards = append(shards, p)
	}
	merged := filepath.Join(tmp, "merged.json")
	code, out, stderr := tsp(t, append([]string{"bench", "merge", "--out", merged}, shards[2], shards[0], shards[1])...)
	if code != 0 {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "CPU engines") {
		t.Errorf("merge printed no table: %q", out)
	}
	w, err := bench.ReadReport(whole)
	if err != nil {
		t.Fatal(err)
	}
	m, err := bench.ReadReport(merged)
	if err != nil {
		t.Fatal(err)
	}
	if m.Suite != "cpu" || m.Shard != nil || len(m.Tables) != len(w.Tables) || len(w.Tables) != 1 {
		t.Fatalf("merged report: suite %q shard %v, %d tables; whole run %d", m.Suite, m.Shard, len(m.Tables), len(w.Tables))
	}
	wt, mt := w.Tables[0], m.Tables[0]
	if len(wt.Rows) != 18 || len(mt.Rows) != len(wt.Rows) {
		t.Fatalf("%d rows merged, the whole run has %d (want 2 instances × 9 engines)", len(mt.Rows), len(wt.Rows))
	}
	if wt.File != mt.File || wt.Title != mt.Title || !slices.Equal(wt.Header, mt.Header) || !slices.Equal(wt.Notes, mt.Notes) {
		t.Fatalf("merged table's file, title, header or notes differ:\n%+v\n%+v", mt, wt)
	}
	measured := map[string]bool{"time s": true, "length": true, "gap %": true, "mean gap %": true, "moves/s": true}
	for r := range wt.Rows {
		for c, h := range wt.Header {
			if !measured[h] && wt.Rows[r][c] != mt.Rows[r][c] {
				t.Errorf("row %d column %q: merged %q, whole %q", r, h, mt.Rows[r][c], wt.Rows[r][c])
			}
		}
	}

	// shards that do not make a whole run are refused
	for _, c := range []struct {
		files []string
		want  string
	}{
		{shards[:2], "2 reports given, the shards are of 3"},
		{[]string{shards[0], shards[0], shards[1]}, "given twice"},
		{[]string{whole}, "shards are of 0"},
	} {
		if code, _, stderr := tsp(t, append([]string{"bench", "merge", "--out", filepath.Join(tmp, "bad.json")}, c.files...)...); code != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("merge %v: exit %d, %q: want %q", c.files, code, stderr, c.want)
		}
	}
	if code, _, stderr := tsp(t, "bench", "--suite", "lam", "--shard", "0/2", "--json", filepath.Join(tmp, "x.json")); code != 2 || !strings.Contains(stderr, "runs whole") {
		t.Errorf("a suite without shards: exit %d, %q", code, stderr)
	}
}
