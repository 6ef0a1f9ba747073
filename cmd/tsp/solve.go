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
	"sync"
	"time"

	"github.com/tsplab/tsplab/gpu"
	"github.com/tsplab/tsplab/internal/atomicfile"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/bound"
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
}

func cmdSolve(ctx context.Context, e *env, args []string) error {
	start := time.Now()
	r, err := parseSolve(e, args)
	if err != nil {
		return err
	}
	p := r.p
	eng, note, err := resolveSolveEngine(p)
	if err != nil {
		return err
	}
	// every setting against what this engine takes, before the instance is read and again on it below
	if err := solver.Validate(eng, nil, p); err != nil {
		return paramUsage(err)
	}
	// where the results go, before a long run rather than after it
	if err := checkTargets("solve", []string{r.file}, target{"--out", r.out}, target{"--json", r.json}); err != nil {
		return err
	}
	in, err := loadInstance(r.file, r.optima, r.optimum, r.optimumGiven)
	if err != nil {
		return err
	}
	if err := solver.Validate(eng, in, p); err != nil {
		return paramUsage(err)
	}
	if note != "" && !r.quiet {
		fmt.Fprintf(e.stderr, "tsp: note: %s\n", note)
	}
	o := outputs{tour: r.out, json: r.json, bound: r.bound, quiet: r.quiet}
	// --time counts from the command's start: reading a large instance is spent from the same budget
	limit := p.TimeLimit
	p.TimeLimit = remainingLimit(limit, time.Since(start))
	if !r.boundGiven && !in.HasOptimum() && (in.N <= maxBoundAlongsideCPU || eng.Backend() == solver.BackendGPU) {
		o.bound = 0
		o.alongside = startBound(ctx, in, eng.Backend(), p.TimeLimit)
		defer o.alongside.end()
	}
	res, err := solveWithProgress(ctx, e, eng, in, p, r.quiet)
	if err != nil {
		return err
	}
	res.Params.TimeLimit = limit // the report says the limit asked for
	return finishSolve(ctx, e, in, res, o)
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
		timeFlag = fs.Duration("time", 0, "time limit from the command's start, reading the instance included, e.g. 2s or 1m, at most 8784h (0: the engine's schedule decides)")
	)
	fs.StringVar(&r.out, "out", "", "write the best tour to this TSPLIB `TOUR` file (- for stdout)")
	fs.StringVar(&r.json, "json", "", "write the run report as JSON to `FILE` (- for stdout)")
	fs.Int64Var(&r.optimum, "optimum", 0, "known optimum `N` (overrides optima.csv and .opt.tour; 0 counts when given)")
	fs.StringVar(&r.optima, "optima", "", "also look for optima.csv in `DIR` (or this .csv file)")
	fs.BoolVar(&r.quiet, "quiet", false, "no progress and no summary on stderr")
	fs.DurationVar(&r.bound, "bound", 0, "when the optimum is unknown, spend up to `D` after the run on a lower bound for the gap, a hard limit (0: none; default: the bound alongside the run, within --time)")
	fs.StringVar(&p.Algorithm, "algo", "auto", "algorithm `NAME` (auto: the strongest for the time budget)")
	fs.StringVar(&p.Backend, "backend", "auto", "cpu, gpu or auto (GPU when available, else CPU)")
	for _, o := range solver.SharedOptions() {
		fs.Func(o.Name, o.Doc+" (0: the engine's default)", func(s string) error {
			return paramUsage(p.Set(o.Name + "=" + s))
		})
	}
	fs.Int64Var(&p.Target, "target", 0, "stop once a tour of at most this `length` is found (0: none)")
	fs.Func("opt", "engine option `NAME=VALUE`, repeatable (the options of each engine: 'tsp engines --verbose')", func(s string) error {
		return paramUsage(p.Set(s))
	})
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

// resolveSolveEngine finds the engine for (p.Algorithm, p.Backend); a GPU asked for and not usable is said as the device's own error.
func resolveSolveEngine(p solver.Params) (solver.Engine, string, error) {
	eng, note, err := solver.Resolve(p.Algorithm, p.Backend)
	if err == nil {
		return eng, note, nil
	}
	if err := paramUsage(err); isUsage(err) {
		return nil, "", err
	}
	// an engine that cannot run here still has its option table: a bad setting is a usage error whatever the machine
	if reg, lerr := solver.Lookup(p.Algorithm, p.Backend); lerr == nil {
		if verr := solver.Validate(reg, nil, p); verr != nil {
			return nil, "", paramUsage(verr)
		}
	}
	if p.Backend == solver.BackendGPU {
		if _, derr := gpu.Devices(); derr != nil {
			return nil, "", fmt.Errorf("--backend gpu: %v", derr)
		}
	}
	return nil, "", err
}

