package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/internal/atomicfile"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/bound"
	"github.com/tsplab/tsplab/solver/instfile"
	"github.com/tsplab/tsplab/solver/session"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// errInterrupted ends a solve that a signal stopped, after its outputs are written.
var errInterrupted = fmt.Errorf("interrupted: %w", context.Canceled)

// solveRequest is what tsp solve's command line asks for.
type solveRequest struct {
	p            solver.Params
	file         string
	out, json    string
	optima       string
	optimum      int64
	optimumGiven bool
	quiet        bool
	bound        time.Duration
	boundGiven   bool
	route        routeFlags
}

func cmdSolve(ctx context.Context, e *env, args []string) error {
	start := commandStart(time.Now(), processStarted)
	r, err := parseSolve(e, args)
	if err != nil {
		return err
	}
	var pl session.Pipeline
	choice, err := chooseSolveEngine(&pl, r.p)
	if err != nil {
		return err
	}
	// where the results go, before a long run rather than after it
	if err := checkTargets("solve", []string{r.file}, target{"--out", r.out}, target{"--json", r.json}); err != nil {
		return err
	}
	in, err := loadInstance(r.file, r.optima, r.optimum, r.optimumGiven)
	if err != nil {
		return err
	}
	p := r.p
	rt, err := r.route.apply(in, choice.Engine, &p)
	if err != nil {
		return err
	}
	in = rt.in
	// --time counts from the command's start: reading a large instance is spent from the same budget, and so is the end of the run after the engine's deadline
	read := time.Since(start)
	p.TimeLimit = remainingLimit(r.p.TimeLimit, read+endReserve(in.N, read, r.out != ""))
	plan, err := pl.Prepare(choice.Engine, in, p)
	if err != nil {
		return prepareError(choice.Engine, err)
	}
	if choice.Note != "" && !r.quiet {
		fmt.Fprintf(e.stderr, "tsp: note: %s\n", choice.Note)
	}
	o := outputs{tour: r.out, json: r.json, bound: r.bound, quiet: r.quiet, alongside: !r.boundGiven}
	rt.adjust(&o)
	out, err := solveWithProgress(ctx, e, plan, o)
	if err != nil {
		return err
	}
	if out, err = rt.finish(plan, out); err != nil {
		return err
	}
	out.Result.Params.TimeLimit = r.p.TimeLimit // the report says the limit asked for
	out.Report.Params.TimeLimit = r.p.TimeLimit
	return finishSolve(ctx, e, plan, out, o)
}

// prepareError is the error of a plan refused on the instance: a bad setting as a usage error, else named by the engine.
func prepareError(eng solver.Engine, err error) error {
	if err := paramUsage(err); isUsage(err) {
		return err
	}
	return fmt.Errorf("%s/%s: %v", eng.Name(), eng.Backend(), err)
}

// processStarted is when the tsp process started, set by main (zero: unknown, or the commands run inside another program, as in the tests).
var processStarted time.Time

// maxStartup is the longest start-up of the process taken as the command's: a longer one is a clock that disagrees, and the command's own start stands.
const maxStartup = 5 * time.Second

// commandStart is when --time starts counting for a command started at now: the process's start when known (loading the binary and the CUDA driver's initialisation count too), else now.
func commandStart(now, process time.Time) time.Time {
	if process.IsZero() || process.After(now) || now.Sub(process) > maxStartup {
		return now
	}
	return process
}

// endNsPerCity is the time a run's end takes per city after the engine's deadline: the result checked and measured again (solver.Finish,
// twice where GPU auto composes CPU auto), the report, and the process's exit freeing its memory and the GPU's context; at 10,000,000
// cities on the H100 host 0.9 s in all, 0.47 s of it the exit (docs/DECISIONS.md#time-from-process-start).
const endNsPerCity = 80

// endReadShare is the end of a run after the engine's deadline as a share of the time the instance took to read (read, parse and
// prepare, from the process's start): both are passes over every city, and both slow down alike on a machine whose cores other work
// takes. At 10,000,000 cities on a loaded two-core machine the instance took 4.2–5.5 s and the end 1.9–2.2 s (the engine's last
// phase stopping, solver.Finish, the exit); on the H100 host the end took 0.9 s (docs/DECISIONS.md#time-from-process-start).
const endReadShare = 0.5

