package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/tsplab/tsplab/gpu/ascent"
	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/internal/atomicfile"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/bound"
	"github.com/tsplab/tsplab/solver/instfile"
	"github.com/tsplab/tsplab/solver/report"
	"github.com/tsplab/tsplab/solver/session"
)

// boundRequest is what tsp bound's command line asks for.
type boundRequest struct {
	file, jsonOut, optima, backend string
	optimum                        int64
	optimumGiven, quiet            bool
	opts                           bound.Options
}

func cmdBound(ctx context.Context, e *env, args []string) error {
	r, err := parseBound(e, args)
	if err != nil {
		return err
	}
	if err := checkTargets("bound", []string{r.file, r.optima}, target{"--json", r.jsonOut}); err != nil {
		return err
	}
	in, err := loadInstance(r.file, r.optima, r.optimum, r.optimumGiven)
	if err != nil {
		return err
	}
	if err := checkTargets("bound", instfile.InputsOf(r.file, in), target{"--json", r.jsonOut}); err != nil {
		return err
	}
	if err := chooseBoundDevice(&r.opts, r.backend); err != nil {
		return err
	}
	if !r.quiet {
		r.opts.Progress = func(p bound.Progress) {
			fmt.Fprintf(e.stderr, "tsp: iteration %d  estimate %.0f  %.1fs\n", p.Iteration, p.Estimate, p.Elapsed.Seconds())
		}
	}
	res, err := computeBound(ctx, e, in, r)
	switch {
	case errors.Is(err, bound.ErrStopped):
		fmt.Fprintln(e.stderr, "tsp: no bound: stopped before the first 1-tree was evaluated")
		return context.Canceled
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("no bound within --time %v: the first 1-tree of %d cities takes longer", r.opts.Time, in.N)
	case err != nil:
		return err
	}
	return printBound(e, in, res, r.jsonOut)
}

// parseBound reads tsp bound's flags and checks their ranges.
func parseBound(e *env, args []string) (*boundRequest, error) {
	fs := newFlags(e, "bound", "FILE [--time D] [--json FILE|-]",
		"Computes the Held–Karp lower bound: every tour is at least this long. Subgradient\n"+
			"ascent on node penalties over a sparse candidate graph, then an exact minimum 1-tree\n"+
			"of the complete graph under the best penalties, so the bound is proven.\n"+
			"Ctrl-C or SIGTERM ends the computation within a second and still prints the best bound\n"+
			"proven by then (the exact evaluation under way gets half a second, else the bound without\n"+
			"penalties); stopped before any bound was proven, it says so and exits 130 (143).")
	r := &boundRequest{opts: bound.Options{Thorough: true}}
	durationVar(fs, &r.opts.Time, "time", 0, "hard time limit `D` for the whole computation: seconds (10) or a duration (10s) (0: the ascent's schedule decides)")
	fs.StringVar(&r.jsonOut, "json", "", "write the result as JSON to `FILE` (- for stdout)")
	fs.StringVar(&r.optima, "optima", "", "also look for optima.csv in `DIR` (or this .csv file)")
	fs.Int64Var(&r.optimum, "optimum", 0, "known optimum `N`, to show how far below it the bound lies")
	fs.IntVar(&r.opts.MaxPeriod, "period", 0, "cap on the ascent's first period (0: default; -1: N/2 as in LKH)")
	fs.IntVar(&r.opts.Neighbors, "neighbors", 0, "quadrant neighbours per city in the candidate graph (0: default)")
	fs.BoolVar(&r.quiet, "quiet", false, "no progress on stderr")
	fs.StringVar(&r.backend, "backend", "auto", "where the ascent runs: cpu, gpu or auto (the GPU when there is one)")
	pos, err := parse(fs, "bound", args, 1, 1)
	if err != nil {
		return nil, err
	}
	r.file, r.optimumGiven = pos[0], given(fs, "optimum")
	if r.backend != solver.BackendCPU && r.backend != solver.BackendGPU && r.backend != solver.BackendAuto {
		return nil, usagef("bound", "--backend %q: want cpu, gpu or auto", r.backend)
	}
	if err := checkTime("bound", "time", r.opts.Time); err != nil {
		return nil, err
	}
	if err := checkInts("bound", intRange{"optimum", r.optimum, 0, math.MaxInt64},
		intRange{"neighbors", int64(r.opts.Neighbors), 0, maxNeighbors}, intRange{"period", int64(r.opts.MaxPeriod), -1, math.MaxInt32}); err != nil {
		return nil, err
	}
	return r, nil
}

