package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/tsplab/tsplab/bench"
	"github.com/tsplab/tsplab/internal/atomicfile"
)

// benchShardFlags are tsp bench's flags for a run split over machines.
type benchShardFlags struct {
	shard shardFlags
	json  string
}

// register declares --shard, --shard-from-env and --json on fs.
func (f *benchShardFlags) register(fs *flag.FlagSet) {
	f.shard.register(fs)
	fs.StringVar(&f.json, "json", "", "also write the tables as JSON to `FILE` (what 'tsp bench merge' joins)")
}

// apply checks the flags for suite and sets them in opt.
func (f *benchShardFlags) apply(suite string, opt *bench.Options) error {
	sh, err := f.shard.resolve("bench", getenv)
	if err != nil {
		return err
	}
	if !sh.Whole() {
		if !bench.Shardable(suite) {
			return usagef("bench", "--shard: the %s suite runs whole (suites that take --shard: cpu)", suite)
		}
		if f.json == "" {
			return usagef("bench", "--shard needs --json FILE: 'tsp bench merge' joins the shards' JSON")
		}
	}
	if f.json != "" && f.json != "-" {
		if err := checkTargets("bench", nil, target{"--json", f.json}); err != nil {
			return err
		}
	}
	opt.Shard = sh
	opt.JSON = f.json
	return nil
}

// cmdBenchMerge is 'tsp bench merge SHARDS... --out FILE': the shards' reports joined and printed.
func cmdBenchMerge(_ context.Context, e *env, args []string) error {
	fs := newFlags(e, "bench merge", "SHARDS.json... --out FILE.json [--dir DIR]",
		"Joins the JSON reports of the N shards of one suite run ('tsp bench --suite S --shard I/N --json F')\n"+
			"into the report one machine running the whole suite writes, and prints its tables.")
	out := fs.String("out", "", "write the merged report to `FILE` (- for stdout; required)")
	dir := fs.String("dir", "", "also write the tables' markdown and CSV into `DIR`, as 'tsp bench --out' does")
	pos, err := parse(fs, "bench merge", args, 1, 1<<20)
	if err != nil {
		return err
	}
	if *out == "" {
		return usagef("bench merge", "--out FILE is required")
	}
	if *out != "-" {
		if err := checkTargets("bench merge", pos, target{"--out", *out}); err != nil {
			return err
		}
	}
	reps := make([]bench.Report, len(pos))
	for i, p := range pos {
		if reps[i], err = bench.ReadReport(p); err != nil {
			return err
		}
	}
	m, err := bench.Merge(reps, pos)
	if err != nil {
		return err
	}
	if *out == "-" {
		return m.WriteJSON(e.stdout)
	}
	if err := atomicfile.Write(*out, m.WriteJSON); err != nil {
		return fmt.Errorf("--out: %v", err)
	}
	if *dir != "" {
		if err := os.MkdirAll(*dir, 0o755); err != nil {
			return err
		}
		if err := m.Save(*dir); err != nil {
			return err
		}
	}
	return m.Print(e.stdout)
}