// endOutShare is what writing the tour (--out) adds to the end, as a share of the reading time: 0.94 s at 10,000,000 cities where
// reading took 4.2 s.
const endOutShare = 0.25

// endReserve is the part of --time kept for the end of a run of n cities whose instance took read to load (writing the tour
// too when out), so that the command ends within the limit: the larger of endNsPerCity and the share of read.
func endReserve(n int, read time.Duration, out bool) time.Duration {
	share := endReadShare
	if out {
		share += endOutShare
	}
	return max(time.Duration(n)*endNsPerCity*time.Nanosecond, time.Duration(float64(read)*share))
}

// remainingLimit is the engine's time limit when spent of the command's limit has gone (0: none; at least 1 ms, so the run still returns a tour).
func remainingLimit(limit, spent time.Duration) time.Duration {
	if limit <= 0 {
		return limit
	}
	return max(limit-spent, time.Millisecond)
}

// parseSolve reads tsp solve's flags and checks what can be checked before the engine is known.
func parseSolve(e *env, args []string) (*solveRequest, error) {
	fs := newFlags(e, "solve", "FILE [flags]",
		"Solves the instance with the engine for (--algo, --backend) and prints a summary.\n"+
			"Progress goes to stderr. Ctrl-C or SIGTERM stops the run, still writes --out and --json\n"+
			"and exits 130 (143 for SIGTERM); a second signal, or 5 s without the run ending, exits at once,\n"+
			"leaving each output as it was before.\n"+
			"Output files are replaced whole: written beside the target, synced, then renamed over it.\n"+
			"When the optimum is unknown, a Held–Karp lower bound is computed while the engine runs\n"+
			"(on the GPU for a GPU run, else on the CPU) and within --time, and the summary adds the\n"+
			"proven gap above it; a bound not ready when the run ends is left out, and 'tsp bound FILE'\n"+
			"or --bound D (up to D more after the run) gives one.\n\n"+
			"Algorithms: "+strings.Join(solver.Algorithms(), ", ")+" (see 'tsp engines').")
	r := &solveRequest{}
	p := &r.p
	var (
		seed     = fs.Uint64("seed", 1, "random seed (the same seed and workers give the same run)")
		timeFlag = new(time.Duration)
	)
	durationVar(fs, timeFlag, "time", 0, "time limit `D` from the command's start, reading the instance included: seconds (10) or a duration (2s, 1m), at most 8784h (0: the engine's schedule decides)")
	fs.StringVar(&r.out, "out", "", "write the best tour to this `TOUR` file (- for stdout): TSPLIB, or with .csv the points in tour order with their ids")
	fs.StringVar(&r.json, "json", "", "write the run report as JSON to `FILE` (- for stdout)")
	fs.Int64Var(&r.optimum, "optimum", 0, "known optimum `N` (overrides optima.csv and .opt.tour; 0 counts when given)")
	fs.StringVar(&r.optima, "optima", "", "also look for optima.csv in `DIR` (or this .csv file)")
	fs.BoolVar(&r.quiet, "quiet", false, "no progress and no summary on stderr")
	durationVar(fs, &r.bound, "bound", 0, "when the optimum is unknown, spend up to `D` after the run on a lower bound for the gap, a hard limit (0: none; default: the bound alongside the run, within --time)")
	fs.StringVar(&p.Algorithm, "algo", "auto", "algorithm `NAME` (auto: the strongest for the time budget)")
	fs.StringVar(&p.Backend, "backend", "auto", "cpu, gpu or auto (GPU when available, else CPU)")
	for _, o := range solver.SharedOptions() {
		fs.Func(o.Name, o.Doc+" (0: the engine's default)", func(s string) error {
			return paramUsage(p.Set(o.Name + "=" + s))
		})
	}
	fs.Int64Var(&p.Target, "target", 0, "stop once a tour of at most this `length` is found (0: none)")
	r.route.register(fs)
	fs.Func("opt", "engine option `NAME=VALUE`, repeatable (the options of each engine: 'tsp engines --verbose')", func(s string) error {
		return paramUsage(p.Set(s))
	})
	fs.Func("gpus", gpusDoc, func(s string) error { return paramUsage(p.Set("gpus=" + s)) })
	pos, err := parse(fs, "solve", args, 1, 1)
	if err != nil {
		return nil, err
	}
	r.file = pos[0]
	p.Seed, p.TimeLimit = *seed, *timeFlag
	r.optimumGiven = given(fs, "optimum")
	r.boundGiven = given(fs, "bound")
	if err := checkInts("solve", intRange{"optimum", r.optimum, 0, math.MaxInt64}); err != nil {
		return nil, err
	}
	if err := checkTime("solve", "bound", r.bound); err != nil {
		return nil, err
	}
	if r.out == "-" && r.json == "-" {
		return nil, usagef("solve", "--out - and --json - both write to stdout: send one of them to a file")
	}
	return r, nil
}

