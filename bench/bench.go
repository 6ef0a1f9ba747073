// Package bench runs the benchmark and reproduction suites behind `tsp bench` over the engine registry (the caller links the engines in) and writes their tables as markdown and CSV.
package bench

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"
)

// Options control a suite run.
type Options struct {
	TSPLIBDir string            // folder of .tsp files and optima.csv
	OutDir    string            // where markdown, CSV and plots go ("" = none)
	Time      time.Duration     // time budget per run (0 = the suite's default)
	Runs      int               // runs per configuration (0 = the suite's default)
	Workers   int               // CPU workers (0 = all cores)
	Quick     bool              // a short version for smoke tests
	Instances []string          // restrict to these instances (nil = the suite's list)
	PapersDir string            // the papers' CSV tables ("" = PapersDir())
	Scale     float64           // multiplies the suites' iteration budgets (0 = 1: the paper's)
	Only      []string          // parts of a reproduction suite to run: its tables ("table2") or engines ("pspm"); nil = all
	Threads   int               // parallel moves per search for the suite's annealers (0 = the paper's)
	Extra     map[string]string // engine options (Params.Extra), given to each engine of the suite that has them
	Prior     string            // an earlier result CSV whose measured columns a suite keeps (lam: Table 3's threshold, CPU SSPM and GPU PSPM columns)
	PeerLKH   string            // ttq: an LKH-3 executable run beside the engines ("" = none)
	Log       io.Writer         // progress lines (may be nil)
	GPU       GPU               // the GPU kernels and populations the suites time alone (nil: none in this build)
	Shard     Shard             // the part of the rows to run (the zero Shard: all; only suites that are Shardable)
	JSON      string            // write the tables as a Report to this file ("" = none)
}

// Suite runs one named suite, printing its table last to out.
type Suite func(ctx context.Context, opt Options, out io.Writer) error

// suites are the registered suites by name; Register runs only from init functions.
var suites = map[string]suiteEntry{}

type suiteEntry struct {
	run  Suite
	desc string
}

// Register adds a suite under name.
func Register(name, description string, s Suite) { suites[name] = suiteEntry{s, description} }

// Names returns the registered suite names with their descriptions ("name\tdescription").
func Names() []string {
	var out []string
	for n, e := range suites {
		out = append(out, n+"\t"+e.desc)
	}
	slices.Sort(out)
	return out
}

// Run runs the named suite.
func Run(ctx context.Context, name string, opt Options, out io.Writer) error {
	e, ok := suites[name]
	if !ok {
		return fmt.Errorf("unknown suite %q (have: %s)", name, strings.Join(slices.Sorted(maps.Keys(suites)), ", "))
	}
	return e.run(ctx, opt, out)
}