// solveWithProgress runs eng, showing its snapshots on stderr unless quiet, and checks the tour it returns.
func solveWithProgress(ctx context.Context, e *env, eng solver.Engine, in *solver.Instance, p solver.Params, quiet bool) (solver.Result, error) {
	var snaps chan solver.Snapshot
	var wg sync.WaitGroup
	stopProgress := make(chan struct{})
	if !quiet {
		snaps = solver.Latest()
		pr := newProgress(e.stderr, in, p.TimeLimit)
		wg.Add(1)
		go func() {
			defer wg.Done()
			pr.loop(snaps, stopProgress)
		}()
	}
	res, serr := solver.Run(ctx, eng, in, p, snaps)
	close(stopProgress)
	wg.Wait()
	if serr != nil {
		return res, fmt.Errorf("%s/%s: %v", eng.Name(), eng.Backend(), serr)
	}
	if res.Algorithm == "" {
		res.Algorithm = eng.Name()
	}
	if res.Backend == "" {
		res.Backend = eng.Backend()
	}
	if err := solver.ValidateTour(res.Tour, in.N); err != nil {
		return res, fmt.Errorf("%s/%s returned an invalid tour: %v", eng.Name(), eng.Backend(), err)
	}
	if res.Params.Seed == 0 {
		res.Params.Seed = p.Seed
	}
	return res, nil
}

// outputs are where a solve's results go.
type outputs struct {
	tour, json string        // --out and --json: a path, "-" for stdout, "" for none
	bound      time.Duration // time for a lower bound after the run when the optimum is unknown
	alongside  *boundRun     // the lower bound computed during the run, or nil
	quiet      bool
}

const (
	boundShare = 0.9                    // the part of the run's time limit a bound alongside it may take, so it has returned when the run ends
	boundWait  = 250 * time.Millisecond // how long the end of a run waits for that bound: the last moments of its exact evaluation
	// maxBoundAlongsideCPU is the largest instance a CPU run computes a bound alongside: beyond it the ascent cannot end within a run's minutes and only takes cores from the search
	maxBoundAlongsideCPU = 2_000_000
)

// boundRun is a lower bound computed while the engine runs.
type boundRun struct {
	stop    chan struct{}
	stopped sync.Once
	done    chan boundOutcome
}

type boundOutcome struct {
	r   bound.Result
	err error
}

// startBound starts the lower bound of in alongside a run on backend within boundShare of limit: on the GPU for a GPU run (the CPU when the device fails).
func startBound(ctx context.Context, in *solver.Instance, backend string, limit time.Duration) *boundRun {
	b := &boundRun{stop: make(chan struct{}), done: make(chan boundOutcome, 1)}
	start := time.Now()
	share := time.Duration(float64(limit) * boundShare)
	opts := bound.Options{Time: share}
	if backend == solver.BackendGPU {
		opts.Device = gpu.BoundDevice
	}
	// not ctx: a signal ends the run, and end then stops the bound, which returns the best one proven by then
	bctx := context.WithoutCancel(ctx)
	go func() {
		r, err := bound.StopAscent(bctx, b.stop, in, opts)
		if err != nil && opts.Device != nil && boundFailed(err) {
			opts.Device = nil
			if limit > 0 {
				opts.Time = share - time.Since(start)
			}
			if limit == 0 || opts.Time > 0 {
				r, err = bound.StopAscent(bctx, b.stop, in, opts)
			}
		}
		b.done <- boundOutcome{r, err}
	}()
	return b
}

// end stops the bound.
func (b *boundRun) end() { b.stopped.Do(func() { close(b.stop) }) }

// result stops the bound and returns it if it is ready within boundWait.
func (b *boundRun) result() (bound.Result, bool, error) {
	b.end()
	select {
	case o := <-b.done:
		return o.r, o.err == nil, o.err
	case <-time.After(boundWait):
		return bound.Result{}, false, nil
	}
}

// boundFailed reports whether err is a failure of the bound computation rather than its time running out or a stop.
func boundFailed(err error) bool {
	return !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) && !errors.Is(err, bound.ErrStopped)
}

