// Package session is the run pipeline (Pipeline: one validation, the
// lower bound by one policy, the engine's aid, snapshots at the reader's
// rate, the result and its report) that every front end starts its runs
// through, and the Runner that runs one engine on one instance as a
// session the user steers (start, pause, step one sync interval, resume,
// stop, reset) with counters summed over the session's segments; it knows
// nothing of the UI.
package session

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/bound"
)

// RunState is where a Runner stands.
type RunState int

// The states of a Runner.
const (
	Idle    RunState = iota // nothing run yet, or reset
	Running                 // a segment is running
	Paused                  // stopped after Pause or Step; Resume or Step continue
	Done                    // the run ended (schedule, time limit, target or Stop); its best tour is kept
)

// String names the state for the status line.
func (s RunState) String() string {
	switch s {
	case Idle:
		return "idle"
	case Running:
		return "running"
	case Paused:
		return "paused"
	case Done:
		return "done"
	}
	return fmt.Sprintf("RunState(%d)", int(s))
}

// UpdateInterval is the least time between a Runner's updates without a Rate, and while it steps.
const UpdateInterval = time.Second / 30

// Progress is what a Runner reports: the newest snapshot with counters summed over the run's segments.
type Progress struct {
	State       RunState
	Tour        []int // current tour (nil when unchanged since the last update)
	Best        []int // best tour of the whole run (nil when unchanged)
	Length      int64
	BestLength  int64
	Temperature float64
	Steps       int64
	Moves       int64
	Elapsed     time.Duration
	// BestElapsed is when the best tour was found, on Elapsed's clock.
	BestElapsed time.Duration
	Fraction    float64 // 0..1 of the time budget or schedule
	Engine      string  // "pspm/cpu"
	Note        string  // backend fallback note, or the error that ended the run
	// Account is what the search did so far (nil: not said).
	Account *solver.Account

	// Phase is the engine's part of the run (solver.PhaseSearch when unsaid); PhaseProgress its fraction, negative when unknown.
	Phase         solver.Phase
	PhaseProgress float64
}

// MovesPerSecond is the run's solution space exploration speed.
func (p Progress) MovesPerSecond() float64 { return solver.MovesPerSecond(p.Moves, p.Elapsed) }

// Runner runs one engine on one instance: Pause keeps the best tour, temperature and counters, Resume continues from
// there with the rest of the budget, Step pauses after K steps. It is safe for concurrent use.
type Runner struct {
	// OnUpdate receives every update, at most one per Rate, and one when a segment ends.
	OnUpdate func(Progress)
	// Rate, when not nil, is the least time between updates of a run of e with params (else UpdateInterval).
	Rate func(e solver.Engine, params solver.Params) time.Duration
	// OnBound, when not nil, receives the bound the pipeline computes beside a run.
	OnBound func(in *solver.Instance, lb bound.Result)
	// Pipeline runs the segments (nil: one of the runner's own).
	Pipeline *Pipeline

	mu       sync.Mutex
	in       *solver.Instance
	params   solver.Params
	engine   solver.Engine
	plan     *Plan
	note     string
	state    RunState
	cancel   context.CancelFunc
	pausing  bool // the running segment was cancelled by Pause
	bounded  bool // the run's lower bound was proven
	stepping bool // the running segment stops after K steps
	seg      int  // segment number, so a stale segment never reports

	// Totals of the finished segments.
	moves   int64
	steps   int64
	elapsed time.Duration

	best        []int
	bestLength  int64
	bestAt      time.Duration // when best was found, on the run's clock
	exact       []int         // the best tour a segment returned (validated, exact length)
	exactLength int64
	temperature float64
	last        Progress
	result      *solver.Result
	err         error
	done        chan struct{} // closed when the running segment has ended
}

// NewRunner returns an idle Runner.
func NewRunner() *Runner { return &Runner{} }

// State returns where the runner stands.
func (r *Runner) State() RunState {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.state
}

// Last returns the newest progress.
func (r *Runner) Last() Progress {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.last
}

// Best returns the best tour of the run (nil before any) and its length.
func (r *Runner) Best() ([]int, int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]int(nil), r.best...), r.bestLength
}

// Result returns the run's result summed over its segments, false before the first ends.
func (r *Runner) Result() (solver.Result, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.result == nil {
		return solver.Result{}, false
	}
	return *r.result, true
}

// Choose picks the engine for params through the runner's pipeline, for a front end that needs it first.
func (r *Runner) Choose(params solver.Params) (Choice, error) {
	return r.pipeline().Choose(params)
}

// Engine returns the newest run's engine and the note on its choice.
func (r *Runner) Engine() (solver.Engine, string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.engine, r.note
}

// Start begins a new run of params on in; it fails while running or when params are refused (a *solver.ParamError).
func (r *Runner) Start(in *solver.Instance, params solver.Params) error {
	return r.begin(in, params, false)
}

// StepFrom begins a new run that pauses after one sync interval.
func (r *Runner) StepFrom(in *solver.Instance, params solver.Params) error {
	return r.begin(in, params, true)
}

