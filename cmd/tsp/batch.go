package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/bound"
	"github.com/tsplab/tsplab/solver/cpu/population"
	"github.com/tsplab/tsplab/solver/report"
	"github.com/tsplab/tsplab/solver/session"
	"github.com/tsplab/tsplab/solver/strategy"
)

// batchRequest is what tsp batch's command line asks for.
type batchRequest struct {
	p        solver.Params
	inputs   []string
	out      string
	each     time.Duration
	jobs     int
	chunk    int
	lines    bool
	tours    bool
	bound    time.Duration
	optima   string
	quiet    bool
	shard    shard
	gpus     []int         // the devices of a GPU batch (none: device 0, as the driver gives it)
	engine   solver.Engine // the engine of a CPU batch
	progress time.Duration // how often a progress line goes out
	// progressMode is --progress: text or json
	progressMode string
}

// batchDone is one item's outcome, for the writer: seq is the item's
// place in the order of the lines.
type batchDone struct {
	seq  int
	line batchLine
	err  error
}

func cmdBatch(ctx context.Context, e *env, args []string) error {
	r, err := parseBatch(e, args)
	if err != nil {
		return err
	}
	batchDriverSettings() // before anything starts the driver
	if note := gpusOnCPU(&r.p); note != "" && !r.quiet {
		fmt.Fprintf(e.stderr, "tsp: note: --gpus: %s\n", note)
	}
	sel, err := checkGPUs("batch", r.p)
	if err != nil {
		return err
	}
	var targets []target
	if r.out != "-" {
		targets = append(targets, target{"--out", r.out})
	}
	pl, choice, err := setUpRun("batch", r.p, r.inputFiles(), targets...)
	if err != nil {
		return err
	}
	var onGPU batchGPU
	r.engine = choice.Engine
	if choice.Engine.Backend() == solver.BackendGPU {
		if onGPU = gpuBatch(); onGPU == nil {
			return fmt.Errorf("--backend %s: this build solves batches on the CPU only (build with `make gpu`)", r.p.Backend)
		}
		r.gpus = batchDevices(sel)
	}
	out, done, err := openBatchOut(r.out, e.stdout)
	if err != nil {
		return err
	}
	start := time.Now()
	st, runErr := runBatch(ctx, e, r, pl, onGPU, out, done)
	if err := out.close(); err != nil && runErr == nil {
		runErr = err
	}
	if !r.quiet || r.out != "-" {
		w := e.stdout
		if r.out == "-" {
			w = e.stderr
		}
		fmt.Fprintln(w, st.summary(r, time.Since(start)))
	}
	if runErr != nil {
		return runErr
	}
	if ctx.Err() != nil {
		return errInterrupted
	}
	if st.failed > 0 {
		return fmt.Errorf("batch: %d of %d instances failed (said above); a rerun with the same --out retries them", st.failed, st.failed+st.solved)
	}
	return nil
}

// batchAbout is tsp batch's help text.
const batchAbout = "Solves many instances, one JSON line each in --out (name, n, length in the file's units, gap to the\n" +
	"optimum or to the tour a data set gives, time, seed). Inputs are instance files, folders of them, or\n" +
	"files of one instance a line, 'x1 y1 x2 y2 …' (an 'output …' after the coordinates is the data\n" +
	"set's tour, kept as reference_length). A rerun with the same --out skips the instances already\n" +
	"there; each batch of lines is synced to the disk before the next, in the input order. Each\n" +
	"instance gets work chosen by its size (kicks of the search; CPU auto below 20,000 cities runs pop's\n" +
	"population search by rounds; --opt kicks=N gives auto N kicks, kicks=0 searches until --time-each),\n" +
	"the same on any machine and load, said in each line's options; --time-each caps it. On the CPU\n" +
	"--jobs instances run at once, each on its share of the cores (one each by default); on the GPU (a\n" +
	"CUDA build, GPU backend) every GPU --gpus selects (default: all) takes chunks of as many as it\n" +
	"searches at once (--chunk sets them, without changing the tours), a block each, while the cores\n" +
	"read, build start tours and check the tours. Ctrl-C keeps the lines written and exits 130\n" +
	"(docs/BATCH.md)."