// chooseSolveEngine picks the engine for (p.Algorithm, p.Backend) through the pipeline and checks p against it before the instance is read; a GPU asked for and not usable is said as the device's own error.
func chooseSolveEngine(pl *session.Pipeline, p solver.Params) (session.Choice, error) {
	choice, err := pl.Choose(p)
	if err == nil {
		return choice, nil
	}
	if err := paramUsage(err); isUsage(err) {
		return choice, err
	}
	// an engine that cannot run here still has its option table: a bad setting is a usage error whatever the machine
	if reg, lerr := solver.Lookup(p.Algorithm, p.Backend); lerr == nil {
		if verr := solver.Validate(reg, nil, p); verr != nil {
			return choice, paramUsage(verr)
		}
	}
	if p.Backend == solver.BackendGPU {
		if _, derr := device.Devices(); derr != nil {
			return choice, fmt.Errorf("--backend gpu: %v", derr)
		}
	}
	return choice, err
}

// solveWithProgress runs the plan through the pipeline, with the lower bound beside it unless --bound was given, showing its snapshots on stderr unless quiet.
func solveWithProgress(ctx context.Context, e *env, plan *session.Plan, o outputs) (session.Outcome, error) {
	req := session.Request{Bound: o.alongside}
	var pr *progress
	if !o.quiet {
		pr = newProgress(e.stderr, plan.In, plan.Params.TimeLimit)
		req.OnSnapshot, req.Interval = pr.show, pr.every
	}
	out, err := plan.Run(ctx, req)
	if pr != nil {
		pr.end()
	}
	eng := plan.Engine
	if err != nil {
		return out, fmt.Errorf("%s/%s: %v", eng.Name(), eng.Backend(), err)
	}
	return out, nil
}

// outputs are where a solve's results go.
type outputs struct {
	tour, json string        // --out and --json: a path, "-" for stdout, "" for none
	bound      time.Duration // time for a lower bound after the run when the optimum is unknown (Plan.BoundAfter)
	alongside  bool          // a lower bound beside the run (the pipeline's), when the optimum is unknown
	quiet      bool
}

// finishSolve writes the tour first (an interrupt during the bound still finds it), the bound when the optimum is unknown, the report and the summary; a failed output stops none of the others.
// The summary goes to stdout unless an output took it, then to stderr (unless quiet).
func finishSolve(ctx context.Context, e *env, plan *session.Plan, out session.Outcome, o outputs) error {
	in, res := plan.In, out.Result
	var errs []error
	if err := writeSolveTour(e, in, res, o.tour); err != nil {
		errs = append(errs, err)
	}
	plan.BoundAfter(ctx, &out, o.bound)
	lb := solveBound(e, in, out, o)
	rep := out.Report
	if lb != nil {
		rep.SetLowerBound(in, lb.Bound)
	}
	if o.json == "-" {
		_ = rep.WriteJSON(e.stdout) // a stdout failure is reported once, by runCtx
	} else if o.json != "" {
		if err := atomicfile.Write(o.json, rep.WriteJSON); err != nil {
			errs = append(errs, fmt.Errorf("--json: %v", err))
		}
	}
	printSolveSummary(e, in, res, lb, o)
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	if ctx.Err() != nil {
		return errInterrupted
	}
	return nil
}

// writeSolveTour writes --out (a path, "-" for stdout, "" for none).
func writeSolveTour(e *env, in *solver.Instance, res solver.Result, path string) error {
	if path == "" {
		return nil
	}
	write := tourWriter(in, res, path)
	if path == "-" {
		bw := bufio.NewWriter(e.stdout)
		if err := write(bw); err == nil {
			bw.Flush()
		}
		return nil
	}
	if err := atomicfile.Write(path, write); err != nil {
		return fmt.Errorf("--out: %v", err)
	}
	return nil
}

