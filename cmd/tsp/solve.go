package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/tsplab/tsplab/gpu"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/bound"
	"github.com/tsplab/tsplab/solver/tsplib"
)

func cmdSolve(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "solve", "FILE [flags]",
		"Solves the instance with the engine for (--algo, --backend) and prints a summary.\n"+
			"Progress goes to stderr; Ctrl-C stops the run and still writes --out and --json.\n\n"+
			"Algorithms: "+strings.Join(solver.Algorithms(), ", ")+" (see 'tsp engines').")
	var (
		p        solver.Params
		seed     = fs.Uint64("seed", 1, "random seed (the same seed and workers give the same run)")
		out      = fs.String("out", "", "write the best tour to this TSPLIB `TOUR` file")
		jsonOut  = fs.String("json", "", "write the run report as JSON to `FILE` (- for stdout)")
		optimum  = fs.Int64("optimum", 0, "known optimum `N` (overrides optima.csv and .opt.tour)")
		optima   = fs.String("optima", "", "also look for optima.csv in `DIR` (or this .csv file)")
		quiet    = fs.Bool("quiet", false, "no progress and no summary on stderr")
		timeFlag = fs.Duration("time", 0, "time limit, e.g. 2s or 1m (0: the engine's schedule decides)")
		boundFor = fs.Duration("bound", 10*time.Second, "when the optimum is unknown, spend up to `D` after the run on a lower bound for the gap (0: none)")
	)
	fs.StringVar(&p.Algorithm, "algo", "auto", "algorithm `NAME` (auto: the strongest for the time budget)")
	fs.StringVar(&p.Backend, "backend", "auto", "cpu, gpu or auto (GPU when available, else CPU)")
	fs.IntVar(&p.Blocks, "blocks", 0, "parallel searches (PSPM's thread blocks; 0: engine default)")
	fs.IntVar(&p.Threads, "threads", 0, "parallel moves per search (PSPM's threads per block; 0: default)")
	fs.IntVar(&p.K, "k", 0, "sync interval: the global best is shared every K temperature steps (0: default)")
	fs.Float64Var(&p.T0, "t0", 0, "initial temperature (0: default)")
	fs.Float64Var(&p.TEnd, "tend", 0, "final temperature (0: default)")
	fs.Float64Var(&p.Alpha, "alpha", 0, "cooling factor per temperature step (0: default)")
	fs.IntVar(&p.Sweeps, "sweeps", 0, "iterations per temperature step, in multiples of n (0: default)")
	fs.IntVar(&p.Workers, "workers", 0, "CPU goroutines (0: all cores)")
	fs.Int64Var(&p.Target, "target", 0, "stop once a tour of at most this `length` is found (0: none)")
	fs.Func("opt", "engine option `NAME=VALUE`, repeatable (the options of each engine: 'tsp engines --verbose')", func(s string) error {
		return paramUsage(p.Set(s))
	})
	pos, err := parse(fs, "solve", args, 1, 1)
	if err != nil {
		return err
	}
	p.Seed, p.TimeLimit = *seed, *timeFlag
	switch {
	case p.Blocks < 0 || p.Threads < 0 || p.K < 0 || p.Sweeps < 0 || p.Workers < 0:
		return usagef("solve", "--blocks, --threads, --k, --sweeps and --workers must not be negative")
	case p.TimeLimit < 0:
		return usagef("solve", "--time must not be negative")
	case p.T0 < 0 || p.TEnd < 0 || p.Alpha < 0 || p.Alpha >= 1:
		return usagef("solve", "--t0 and --tend must not be negative and --alpha must be in (0,1)")
	case *optimum < 0 || p.Target < 0:
		return usagef("solve", "--optimum and --target must not be negative")
	case p.Backend != solver.BackendCPU && p.Backend != solver.BackendGPU && p.Backend != solver.BackendAuto:
		return usagef("solve", "--backend %q: want cpu, gpu or auto", p.Backend)
	}
	// Check where the results go before a long run, not after it.
	for _, o := range []struct{ flag, path string }{{"--out", *out}, {"--json", *jsonOut}} {
		if err := checkOutputDir(o.flag, o.path); err != nil {
			return err
		}
	}
	in, err := loadInstance(pos[0], *optima, *optimum)
	if err != nil {
		return err
	}
	eng, note, err := solver.Resolve(p.Algorithm, p.Backend)
	if err != nil {
		if err := paramUsage(err); isUsage(err) {
			return err
		}
		if p.Backend == solver.BackendGPU {
			if _, derr := gpu.Devices(); derr != nil {
				return fmt.Errorf("--backend gpu: %v", derr)
			}
		}
		return err
	}
	if note != "" && !*quiet {
		fmt.Fprintf(e.stderr, "tsp: note: %s\n", note)
	}
	// Every setting against what this engine takes on this instance,
	// before the run (the engine checks the same again).
	if err := solver.Validate(eng, in, p); err != nil {
		return paramUsage(err)
	}
	var snaps chan solver.Snapshot
	var wg sync.WaitGroup
	stopProgress := make(chan struct{})
	if !*quiet {
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
		return fmt.Errorf("%s/%s: %v", eng.Name(), eng.Backend(), serr)
	}
	if res.Algorithm == "" {
		res.Algorithm = eng.Name()
	}
	if res.Backend == "" {
		res.Backend = eng.Backend()
	}
	if err := solver.ValidateTour(res.Tour, in.N); err != nil {
		return fmt.Errorf("%s/%s returned an invalid tour: %v", eng.Name(), eng.Backend(), err)
	}
	if res.Params.Seed == 0 {
		res.Params.Seed = p.Seed
	}
	if *out != "" {
		comment := fmt.Sprintf("length %d, %s/%s, seed %d, %.2f s", res.Length, res.Algorithm, res.Backend, res.Params.Seed, res.Elapsed.Seconds())
		if err := writeFile(*out, func(w io.Writer) error { return tsplib.WriteTour(w, in.Name, comment, res.Tour) }); err != nil {
			return err
		}
	}
	var lb *bound.Result
	if !in.HasOptimum() && *boundFor > 0 && ctx.Err() == nil {
		if r, err := boundUntilStopped(ctx, in, bound.Options{Time: *boundFor}); err == nil {
			lb = &r
		} else if !*quiet {
			fmt.Fprintf(e.stderr, "tsp: no lower bound: %v\n", err)
		}
	}
	rep := solver.NewReport(in, res)
	if lb != nil {
		rep.LowerBound = &lb.Bound
	}
	if *jsonOut == "-" {
		if err := rep.WriteJSON(e.stdout); err != nil {
			return err
		}
	} else {
		if *jsonOut != "" {
			if err := writeFile(*jsonOut, rep.WriteJSON); err != nil {
				return err
			}
		}
		fmt.Fprintln(e.stdout, summary(in, res))
		if lb != nil {
			fmt.Fprintln(e.stdout, gapLine(res.Length, *lb))
		}
	}
	return nil
}