// parseBatch reads tsp batch's flags.
func parseBatch(e *env, args []string) (*batchRequest, error) {
	fs := newFlags(e, "batch", "FILES|DIR... --out RESULTS.jsonl [--time-each T] [flags]", batchAbout)
	r := &batchRequest{}
	p := &r.p
	seed := fs.Uint64("seed", 1, "random seed of every instance's run")
	var sf shardFlags
	sf.register(fs)
	durationVar(fs, &r.each, "time-each", 0, "cap `D` on each instance's run (on the GPU: each chunk's): seconds (0.05) or a duration (50ms, 2s) (0: the work alone)")
	fs.StringVar(&r.out, "out", "", "append the results to `FILE`, one JSON line an instance (- for stdout; required)")
	fs.StringVar(&p.Algorithm, "algo", "auto", "algorithm `NAME`")
	fs.StringVar(&p.Backend, "backend", "auto", "cpu, gpu or auto (GPU when available, else CPU)")
	fs.IntVar(&r.jobs, "jobs", 0, "instances solved at once on the CPU, the cores shared out between them (0: one per core)")
	fs.IntVar(&r.chunk, "chunk", 0, "instances handed to a GPU at once (0: as many as it searches at once); the tours stay the same")
	fs.BoolVar(&r.lines, "lines", false, "read every input file as one instance a line, 'x1 y1 x2 y2 …' (default: told by the first line)")
	fs.BoolVar(&r.tours, "tours", false, "write each tour (1-based ids) in its line")
	durationVar(fs, &r.bound, "bound", 0, "spend up to `D` an instance on a Held–Karp lower bound when its optimum is unknown (0: none)")
	fs.StringVar(&r.optima, "optima", "", "also look for optima.csv in `DIR`")
	fs.BoolVar(&r.quiet, "quiet", false, "no progress on stderr")
	fs.StringVar(&r.progressMode, "progress", "text", "batch "+progressDoc+"; a batch's lines count its instances (elapsed_s, phase batch, solved, failed, mean_gap_percent)")
	fs.Func("opt", "engine option `NAME=VALUE`, repeatable", func(s string) error { return paramUsage(p.Set(s)) })
	fs.Func("gpus", gpusDoc, func(s string) error { return setGPUs("batch", p, s) })
	pos, err := parse(fs, "batch", args, 1, math.MaxInt32)
	if err != nil {
		return nil, err
	}
	r.inputs, p.Seed = pos, *seed
	if r.shard, err = sf.resolve("batch", getenv); err != nil {
		return nil, err
	}
	if err := r.check(); err != nil {
		return nil, err
	}
	r.jobs = cmp.Or(r.jobs, runtime.NumCPU())
	p.TimeLimit = r.each
	r.progress = time.Second
	return r, nil
}

// check checks the request's inputs and settings: a usage error for a setting out of range.
func (r *batchRequest) check() error {
	for _, in := range r.inputs {
		if _, err := os.Stat(in); err != nil {
			return fmt.Errorf("%s: no such file or folder", in)
		}
	}
	switch {
	case r.out == "":
		return usagef("batch", "--out FILE is required: the results go there, one line an instance")
	case r.p.Text("kicks") == "0" && r.each <= 0:
		return usagef("batch", "--opt kicks=0 searches until the time limit: give --time-each T, e.g. 100ms")
	}
	if err := checkTime("batch", "time-each", r.each); err != nil {
		return err
	}
	if err := checkTime("batch", "bound", r.bound); err != nil {
		return err
	}
	if err := checkProgress("batch", r.progressMode); err != nil {
		return err
	}
	if err := checkInts("batch", intRange{"jobs", int64(r.jobs), 0, 4096}, intRange{"chunk", int64(r.chunk), 0, 1 << 20}); err != nil {
		return err
	}
	if r.optima != "" {
		return checkOptima(r.optima)
	}
	return nil
}

