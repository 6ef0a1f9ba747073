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
	"github.com/tsplab/tsplab/solver/report"
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
	verbose      bool   // --verbose: the run's whole account after the summary
	progress     string // --progress: text or json
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
	gpuNote := gpusOnCPU(&r.p)
	pl, choice, in, err := r.load()
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
	reserve := endReserve(in.N, read, tourOutputs(r.out, r.json))
	plan, err := pl.Prepare(choice.Engine, in, p)
	if err != nil {
		return prepareError(choice.Engine, err)
	}
	if gpuNote != "" && !r.quiet {
		fmt.Fprintf(e.stderr, "tsp: note: --gpus: %s\n", gpuNote)
	}
	o := outputs{tour: r.out, json: r.json, bound: r.bound, quiet: r.quiet, verbose: r.verbose, alongside: !r.boundGiven, progressJSON: r.progress == "json",
		clock: runClock{start: start, limit: r.p.TimeLimit, reserve: reserve}}
	rt.adjust(&o)
	rctx, cancel := runContext(ctx, start, r.p.TimeLimit, reserve)
	out, err := solveWithProgress(rctx, e, plan, o)
	cancel()
	if errors.Is(err, session.ErrNoTour) {
		fmt.Fprintf(e.stderr, "tsp: %v\n", session.ErrNoTour)
		return errInterrupted
	}
	if err != nil {
		return err
	}
	if !r.quiet {
		warnEarlyStop(e, out, ctx.Err() != nil)
	}
	if out, err = rt.finish(plan, out); err != nil {
		return err
	}
	return finishSolve(ctx, e, plan, out, o)
}

// load checks the request's GPUs and outputs, picks the engine and reads the instance; no output may name an input.
func (r *solveRequest) load() (*session.Pipeline, session.Choice, *solver.Instance, error) {
	sel, err := checkGPUs("solve", r.p)
	if err == nil {
		err = onFirstGPU("solve", r.p, sel)
	}
	if err != nil {
		return nil, session.Choice{}, nil, err
	}
	targets := []target{{"--out", r.out}, {"--json", r.json}}
	pl, choice, err := setUpRun("solve", r.p, []string{r.file, r.route.start, r.optima}, targets...)
	if err != nil {
		return nil, choice, nil, err
	}
	in, err := loadInstance(r.file, r.optima, r.optimum, r.optimumGiven)
	if err == nil {
		err = checkTargets("solve", instfile.InputsOf(r.file, in), targets...)
	}
	if err == nil {
		err = checkTourFormat(in, r.out)
	}
	return pl, choice, in, err
}

// warnEarlyStop says on stderr that a signal stopped the run early, and what tour was written.
func warnEarlyStop(e *env, out session.Outcome, interrupted bool) {
	res := out.Result
	if res.StopReason != solver.StopInterrupt && !interrupted {
		return
	}
	what := "the best tour found by then"
	switch {
	case out.Fallback:
		what = "the start construction (a space-filling curve): the search had no shorter tour yet"
	case res.Moves == 0 && isFileOrder(res.Tour):
		what = "the cities in the file's order: the search had no tour of its own yet"
	}
	fmt.Fprintf(e.stderr, "tsp: warning: stopped early at %.2f s; the tour is %s\n", res.Elapsed.Seconds(), what)
}