func (r *Runner) begin(in *solver.Instance, params solver.Params, step bool) error {
	if in == nil {
		return errors.New("no instance loaded")
	}
	// The command line's limits, checked before the run so a bad setting is refused at once.
	plan, note, err := r.pipeline().Plan(in, params)
	if err != nil {
		return err
	}
	e := plan.Engine
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.state == Running {
		return errors.New("a run is in progress")
	}
	// the plan's params carry the config, which the first segment takes as it is
	r.in, r.params, r.engine, r.plan, r.note = in, plan.Params, e, plan, note
	r.forget()
	r.last = Progress{Engine: engineName(e), Note: note}
	r.launch(step, nil, 0)
	return nil
}

// Resume continues a paused run until its budget ends.
func (r *Runner) Resume() error { return r.cont(false) }

// Step runs one sync interval from a paused run, then pauses again.
func (r *Runner) Step() error { return r.cont(true) }

func (r *Runner) cont(step bool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.state != Paused {
		return fmt.Errorf("cannot continue a run that is %s", r.state)
	}
	var left time.Duration
	if tl := r.params.TimeLimit; tl > 0 {
		left = tl - r.elapsed
		if left <= 0 {
			r.state = Done
			r.last.State = Done
			return errors.New("the time budget is spent")
		}
	}
	r.launch(step, r.best, left)
	return nil
}