// batchStats counts a batch's outcomes.
type batchStats struct {
	solved, skipped, failed int
	gapSum, refSum          float64
	gaps, refs              int
}

func (s *batchStats) add(l batchLine) {
	s.solved++
	if l.GapPercent != nil {
		s.gapSum += *l.GapPercent
		s.gaps++
	}
	if l.RefGapPercent != nil {
		s.refSum += *l.RefGapPercent
		s.refs++
	}
}

// quality is the mean gaps so far.
func (s *batchStats) quality() string {
	var b strings.Builder
	if s.gaps > 0 {
		fmt.Fprintf(&b, ", mean gap %.4f %% to the optimum over %d", s.gapSum/float64(s.gaps), s.gaps)
	}
	if s.refs > 0 {
		m, side := s.refSum/float64(s.refs), "above"
		if m < 0 {
			m, side = -m, "below"
		}
		fmt.Fprintf(&b, ", mean %.4f %% %s the data set's tours over %d", m, side, s.refs)
	}
	return b.String()
}

// minRateTime is the least wall clock over which the summary gives a
// rate: over less, start-up and timer noise are most of it.
const minRateTime = time.Second

// summary is the batch's last line.
func (s *batchStats) summary(r *batchRequest, wall time.Duration) string {
	var b strings.Builder
	fmt.Fprintf(&b, "batch: %d solved", s.solved)
	if s.skipped > 0 {
		fmt.Fprintf(&b, ", %d skipped (already in %s)", s.skipped, r.out)
	}
	if s.failed > 0 {
		fmt.Fprintf(&b, ", %d failed", s.failed)
	}
	if !r.shard.Whole() {
		fmt.Fprintf(&b, " (shard %s)", r.shard)
	}
	fmt.Fprintf(&b, " in %.2f s", wall.Seconds())
	if wall >= minRateTime && s.solved > 1 {
		fmt.Fprintf(&b, ", %.1f instances/s", float64(s.solved)/wall.Seconds())
	}
	b.WriteString(s.quality())
	return b.String()
}

// runBatch sends the shard's items not yet done to the solvers (the
// GPUs of onGPU, else the CPU) and writes their lines in input order as
// they come.
func runBatch(ctx context.Context, e *env, r *batchRequest, pl *session.Pipeline, onGPU batchGPU, out *batchOut, done map[string]bool) (*batchStats, error) {
	st := &batchStats{}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	items := make(chan batchItem, 4*runtime.NumCPU())
	results := make(chan batchDone, 4*runtime.NumCPU())
	listErr := listBatch(ctx, r, done, st, items)
	gpuErr := func() error { return nil }
	if onGPU != nil {
		gpuErr = runGPUBatch(ctx, e, r, onGPU, items, results, cancel)
	} else {
		var wg sync.WaitGroup
		for range r.jobs {
			wg.Go(func() { cpuBatchWorker(ctx, r, pl, items, results) })
		}
		go func() { wg.Wait(); close(results) }()
	}
	werr := collectBatch(e, r, st, out, results, cancel)
	// the workers stop early only once ctx has ended, which ends the listing too
	lerr, gerr := listErr(), gpuErr()
	switch {
	case werr != nil:
		return st, werr
	case gerr != nil:
		return st, gerr
	case lerr != nil && ctx.Err() == nil:
		return st, lerr
	}
	return st, nil
}

// listBatch sends the shard's items not in done to items from a goroutine of its own, each numbered (its id in the
// inputs' order, its seq among those sent), counting those skipped in st.skipped, and returns the function that waits
// for the listing to end and gives its error.
func listBatch(ctx context.Context, r *batchRequest, done map[string]bool, st *batchStats, items chan<- batchItem) func() error {
	var listErr error
	listed := make(chan struct{}) // closed once the items are all sent: listErr and st.skipped are final
	go func() {
		defer close(listed)
		defer close(items)
		k, seq := -1, 0
		listErr = batchItems(ctx, r.inputs, r.lines, func(it batchItem) bool {
			k++
			if !r.shard.Has(k) {
				return true
			}
			if it.err == nil && done[it.key()] {
				st.skipped++
				return true
			}
			it.id, it.seq = uint64(k), seq
			select {
			case items <- it:
				seq++
				return true
			case <-ctx.Done():
				return false
			}
		})
	}()
	return func() error { <-listed; return listErr }
}