// computeBound runs the ascent on the chosen device; for --backend auto a failed GPU ascent runs again on the CPU.
func computeBound(ctx context.Context, e *env, in *solver.Instance, r *boundRequest) (bound.Result, error) {
	opts := r.opts
	res, err := bound.UntilDone(ctx, bound.StopAscent, in, opts)
	if err != nil && r.backend == solver.BackendAuto && opts.Device != nil && ctx.Err() == nil && session.BoundFailed(err) {
		if !r.quiet {
			fmt.Fprintf(e.stderr, "tsp: note: the GPU ascent failed (%v); running it on the CPU\n", oneLine(err.Error()))
		}
		opts.Device = nil
		res, err = bound.UntilDone(ctx, bound.StopAscent, in, opts)
	}
	if err == nil {
		session.StoreBound(in, res) // the next runs start from it
	}
	return res, err
}

// chooseBoundDevice sets opts.Device for --backend: the GPU when asked for (an error when there is none) or, for auto, when there is one.
func chooseBoundDevice(opts *bound.Options, backend string) error {
	switch backend {
	case solver.BackendGPU:
		if _, err := device.Devices(); err != nil {
			return fmt.Errorf("--backend gpu: %v", err)
		}
		opts.Device = ascent.BoundDevice
	case solver.BackendAuto:
		if _, err := device.Devices(); err == nil {
			opts.Device = ascent.BoundDevice
		}
	}
	return nil
}

// printBound writes the JSON report where --json says and the summary to stdout (only the JSON with --json -), the bound on the last line.
func printBound(e *env, in *solver.Instance, res bound.Result, jsonOut string) error {
	rep := report.NewBound(in, res.Bound, res.Estimate)
	rep.Optimal, rep.Iterations, rep.Backend, rep.Stopped = res.Optimal, res.Iterations, solver.BackendCPU, res.Stopped
	rep.ElapsedSeconds, rep.EvaluationSeconds = res.Elapsed.Seconds(), res.Evaluation.Seconds()
	if res.Device {
		rep.Backend = solver.BackendGPU
	}
	write := func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	if jsonOut == "-" {
		return write(e.stdout)
	}
	if jsonOut != "" {
		if err := atomicfile.Write(jsonOut, write); err != nil {
			return err
		}
	}
	w := e.stdout
	fmt.Fprintf(w, "instance: %s (%s)\niterations: %s (%s)\ntime: %.2f s (exact evaluation %.2f s)\n",
		in.Name, report.Plural(in.N, "city", "cities"), solver.GroupDigits(strconv.Itoa(res.Iterations)), rep.Backend, res.Elapsed.Seconds(), res.Evaluation.Seconds())
	if res.Stopped {
		fmt.Fprintf(w, "ascent: stopped early\n")
	}
	if res.Optimal {
		fmt.Fprintf(w, "optimal: the minimum 1-tree is a tour\n")
	}
	if rep.BelowOptimum != nil {
		fmt.Fprintf(w, "gap: %.3f%% below the optimum %s\n", *rep.BelowOptimum, in.HumanLength(in.Optimum))
	}
	fmt.Fprintf(w, "%s\n", in.FormatLength(res.Bound))
	return nil
}

// gapLine says how far the run rep records lies above its lower bound, and where the bound came from.
func gapLine(in *solver.Instance, rep report.Report) string {
	note := report.BoundNote(rep.BoundSource, rep.BoundConverging)
	if note != "" {
		note = "; " + note
	}
	lb := *rep.LowerBoundScaled
	return fmt.Sprintf("gap ≤ %s %% (above the lower bound %s%s)", percent(100*float64(rep.LengthScaled-lb)/float64(lb)), in.HumanLength(lb), note)
}