// summary is the one-line outcome of a run.
func summary(in *solver.Instance, r solver.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: length %d", in.Name, r.Length)
	if g, ok := solver.GapPercent(r.Length, in.Optimum); ok {
		fmt.Fprintf(&b, " (gap %.2f%% to %d)", g, in.Optimum)
	}
	fmt.Fprintf(&b, ", %s/%s on %s, %.2f s, %d moves (%.3g/s)", r.Algorithm, r.Backend, r.Device, r.Elapsed.Seconds(), r.Moves, r.MovesPerSecond())
	if r.StopReason.Early() {
		b.WriteString(", " + r.StopReason.Describe())
	}
	return b.String()
}

// loadInstance reads a TSPLIB file with its known optimum; optimum > 0
// overrides it.
func loadInstance(path, optimaDir string, optimum int64) (*solver.Instance, error) {
	var dirs []string
	if optimaDir != "" {
		dirs = append(dirs, optimaDir)
	}
	in, err := tsplib.Load(path, dirs...)
	if err != nil {
		return nil, err
	}
	if in.Name == "" {
		in.Name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	if optimum > 0 {
		in.Optimum, in.OptimumSource = optimum, "--optimum"
	}
	return in, nil
}

// checkOutputDir fails when path's directory does not exist ("" and "-"
// are fine).
func checkOutputDir(flag, path string) error {
	if path == "" || path == "-" {
		return nil
	}
	dir := filepath.Dir(path)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return fmt.Errorf("%s %s: folder %s does not exist", flag, path, dir)
	}
	return nil
}

// writeFile creates path, lets fill write it, and closes it; any error
// names the file.
func writeFile(path string, fill func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err // *PathError names the file
	}
	if err := fill(f); err != nil {
		f.Close()
		return fmt.Errorf("%s: %v", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	return nil
}

// progress shows snapshots on stderr: a bar redrawn in place on a
// terminal, a plain line every few seconds otherwise.
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

// line formats one progress line: bar (on a terminal), length, best, gap,
// moves per second, elapsed.
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
	fmt.Fprintf(&b, "length %d  best %d", s.Length, s.BestLength)
	if g, ok := solver.GapPercent(s.BestLength, p.in.Optimum); ok {
		fmt.Fprintf(&b, "  gap %.2f%%", g)
	}
	mps := 0.0
	if s.Elapsed > 0 {
		mps = float64(s.Moves) / s.Elapsed.Seconds()
	}
	fmt.Fprintf(&b, "  %.3g moves/s  %.1fs", mps, s.Elapsed.Seconds())
	return b.String()
}

// paramUsage turns a *solver.ParamError (a setting out of range, an
// unknown algorithm or option) into a usage error of solve: exit code 2.
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