// collectBatch writes the results in the items' order as they come (an outcome that comes before an earlier item's
// waits for it), flushing the output whenever none waits, and shows the progress (a line a second while the count
// grows, or with --progress json a JSON line a second); a failed write cancels the batch and is returned.
func collectBatch(e *env, r *batchRequest, st *batchStats, out *batchOut, results <-chan batchDone, cancel func()) error {
	var werr error
	start, shown := time.Now(), -1
	tick := time.NewTicker(r.progress)
	defer tick.Stop()
	held, next := map[int]batchDone{}, 0
	for {
		select {
		case d, ok := <-results:
			if !ok {
				return werr
			}
			held[d.seq] = d
			for {
				d, ok := held[next]
				if !ok {
					break
				}
				delete(held, next)
				next++
				switch {
				case d.err != nil:
					st.failed++
					fmt.Fprintf(e.stderr, "tsp: %s\n", oneLine(d.err.Error()))
				case werr == nil:
					st.add(d.line)
					out.add(d.line)
				}
			}
			if len(results) == 0 && werr == nil {
				if werr = out.flush(); werr != nil {
					cancel()
				}
			}
		case <-tick.C:
			switch {
			case r.quiet:
			case r.progressMode == "json":
				st.writeJSON(e.stderr, time.Since(start))
			case st.solved != shown:
				shown = st.solved
				fmt.Fprintf(e.stderr, "tsp: batch: %d solved%s\n", st.solved, st.quality())
			}
		}
	}
}

// writeJSON writes one --progress json line of a batch: the instances solved and failed so far, and their mean gap.
func (s *batchStats) writeJSON(w io.Writer, elapsed time.Duration) {
	line := struct {
		Elapsed float64  `json:"elapsed_s"`
		Phase   string   `json:"phase"`
		Solved  int      `json:"solved"`
		Failed  int      `json:"failed"`
		MeanGap *float64 `json:"mean_gap_percent,omitempty"`
	}{Elapsed: round3(elapsed.Seconds()), Phase: "batch", Solved: s.solved, Failed: s.failed}
	if s.gaps > 0 {
		line.MeanGap = ptr(round3(s.gapSum / float64(s.gaps)))
	}
	b, _ := json.Marshal(line)
	w.Write(append(b, '\n'))
}

// cpuBatchWorker solves items one at a time, each on its share of the
// cores, with the work cpuBatchParams gives it.
func cpuBatchWorker(ctx context.Context, r *batchRequest, pl *session.Pipeline, items <-chan batchItem, results chan<- batchDone) {
	var optima []string
	if r.optima != "" {
		optima = []string{r.optima}
	}
	for it := range items {
		if ctx.Err() != nil {
			continue // the listing ends with ctx: drain what it sent
		}
		in, ref, hasRef, err := it.load(optima)
		if err != nil {
			results <- batchDone{seq: it.seq, err: err}
			continue
		}
		plan, _, err := pl.Plan(in, r.cpuBatchParams(in))
		if err != nil {
			results <- batchDone{seq: it.seq, err: fmt.Errorf("%s: %v", it.key(), err)}
			continue
		}
		o, err := plan.Run(ctx, session.Request{})
		if ctx.Err() != nil {
			continue // a run the interrupt cut short is not a result: a rerun solves it
		}
		if err != nil {
			results <- batchDone{seq: it.seq, err: fmt.Errorf("%s: %v", it.key(), err)}
			continue
		}
		// the plan's instance carries the optimum it proved for a small one, as solve's does
		results <- batchDone{seq: it.seq, line: r.line(ctx, it, plan.In, o.Result, ref, hasRef)}
	}
}