// finishSolve writes the tour first (an interrupt during the bound still finds it), the bound when the optimum is unknown, the report and the summary; a failed output stops none of the others.
// The summary goes to stdout unless an output took it, then to stderr (unless quiet).
func finishSolve(ctx context.Context, e *env, in *solver.Instance, res solver.Result, o outputs) error {
	var errs []error
	if o.tour != "" {
		comment := fmt.Sprintf("length %d, %s/%s, seed %d, %.2f s", res.Length, res.Algorithm, res.Backend, res.Params.Seed, res.Elapsed.Seconds())
		write := func(w io.Writer) error { return tsplib.WriteTour(w, in.Name, comment, res.Tour) }
		if o.tour == "-" {
			bw := bufio.NewWriter(e.stdout)
			if err := write(bw); err == nil {
				bw.Flush()
			}
		} else if err := atomicfile.Write(o.tour, write); err != nil {
			errs = append(errs, fmt.Errorf("--out: %v", err))
		}
	}
	var lb *bound.Result
	if o.alongside != nil {
		r, ok, err := o.alongside.result()
		switch {
		case ok:
			lb = &r
		case o.quiet:
		case err != nil && boundFailed(err):
			fmt.Fprintf(e.stderr, "tsp: no lower bound: %v\n", err)
		default:
			fmt.Fprintf(e.stderr, "tsp: no lower bound was ready within the time limit: 'tsp bound FILE' or --bound D (up to D after the run) computes one\n")
		}
	}
	if !in.HasOptimum() && o.bound > 0 && ctx.Err() == nil {
		if r := boundAfterRun(ctx, e, in, res, o); r != nil {
			lb = r
		}
	}
	rep := solver.NewReport(in, res)
	if lb != nil {
		rep.LowerBound = &lb.Bound
	}
	if o.json == "-" {
		_ = rep.WriteJSON(e.stdout) // a stdout failure is reported once, by runCtx
	} else if o.json != "" {
		if err := atomicfile.Write(o.json, rep.WriteJSON); err != nil {
			errs = append(errs, fmt.Errorf("--json: %v", err))
		}
	}
	lines := []string{summary(in, res)}
	if res.Schedule != nil {
		lines = append(lines, "schedule "+res.Schedule.String())
	}
	if lb != nil {
		lines = append(lines, gapLine(res.Length, *lb))
	}
	for _, l := range lines {
		switch {
		case o.tour != "-" && o.json != "-":
			fmt.Fprintln(e.stdout, l)
		case !o.quiet:
			fmt.Fprintln(e.stderr, "tsp: "+l)
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	if ctx.Err() != nil {
		return errInterrupted
	}
	return nil
}

// boundAfterRun computes the lower bound for --bound after the run, on the run's device first where it was the GPU, and returns nil (having said why unless quiet) when there is none.
func boundAfterRun(ctx context.Context, e *env, in *solver.Instance, res solver.Result, o outputs) *bound.Result {
	bopts := bound.Options{Time: o.bound}
	if res.Backend == solver.BackendGPU {
		bopts.Device = gpu.BoundDevice // the ascent where the run was
	}
	start := time.Now()
	r, err := boundUntilStopped(ctx, in, bopts)
	if err != nil && bopts.Device != nil && ctx.Err() == nil && boundFailed(err) {
		bopts.Time -= time.Since(start) // D bounds both tries together
		if bopts.Time <= 0 {
			bopts.Time = time.Nanosecond // no time left: no second try
		}
		bopts.Device = nil
		r, err = boundUntilStopped(ctx, in, bopts)
	}
	switch {
	case err == nil:
		return &r
	case o.quiet:
	case errors.Is(err, context.DeadlineExceeded):
		fmt.Fprintf(e.stderr, "tsp: no lower bound within --bound %v\n", o.bound)
	default:
		fmt.Fprintf(e.stderr, "tsp: no lower bound: %v\n", err)
	}
	return nil
}

// summary is the one-line outcome of a run.
func summary(in *solver.Instance, r solver.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: length %d", in.Name, r.Length)
	if g, ok := in.Gap(r.Length); ok {
		fmt.Fprintf(&b, " (gap %.2f%% to %d)", g, in.Optimum)
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
	in, err := tsplib.Load(path, dirs...)
	if err != nil {
		return nil, err
	}
	if in.Name == "" {
		in.Name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
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

func (p *progress) loop(snaps <-chan solver.Snapshot, stop <-chan struct{}) {
	var latest solver.Snapshot
	have := false
	for {
		select {
		case s := <-snaps:
			latest, have = s, true
			if time.Since(p.last) >= p.every {
				p.show(latest)
			}
		case <-stop:
			if have && p.terminal {
				p.show(latest)
			}
			if p.drawn && p.terminal {
				fmt.Fprintln(p.w)
			}
			return
		}
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

// line formats one progress line: bar (on a terminal), length, best, gap, moves per second, elapsed.
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
		fmt.Fprintf(&b, "%s  ", s.Phase)
	}
	if s.Tour == nil && s.Best == nil && s.BestLength == 0 {
		b.WriteString("no tour yet") // a phase-only snapshot
	} else {
		if s.Tour != nil || s.Length > 0 {
			fmt.Fprintf(&b, "length %d  ", s.Length)
		}
		// a phase snapshot that carries only the best tour has no length
		fmt.Fprintf(&b, "best %d", s.BestLength)
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
