package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tsplab/tsplab/bench"
	"github.com/tsplab/tsplab/internal/atomicfile"
	"github.com/tsplab/tsplab/internal/tsplibdir"
)

// cmdBenchReport is 'tsp bench report': the plan's --run PARTS into CSVs under --results, then the page.
func cmdBenchReport(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "bench report", "[--run PARTS] [--results DIR] [--doc FILE] [flags]",
		"Runs the parts of the benchmark report's plan given by --run ("+strings.Join(bench.ReportParts, ", ")+"),\n"+
			"each table's CSV written to --results, then writes the benchmark page (--doc) from the CSV files there.\n"+
			"Without --run it only rewrites the page.")
	opt := bench.ReportOptions{Options: bench.Options{GPU: benchGPU()}}
	run := fs.String("run", "", "comma-separated parts of the plan to run (default: none)")
	fs.StringVar(&opt.Results, "results", filepath.Join("docs", "results"), "folder of the tables' CSV files")
	doc := fs.String("doc", filepath.Join("docs", "BENCHMARKS.md"), "the page to write (- for stdout, empty for none)")
	plan := fs.Bool("plan", false, "print the plan: each table's part and time, each part's total")
	files := fs.Bool("files", false, "print the TSPLIB files the parts given by --run read, one a line")
	fs.BoolVar(&opt.Quick, "quick", false, "a short version of every table, to check that the plan runs")
	fs.StringVar(&opt.Build, "build", "", "the build the tables name (default: the binary's commit)")
	fs.StringVar(&opt.Machine, "machine", "", "the machine the tables name (default: the GPU and the processor measured)")
	fs.IntVar(&opt.Workers, "workers", 0, "CPU workers (0: all cores)")
	fs.StringVar(&opt.TSPLIBDir, "tsplib", "", "TSPLIB folder (default: $TSPLIB_DIR or ../shared/tsplib beside the repository)")
	fs.StringVar(&opt.PapersDir, "papers", "", "folder of the papers' tables as CSV (default: $"+bench.PapersEnv+" or ../shared/papers)")
	fs.StringVar(&opt.PeerLKH, "peer-lkh", "", "an LKH-3 executable at `PATH` run beside auto in the 10-s table (default: $TSP_PEER_LKH)")
	quiet := fs.Bool("quiet", false, "no progress lines on stderr")
	if _, err := parse(fs, "bench report", args, 0, 0); err != nil {
		return err
	}
	if *plan {
		for _, l := range bench.ReportPlan() {
			fmt.Fprintln(e.stdout, l)
		}
		return nil
	}
	opt.Parts = splitList(*run, strings.ToLower)
	for _, p := range opt.Parts {
		if !slices.Contains(bench.ReportParts, p) {
			return usagef("bench report", "--run %s: want some of %s", p, strings.Join(bench.ReportParts, ", "))
		}
	}
	if *files {
		for _, f := range bench.ReportFiles(opt.Parts) {
			fmt.Fprintln(e.stdout, f)
		}
		return nil
	}
	opt.TSPLIBDir = cmp.Or(opt.TSPLIBDir, tsplibdir.TSPLIBDir())
	opt.PeerLKH = cmp.Or(opt.PeerLKH, getenv("TSP_PEER_LKH"))
	if !*quiet {
		opt.Log = e.stderr
	}
	var runErr error
	if len(opt.Parts) > 0 {
		runErr = bench.RunReport(ctx, opt)
	}
	return joinErr(runErr, writeReportDoc(e.stdout, *doc, opt.Results))
}

// writeReportDoc writes the page from the CSV files in results to path (- for w, "" for none).
func writeReportDoc(w io.Writer, path, results string) error {
	switch path {
	case "":
		return nil
	case "-":
		return bench.WriteReportDoc(w, results)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(path, func(w io.Writer) error { return bench.WriteReportDoc(w, results) })
}

// joinErr is the run's error, then the page's, whichever came.
func joinErr(run, doc error) error {
	switch {
	case run != nil && doc != nil:
		return fmt.Errorf("%v; the page: %v", run, doc)
	case run != nil:
		return run
	}
	return doc
}