// solveBound is the lower bound the summary and report show, the pipeline's beside the run or after it (--bound D), saying why there is none unless quiet.
func solveBound(e *env, in *solver.Instance, out session.Outcome, o outputs) *bound.Result {
	err := out.BoundErr
	switch {
	case out.Bound != nil || in.HasOptimum() || o.quiet:
	case o.alongside && (err == nil || !session.BoundFailed(err)):
		fmt.Fprintf(e.stderr, "tsp: no lower bound was ready within the time limit: 'tsp bound FILE' or --bound D (up to D after the run) computes one\n")
	case o.bound > 0 && errors.Is(err, context.DeadlineExceeded):
		fmt.Fprintf(e.stderr, "tsp: no lower bound within --bound %v\n", o.bound)
	case err != nil:
		fmt.Fprintf(e.stderr, "tsp: no lower bound: %v\n", err)
	}
	return out.Bound
}

// printSolveSummary prints the summary, the schedule and the gap above the bound.
func printSolveSummary(e *env, in *solver.Instance, res solver.Result, lb *bound.Result, o outputs) {
	lines := []string{summary(in, res)}
	if res.Schedule != nil {
		lines = append(lines, "schedule "+res.Schedule.InFileUnits(in).String())
	}
	if lb != nil {
		lines = append(lines, gapLine(in, res.Length, *lb))
	} else if est, ok := in.EstimateOptimum(); ok && !in.HasOptimum() {
		lines = append(lines, estimateLine(in, res.Length, est))
	}
	for _, l := range lines {
		switch {
		case o.tour != "-" && o.json != "-":
			fmt.Fprintln(e.stdout, l)
		case !o.quiet:
			fmt.Fprintln(e.stderr, "tsp: "+l)
		}
	}
}

// estimateLine says how far length lies above the estimated optimum est (Instance.EstimateOptimum), labelled as the estimate it is.
func estimateLine(in *solver.Instance, length int64, est float64) string {
	return fmt.Sprintf("about %.1f %% above the estimated optimum %s (0.7124·√(N·A) of uniform cities in their bounding box; an estimate, not a bound)",
		100*(float64(length)-est)/est, in.FormatLength(int64(math.Round(est))))
}

// summary is the one-line outcome of a run.
func summary(in *solver.Instance, r solver.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: length %s", in.Name, in.FormatLength(r.Length))
	if g, ok := in.Gap(r.Length); ok {
		fmt.Fprintf(&b, " (gap %.2f%% to %s)", g, in.FormatLength(in.Optimum))
	}
	fmt.Fprintf(&b, ", %s/%s on %s, %.2f s, %d moves (%.3g/s)", r.Algorithm, r.Backend, r.Device, r.Elapsed.Seconds(), r.Moves, r.MovesPerSecond())
	if r.StopReason.Early() {
		b.WriteString(", " + r.StopReason.Describe())
	}
	if r.Note != "" {
		b.WriteString("; " + r.Note)
	}
	return b.String()
}

// checkOptima checks the --optima the user named, a folder or a .csv table: a typo or a broken table is an error naming it, not an unknown optimum.
func checkOptima(optima string) error {
	st, err := os.Stat(optima)
	if err != nil {
		return fmt.Errorf("--optima %s: no such file or folder", optima)
	}
	table := filepath.Join(optima, tsplib.OptimaFile)
	if !st.IsDir() {
		if !strings.HasSuffix(strings.ToLower(optima), ".csv") {
			return fmt.Errorf("--optima %s: not a folder or a .csv table of optima", optima)
		}
		table = optima
	} else if _, err := os.Stat(table); err != nil {
		return nil // a folder without a table: nothing to look up there
	}
	if _, err := tsplib.ReadOptima(table); err != nil {
		return fmt.Errorf("--optima: %v", err)
	}
	return nil
}

// loadInstance reads a TSPLIB file with its known optimum; a given optimum (even 0) overrides it.
func loadInstance(path, optimaDir string, optimum int64, given bool) (*solver.Instance, error) {
	var dirs []string
	if optimaDir != "" {
		if err := checkOptima(optimaDir); err != nil {
			return nil, err
		}
		dirs = append(dirs, optimaDir)
	}
	in, err := instfile.Load(path, dirs...)
	var pic *instfile.PictureError
	if errors.As(err, &pic) {
		base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
		return nil, fmt.Errorf("%v: 'tsp gen --kind image --image %s --n 10000 --out %s.tsp' stipples it into one (TSP art)", err, path, base)
	}
	if err != nil {
		return nil, err
	}
	if in.Name == "" {
		in.Name = instfile.BaseName(path)
	}
	if given || optimum > 0 {
		in.Optimum, in.OptimumSource = optimum, "--optimum"
	}
	return in, nil
}