// isFileOrder reports whether t is the cities in the file's order (a stop before any search gives it).
func isFileOrder(t []int) bool {
	for i, c := range t {
		if c != i {
			return false
		}
	}
	return len(t) > 0
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

// endNsPerCity is the time a run's end takes per city after the deadline: checking, reports and the exit
// (docs/DECISIONS.md#time-from-process-start).
const endNsPerCity = 80

// endReadShare is a run's end as a share of the time the instance took to read: both pass over every city and slow
// down alike on a loaded machine (docs/DECISIONS.md#time-from-process-start).
const endReadShare = 0.5

// endOutShare is what writing one file with the tour (--out, or --json, whose report holds it) adds to the end, as
// a share of the reading time.
const endOutShare = 0.25

// tourOutputs is how many of the paths name a file the run's end writes the tour to ("" none, "-" stdout counts).
func tourOutputs(paths ...string) int {
	k := 0
	for _, p := range paths {
		if p != "" {
			k++
		}
	}
	return k
}

// endReserve is the part of --time kept for a run's end, outs files with the tour written in it: the larger of
// endNsPerCity and the read share.
func endReserve(n int, read time.Duration, outs int) time.Duration {
	share := endReadShare + float64(outs)*endOutShare
	return max(time.Duration(n)*endNsPerCity*time.Nanosecond, time.Duration(float64(read)*share))
}

// runContext is a run's context: its deadline limit less reserve after start (at least 1 ms away), cause solver.ErrTimeLimit.
func runContext(ctx context.Context, start time.Time, limit, reserve time.Duration) (context.Context, context.CancelFunc) {
	if limit <= 0 {
		return context.WithCancel(ctx)
	}
	end := start.Add(limit - reserve)
	if soon := time.Now().Add(time.Millisecond); end.Before(soon) {
		end = soon
	}
	return context.WithDeadlineCause(ctx, end, solver.ErrTimeLimit)
}

// solveAbout is tsp solve's help text.
const solveAbout = "Solves the instance with the engine for (--algo, --backend) and prints a summary.\n" +
	"Progress goes to stderr. Ctrl-C or SIGTERM stops the run, still writes --out and --json (the best\n" +
	"tour found by then, at worst the start construction, with a warning) and exits 130 (143 for SIGTERM);\n" +
	"stopped before any tour existed, it writes nothing and says so. A second signal, or 5 s without the\n" +
	"run ending, exits at once, leaving each output as it was before.\n" +
	"Output files are replaced whole: written beside the target, synced, then renamed over it.\n" +
	"A run stops at a proven optimum: the known one, the exact one of an instance of up to 15 cities,\n" +
	"or a tour as short as the lower bound.\n" +
	"When the optimum is unknown, a Held–Karp lower bound is computed while the engine runs\n" +
	"(on the GPU for a GPU run, else on the CPU: from 50,000 cities only on four or more cores)\n" +
	"and within --time, and the summary adds the proven gap above it; a bound not ready when\n" +
	"the run ends is left out, and 'tsp bound FILE' or --bound D (up to D more after the run)\n" +
	"gives one."

// parseSolve reads tsp solve's flags and checks what can be checked before the engine is known.
func parseSolve(e *env, args []string) (*solveRequest, error) {
	fs := newFlags(e, "solve", "FILE [flags]", solveAbout+"\n\nAlgorithms: "+strings.Join(solver.Algorithms(), ", ")+" (see 'tsp engines').")
	r := &solveRequest{}
	p := &r.p
	var (
		seed     = fs.Uint64("seed", 1, "random seed: fixes the start and the random choices (with the same workers and a step budget, the same run; a timed run can still differ with the machine's load)")
		timeFlag = new(time.Duration)
	)
	durationVar(fs, timeFlag, "time", 0, "time limit `D` from the command's start, reading the instance included: seconds (10) or a duration (2s, 1m), at most 8784h (0: the engine's schedule decides)")
	fs.StringVar(&r.out, "out", "", "write the best tour to this `TOUR` file (- for stdout) in the format its extension names: TSPLIB (.tour, and any other); .txt the cities' ids, one a line; .csv the points in tour order with their ids, as written; for a lat,lon instance .geojson (a LineString) or .gpx (a route); .json the run report, as --json")
	fs.StringVar(&r.json, "json", "", "write the run report as JSON to `FILE` (- for stdout)")
	fs.Int64Var(&r.optimum, "optimum", 0, "known optimum `N` (overrides optima.csv and .opt.tour; 0 counts when given)")
	fs.StringVar(&r.optima, "optima", "", "also look for optima.csv in `DIR` (or this .csv file)")
	fs.BoolVar(&r.quiet, "quiet", false, "print nothing but errors: no progress, no notes, no summary (--out, --json and their - still write)")
	fs.BoolVar(&r.verbose, "verbose", false, "after the summary, what the search did, part by part (the JSON report's account), and an annealer's schedule")
	fs.StringVar(&r.progress, "progress", "text", progressDoc)
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
	fs.Func("gpus", gpusDoc, func(s string) error { return setGPUs("solve", p, s) })
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
	if err := checkProgress("solve", r.progress); err != nil {
		return nil, err
	}
	if err := r.outFormat(); err != nil {
		return nil, err
	}
	if r.out == "-" && r.json == "-" {
		return nil, usagef("solve", "--out - and --json - both write to stdout: send one of them to a file")
	}
	return r, nil
}

// gpusOnCPU drops --gpus when auto runs on the CPU and returns why, for a user who asked for GPUs.
func gpusOnCPU(p *solver.Params) string {
	if _, asked := p.Extra["gpus"]; !asked || p.Backend != solver.BackendAuto {
		return ""
	}
	e, note, err := solver.Resolve(p.Algorithm, p.Backend)
	if err != nil || e.Backend() != solver.BackendCPU {
		return ""
	}
	delete(p.Extra, "gpus")
	return note
}

// setUpRun picks the engine through a new pipeline and checks p and the outputs before reading.
func setUpRun(cmd string, p solver.Params, inputs []string, targets ...target) (*session.Pipeline, session.Choice, error) {
	pl := &session.Pipeline{}
	choice, err := chooseSolveEngine(pl, p)
	if err != nil {
		return nil, choice, err
	}
	if err := checkTargets(cmd, inputs, targets...); err != nil {
		return nil, choice, err
	}
	return pl, choice, nil
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
	if !o.quiet && plan.In.N > report.MaxTrivial {
		pr = newProgress(e.stderr, plan.In, solver.LeftOf(ctx, time.Now()), o.progressJSON)
		pr.length = o.pathLength
		req.OnSnapshot, req.Interval, req.OnBound = pr.show, pr.every, pr.setBound
	}
	out, err := plan.Run(ctx, req)
	if pr != nil {
		pr.end()
	}
	eng := plan.Engine
	if err != nil {
		return out, fmt.Errorf("%s/%s: %w", eng.Name(), eng.Backend(), err)
	}
	return out, nil
}

// outputs are where a solve's results go.
type outputs struct {
	tour, json string        // --out and --json: a path, "-" for stdout, "" for none
	bound      time.Duration // time for a lower bound after the run when the optimum is unknown (Plan.BoundAfter)
	alongside  bool          // a lower bound beside the run (the pipeline's), when the optimum is unknown
	quiet      bool
	verbose    bool // the run's whole account after the summary
	// progressJSON: --progress json, one JSON object a line on stderr
	progressJSON bool
	// pathLength is the length of a route's path from that of the engine's tour, for progress (nil: the tour's)
	pathLength func(int64) int64
	clock      runClock
}

// runClock tells the summary's time: --time from the command's start, reserve kept for the end.
type runClock struct {
	start   time.Time // zero: the engine's own elapsed time stands
	limit   time.Duration
	reserve time.Duration
}

// elapsed is the command's time so far, the engine's (res.Elapsed) where the start is unknown.
func (c runClock) elapsed(res solver.Result) time.Duration {
	if c.start.IsZero() {
		return res.Elapsed
	}
	return max(time.Since(c.start), res.Elapsed)
}

// stopWords is why the run ended for the summary: the time limit only where the command's time is at it, the
// schedule only where it ended first ("" otherwise).
func (c runClock) stopWords(res solver.Result, elapsed time.Duration) string {
	early := c.limit > 0 && elapsed < c.limit-c.reserve-endSlack
	switch {
	case res.StopReason == solver.StopDone && early:
		return fmt.Sprintf("the engine's schedule ended %.2f s before the time limit", (c.limit - elapsed).Seconds())
	case !res.StopReason.Early():
		return ""
	case res.StopReason == solver.StopTime && early:
		return fmt.Sprintf("the engine ended its search %.2f s before the time limit", (c.limit - elapsed).Seconds())
	}
	return res.StopReason.Describe()
}

// endSlack is how much short of the limit a timed stop may end and still count as reaching it.
const endSlack = 100 * time.Millisecond

// finishSolve writes the tour first (an interrupt during the bound still finds it), the bound when the optimum is unknown, the report and the summary; a failed output stops none of the others.
func finishSolve(ctx context.Context, e *env, plan *session.Plan, out session.Outcome, o outputs) error {
	in, res := plan.In, out.Result
	var errs []error
	if err := writeSolveTour(e, in, out.Report, o.tour); err != nil {
		errs = append(errs, err)
	}
	plan.BoundAfter(ctx, &out, o.bound)
	lb := solveBound(e, in, out, o)
	rep := out.Report
	session.RecordBound(&rep, in, lb)
	if o.json == "-" {
		_ = rep.WriteJSON(e.stdout) // a stdout failure is reported once, by runCtx
	} else if o.json != "" {
		if err := atomicfile.Write(o.json, rep.WriteJSON); err != nil {
			errs = append(errs, fmt.Errorf("--json: %v", err))
		}
	}
	printSolveSummary(e, in, res, rep, o)
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	if ctx.Err() != nil {
		return errInterrupted
	}
	return nil
}

// writeSolveTour writes --out (a path, "-" for stdout, "" for none) from the run's report.
func writeSolveTour(e *env, in *solver.Instance, rep report.Report, path string) error {
	if path == "" {
		return nil
	}
	write := func(w io.Writer) error { return rep.WriteTour(w, in, tourFormat(path)) }
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
	case out.Bound != nil || in.HasOptimum() || o.quiet || in.N <= report.MaxTrivial:
	case o.alongside && (err == nil || !session.BoundFailed(err)):
		fmt.Fprintf(e.stderr, "tsp: no lower bound was ready within the time limit: 'tsp bound FILE' or --bound D (up to D after the run) computes one\n")
	case o.bound > 0 && errors.Is(err, context.DeadlineExceeded):
		fmt.Fprintf(e.stderr, "tsp: no lower bound within --bound %v\n", o.bound)
	case err != nil:
		fmt.Fprintf(e.stderr, "tsp: no lower bound: %v\n", err)
	}
	return out.Bound
}