// launch starts a segment; r.mu is held.
func (r *Runner) launch(step bool, start []int, left time.Duration) {
	p := r.params
	a, _ := solver.AnnealOf(r.in, p) // the schedule's defaults, for an annealer
	if start != nil {
		p.Start = append([]int(nil), start...)
		if r.temperature > 0 {
			// t0 is given in the file's units, the temperature is in the instance's
			p = p.WithExtra("t0", strconv.FormatFloat(max(r.temperature, a.TEnd)/a.Unit, 'g', -1, 64))
		}
	}
	if left > 0 {
		p.TimeLimit = left
	}
	k := int64(a.K)
	if !p.Given("k") {
		k = 1
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	r.state, r.pausing, r.stepping = Running, step, step
	r.last.State = Running
	r.seg++
	r.done = make(chan struct{})
	// the bound beside every segment until one is proven
	req := Request{Params: &p, Interval: r.interval(step, p), Bound: !r.bounded}
	seg, in, on := r.seg, r.in, r.OnBound
	req.OnBound = func(lb bound.Result) {
		r.mu.Lock()
		mine := seg == r.seg
		// a cached bound still leaves this run's own to prove
		r.bounded = r.bounded || mine && !lb.Cached
		r.mu.Unlock()
		if mine && on != nil {
			on(in, lb)
		}
	}
	go r.segment(ctx, cancel, r.seg, r.plan, req, k, r.done)
}

// pipeline is the pipeline the runner's segments go through.
func (r *Runner) pipeline() *Pipeline {
	if r.Pipeline == nil {
		r.Pipeline = new(Pipeline)
	}
	return r.Pipeline
}

// interval is the reader's rate for a segment of p (a step at UpdateInterval at least)
func (r *Runner) interval(step bool, p solver.Params) time.Duration {
	d := UpdateInterval
	if r.Rate != nil {
		d = r.Rate(r.engine, p)
	}
	if step {
		d = min(d, UpdateInterval)
	}
	return d
}

type solveOutcome struct {
	res solver.Result
	err error
}

// segment runs one segment through the pipeline, each snapshot an update, the last the segment's end.
func (r *Runner) segment(ctx context.Context, cancel context.CancelFunc, seg int, plan *Plan, req Request, k int64, done chan struct{}) {
	defer close(done)
	defer cancel()
	req.OnSnapshot = func(s solver.Snapshot) {
		if pr, ok := r.absorb(seg, s); ok {
			if pr.stepDone(k) {
				cancel()
			}
			r.emit(pr.Progress)
		}
	}
	out, err := plan.Run(ctx, req)
	if pr, ok := r.finish(seg, solveOutcome{out.Result, err}); ok {
		r.emit(pr)
	}
}

type segProgress struct {
	Progress
	segSteps int64
	stepping bool
}

func (p segProgress) stepDone(k int64) bool { return p.stepping && p.segSteps >= k }

// absorb folds a snapshot of segment seg into the run's totals.
func (r *Runner) absorb(seg int, s solver.Snapshot) (segProgress, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if seg != r.seg {
		return segProgress{}, false
	}
	pr := r.last
	pr.State = r.state
	pr.Tour = s.Tour
	pr.Best = nil
	if s.Tour != nil || s.Length > 0 {
		pr.Length = s.Length
	}
	if len(s.Best) > 0 && (r.bestLength == 0 || s.BestLength < r.bestLength) {
		r.best, r.bestLength = s.Best, s.BestLength
		r.bestAt = r.elapsed + s.Elapsed
		if s.BestElapsed > 0 {
			r.bestAt = r.elapsed + min(s.BestElapsed, s.Elapsed)
		}
		pr.Best = s.Best
	}
	pr.BestLength, pr.BestElapsed = r.bestLength, r.bestAt
	if s.Temperature > 0 {
		r.temperature = s.Temperature
	}
	// An annealer's final snapshot has no temperature: keep the last shown.
	pr.Temperature = r.temperature
	// A phase-only snapshot carries no counters: the totals never go back.
	pr.Steps = max(pr.Steps, r.steps+s.Step)
	pr.Moves = max(pr.Moves, r.moves+s.Moves)
	pr.Elapsed = max(pr.Elapsed, r.elapsed+s.Elapsed)
	pr.Phase, pr.PhaseProgress = s.Phase, s.PhaseProgress
	if s.Account != nil {
		pr.Account = s.Account
	}
	if pr.Phase == "" {
		pr.Phase, pr.PhaseProgress = solver.PhaseSearch, solver.UnknownProgress
	}
	pr.Fraction = r.fraction(pr.Elapsed, s.Progress)
	r.last = pr
	return segProgress{Progress: pr, segSteps: s.Step, stepping: r.stepping}, true
}

// fraction is the share of the run done: of the time budget, else of the engine's schedule.
func (r *Runner) fraction(elapsed time.Duration, engine float64) float64 {
	if tl := r.params.TimeLimit; tl > 0 {
		f := float64(elapsed) / float64(tl)
		if engine > f && r.elapsed == 0 {
			f = engine
		}
		return min(f, 1)
	}
	return min(max(engine, 0), 1)
}

// finish ends segment seg with its outcome.
func (r *Runner) finish(seg int, o solveOutcome) (Progress, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if seg != r.seg {
		return Progress{}, false
	}
	pr := r.last
	pr.Tour, pr.Best = nil, nil
	pr.Phase, pr.PhaseProgress = "", 0
	if o.err != nil {
		r.err = o.err
		pr.Note = o.err.Error()
		r.state = Done
		pr.State = Done
		r.last = pr
		return pr, true
	}
	res := o.res
	// The result keeps only tours that came through solver.Finish.
	if len(res.Tour) == r.in.N && (r.exact == nil || res.Length <= r.exactLength) {
		r.exact, r.exactLength = res.Tour, res.Length
	}
	r.moves += res.Moves
	r.steps += res.Steps
	r.elapsed += res.Elapsed
	if r.exact != nil {
		if r.bestLength == 0 || r.exactLength < r.bestLength {
			r.bestAt = r.elapsed // shorter than any snapshot said: found by the end
		}
		r.best, r.bestLength = r.exact, r.exactLength
		pr.Best = r.best
	}
	total := res
	total.Tour = append([]int(nil), r.best...)
	total.Length = r.bestLength
	total.Moves, total.Steps, total.Elapsed = r.moves, r.steps, r.elapsed
	total.Params = r.params
	total.Params.Start = nil
	r.result = &total

	pr.BestLength, pr.BestElapsed = r.bestLength, r.bestAt
	pr.Moves, pr.Steps, pr.Elapsed = r.moves, r.steps, r.elapsed
	pr.Fraction = r.fraction(r.elapsed, 1)
	acc := res.Account
	pr.Account = &acc
	budgetLeft := r.params.TimeLimit <= 0 || r.elapsed < r.params.TimeLimit
	if r.pausing && res.Stopped && budgetLeft {
		r.state = Paused
	} else {
		r.state = Done
		// a run is complete unless interrupted
		if r.params.TimeLimit <= 0 || res.StopReason != solver.StopInterrupt {
			pr.Fraction = 1
		}
	}
	pr.State = r.state
	r.last = pr
	return pr, true
}

func (r *Runner) emit(p Progress) {
	if f := r.OnUpdate; f != nil {
		f(p)
	}
}

// Pause stops the running segment, keeping what it found.
func (r *Runner) Pause() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.state == Running && r.cancel != nil {
		r.pausing = true
		r.cancel()
	}
}

// Stop ends the run; its best tour is kept.
func (r *Runner) Stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch r.state {
	case Running:
		r.pausing = false
		r.stepping = false
		if r.cancel != nil {
			r.cancel()
		}
	case Paused:
		r.state = Done
		r.last.State = Done
	}
}

// Wait blocks until the running segment, if any, has ended and reported.
func (r *Runner) Wait() {
	r.mu.Lock()
	d := r.done
	r.mu.Unlock()
	if d != nil {
		<-d
	}
}

// Reset stops any run and forgets it.
func (r *Runner) Reset() {
	r.mu.Lock()
	if r.cancel != nil {
		r.cancel()
	}
	r.seg++ // the cancelled segment no longer reports
	r.state = Idle
	r.forget()
	r.last = Progress{}
	r.mu.Unlock()
}

// forget drops the run's totals, tours and outcome; r.mu is held.
func (r *Runner) forget() {
	r.moves, r.steps, r.elapsed = 0, 0, 0
	r.best, r.bestLength, r.bestAt, r.temperature = nil, 0, 0, 0
	r.exact, r.exactLength = nil, 0
	r.result, r.err = nil, nil
	r.bounded = false
}

func engineName(e solver.Engine) string { return e.Name() + "/" + e.Backend() }