// A CPU batch's default work. An instance of auto given no options and
// fewer than strategy.PopMaxN cities is solved by pop's population
// search: popBatchGA descents evolved by EAX, then popBatchRounds rounds
// of popBatchKicks-kick searches, 18 ms of a core an instance at 100
// cities and a mean -0.0023 % against the better of two 5,000-kick auto
// searches of 400, none above 0.03 % (1,000 kicks of auto: 8 ms,
// +0.038 %, 25 of 200 above 0.1 %). Another engine that takes a kick
// budget makes cpuKicksPerCity kicks for each city, at least cpuMinKicks.
const (
	popBatchGA, popBatchKicks, popBatchRounds = "50", "50", "12"
	cpuKicksPerCity, cpuMinKicks              = 10, 100
)

// cpuBatchParams is the params of in's run on the CPU: the cores shared
// out between the jobs (one each by default), and where no kicks are
// given the batch's default work for the engine and in's size.
func (r *batchRequest) cpuBatchParams(in *solver.Instance) solver.Params {
	p := r.p
	p.Workers = max(1, runtime.NumCPU()/r.jobs)
	switch {
	case r.engine == nil || p.Given("kicks"):
	case r.engine.Name() == "auto" && len(p.Extra) == 0 && in.N < strategy.PopMaxN:
		p.Algorithm = population.Name
		p = p.WithExtra("ga", popBatchGA).WithExtra("kicks", popBatchKicks).WithExtra("rounds", popBatchRounds)
	default:
		if _, takes := solver.OptionsFor(r.engine.Name(), r.engine.Backend()).Lookup("kicks"); takes {
			p = p.WithExtra("kicks", strconv.Itoa(max(cpuMinKicks, cpuKicksPerCity*in.N)))
		}
	}
	return p
}

// checkBatchResult checks a result that did not come through the run
// pipeline: a tour of the instance, of the length it says.
func checkBatchResult(in *solver.Instance, res solver.Result) error {
	if err := solver.ValidateTour(res.Tour, in.N); err != nil {
		return fmt.Errorf("the GPU's tour: %v", err)
	}
	if l := solver.TourLength(in, res.Tour); l != res.Length {
		return fmt.Errorf("the GPU's tour has length %d, not the %d it reported", l, res.Length)
	}
	return nil
}

// line is the results line of one instance solved, read from the run's
// record (report.Report) as every front end reads it: its lengths, gaps,
// bound and route.
func (r *batchRequest) line(ctx context.Context, it batchItem, in *solver.Instance, res solver.Result, ref int64, hasRef bool) batchLine {
	rep := report.New(in, res)
	if r.bound > 0 && !in.HasOptimum() {
		if b, err := bound.Compute(ctx, in, bound.Options{Time: r.bound}); err == nil && b.Bound > 0 {
			rep.SetLowerBound(in, b.Bound)
		}
	}
	num := func(v int64) json.Number { return json.Number(in.FormatLength(v)) }
	l := batchLine{
		Name: it.name(), File: it.file, Line: it.line, Key: it.key(), N: rep.Dimension,
		Length: num(rep.LengthScaled), Seconds: rep.ElapsedSeconds, Seed: r.p.Seed,
		Algorithm: rep.Algorithm, Backend: rep.Backend, Options: rep.Params.Extra, Route: rep.Account.Route,
	}
	if rep.OptimumScaled != nil {
		l.Optimum = ptr(num(*rep.OptimumScaled))
	}
	switch rep.GapAbove {
	case "optimum":
		l.GapPercent = rep.GapPercent
	case "lower_bound":
		l.LowerBound, l.BoundGapPercent = ptr(num(*rep.LowerBoundScaled)), rep.GapPercent
	}
	if hasRef && ref > 0 {
		l.Reference = ptr(num(ref))
		l.RefGapPercent = ptr(100 * float64(rep.LengthScaled-ref) / float64(ref))
	}
	if r.tours {
		l.Tour = make([]int64, len(rep.Tour))
		for i, c := range rep.Cities() {
			l.Tour[i] = in.Points.ID(c)
		}
	}
	return l
}

func ptr[T any](v T) *T { return &v }