// printSolveSummary prints the run's summary (--verbose: account and schedule) on
// stdout, or stderr when --out - or --json - took it.
func printSolveSummary(e *env, in *solver.Instance, res solver.Result, rep report.Report, o outputs) {
	if o.quiet {
		return
	}
	if t := report.Trivial(in.N); t != "" {
		// nothing was searched: the length says it all
		o.print(e, fmt.Sprintf("%s: length %s; %s", rep.Instance, in.HumanLength(rep.LengthScaled), t))
		return
	}
	elapsed := o.clock.elapsed(res)
	lines := []string{summary(in, rep, elapsed, o.clock.stopWords(res, elapsed))}
	if s := report.Summary(rep.Account); s != "" {
		lines = append(lines, s)
	}
	if o.verbose {
		lines = append(lines, report.Lines(in, rep.Account)...)
		if rep.Schedule != nil {
			lines = append(lines, "schedule "+rep.Schedule.String())
		}
	}
	if rep.LowerBoundScaled != nil {
		lines = append(lines, gapLine(in, rep))
	} else if rep.OptimumEstimate != nil {
		lines = append(lines, estimateLine(in, rep.LengthScaled, *rep.OptimumEstimate*math.Pow10(in.ScaleExp)))
	}
	for _, l := range lines {
		o.print(e, l)
	}
}