// progress shows snapshots on stderr: a bar redrawn in place on a terminal, a plain line every second otherwise.
type progress struct {
	w        io.Writer
	in       *solver.Instance
	limit    time.Duration // the run's time limit, for the bar when the engine gives no progress
	terminal bool
	every    time.Duration
	last     time.Time
	drawn    bool
}

func newProgress(w io.Writer, in *solver.Instance, limit time.Duration) *progress {
	p := &progress{w: w, in: in, limit: limit, every: time.Second}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.terminal, p.every = true, 100*time.Millisecond
		}
	}
	return p
}

// end redraws the last line on a terminal and ends it there.
func (p *progress) end() {
	if p.drawn && p.terminal {
		fmt.Fprintln(p.w)
	}
}

func (p *progress) show(s solver.Snapshot) {
	p.last = time.Now()
	line := p.line(s)
	if p.terminal {
		fmt.Fprintf(p.w, "\r%s\x1b[K", line)
	} else {
		fmt.Fprintln(p.w, "tsp: "+line)
	}
	p.drawn = true
}

// line formats one progress line: bar (on a terminal), the phase unless the search, length, best, gap, moves per second, elapsed.
func (p *progress) line(s solver.Snapshot) string {
	var b strings.Builder
	if p.terminal {
		const width = 20
		frac := s.Progress
		if frac <= 0 && p.limit > 0 {
			frac = s.Elapsed.Seconds() / p.limit.Seconds()
		}
		full := int(frac*width + 0.5)
		full = max(0, min(width, full))
		b.WriteString("[" + strings.Repeat("#", full) + strings.Repeat(".", width-full) + "] ")
	}
	if s.Phase != "" && s.Phase != solver.PhaseSearch {
		// bracketed and named a phase: "bound  length 379512" read as a
		// bound above the optimum
		fmt.Fprintf(&b, "[%s phase]  ", s.Phase)
	}
	if s.Tour == nil && s.Best == nil && s.BestLength == 0 {
		b.WriteString("no tour yet") // a phase-only snapshot
	} else {
		if s.Tour != nil || s.Length > 0 {
			fmt.Fprintf(&b, "length %s  ", p.in.FormatLength(s.Length))
		}
		// a phase snapshot that carries only the best tour has no length
		fmt.Fprintf(&b, "best %s", p.in.FormatLength(s.BestLength))
		if g, ok := p.in.Gap(s.BestLength); ok {
			fmt.Fprintf(&b, "  gap %.2f%%", g)
		}
	}
	fmt.Fprintf(&b, "  %.3g moves/s  %.1fs", solver.MovesPerSecond(s.Moves, s.Elapsed), s.Elapsed.Seconds())
	return b.String()
}

// paramUsage turns a *solver.ParamError (a setting out of range, an unknown algorithm or option) into a usage error of solve.
func paramUsage(err error) error {
	var pe *solver.ParamError
	if errors.As(err, &pe) {
		return usagef("solve", "%s", pe.Error())
	}
	return err
}

// isUsage reports whether err is a usage error.
func isUsage(err error) bool {
	var ue *usageError
	return errors.As(err, &ue)
}

// tourWriter writes the run's best tour to path: as a point list in tour
// order (with ids) when path ends in .csv, as a TSPLIB tour otherwise.
func tourWriter(in *solver.Instance, res solver.Result, path string) func(io.Writer) error {
	if strings.EqualFold(filepath.Ext(path), ".csv") {
		return func(w io.Writer) error { return instfile.WriteTourCSV(w, in, res.Tour) }
	}
	comment := fmt.Sprintf("length %s, %s/%s, seed %d, %.2f s", in.FormatLength(res.Length), res.Algorithm, res.Backend, res.Params.Seed, res.Elapsed.Seconds())
	return func(w io.Writer) error { return tsplib.WriteTour(w, in.Name, comment, res.Tour) }
}