// print writes a line of the summary: on stdout unless --out - or --json - took it, then on stderr.
func (o outputs) print(e *env, l string) {
	if o.tour != "-" && o.json != "-" {
		fmt.Fprintln(e.stdout, l)
	} else {
		fmt.Fprintln(e.stderr, "tsp: "+l)
	}
}

// estimateLine says how far length lies above or below the estimated optimum est (Instance.EstimateOptimum), labelled as
// the estimate it is: a tour of cities that are not uniform can be shorter.
func estimateLine(in *solver.Instance, length int64, est float64) string {
	pct, side := 100*(float64(length)-est)/est, "above"
	if pct < 0 {
		pct, side = -pct, "below"
	}
	return fmt.Sprintf("about %.1f %% %s the estimated optimum %s (0.7124·√(N·A) of uniform cities in their bounding box; an estimate, not a bound)",
		pct, side, in.HumanLength(int64(math.Round(est))))
}

// summary is the run's one-line outcome: its time elapsed (reading included) and why it ended.
func summary(in *solver.Instance, rep report.Report, elapsed time.Duration, stop string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: length %s", rep.Instance, in.HumanLength(rep.LengthScaled))
	if rep.GapAbove == "optimum" {
		fmt.Fprintf(&b, " (gap %s%% to %s)", percent(*rep.GapPercent), in.HumanLength(*rep.OptimumScaled))
	}
	fmt.Fprintf(&b, ", %s/%s on %s, %.2f s, %s moves (%s/s)", rep.Algorithm, rep.Backend, rep.Device, elapsed.Seconds(), siCount(float64(rep.MovesEvaluated)), siCount(rep.MovesPerSecond))
	if stop != "" {
		b.WriteString(", " + stop)
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

// tourFormat is a tour file's format by extension: csv, geojson, gpx, txt (ids), else tour (TSPLIB).
func tourFormat(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
		return report.TourCSV
	case ".geojson":
		return report.TourGeoJSON
	case ".gpx":
		return report.TourGPX
	case ".txt":
		return report.TourIDs
	}
	return report.TourTSPLIB
}

// outFormat holds --out to its extension: X.json is the run report; a picture's is refused, pointing to tsp render.
func (r *solveRequest) outFormat() error {
	switch strings.ToLower(filepath.Ext(r.out)) {
	case ".json":
		if r.json != "" {
			return usagef("solve", "--out %s: a .json file is the run report, which --json %s writes: give --out a tour file (.tour, .txt, .csv, .geojson, .gpx)", r.out, r.json)
		}
		r.json, r.out = r.out, ""
	case ".png", ".svg", ".pdf", ".jpg", ".jpeg":
		return usagef("solve", "--out %s: --out writes a tour, not a picture: write the tour, then draw it with tsp render %s --tour TOUR --out %s", r.out, r.file, r.out)
	}
	return nil
}

// checkTourFormat refuses, before the run, a GeoJSON or GPX --out for an instance that is not at latitudes and longitudes.
func checkTourFormat(in *solver.Instance, path string) error {
	if f := tourFormat(path); (f == report.TourGeoJSON || f == report.TourGPX) && !instfile.IsLatLon(in) {
		return fmt.Errorf("--out %s: %v", path, instfile.ErrNotLatLon)
	}
	return nil
}
