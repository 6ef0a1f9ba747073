package session

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/bound"
	"github.com/tsplab/tsplab/solver/report"
	"github.com/tsplab/tsplab/solver/strategy"
)

// Pipeline is the one way the front ends run an engine: Choose and Prepare validate once, and Plan.Run starts the bound
// by one policy, shares the ascents, passes snapshots on and returns the result and report. The zero value is ready.
type Pipeline struct {
	ascents bound.Ascents
	// chosen is the last settings Choose read, which Prepare reads again only where they differ
	mu     sync.Mutex
	chosen solver.Params
}

// BoundShare is the part of a run's time the bound beside it may take.
const BoundShare = 0.9

// BoundWait is how long a run's end waits for the bound beside it.
const BoundWait = 250 * time.Millisecond

// Choice is the engine picked for a user's (algorithm, backend).
type Choice struct {
	Engine solver.Engine
	// Note says why the GPU was not used for backend auto ("" if it was).
	Note string
}

// Choose picks the engine for p and checks the settings needing no instance (a *solver.ParamError), naming the engine
// also on refusal.
func (pl *Pipeline) Choose(p solver.Params) (Choice, error) {
	e, note, err := solver.Resolve(p.Algorithm, p.Backend)
	if err != nil {
		return Choice{}, err
	}
	p, err = solver.Read(e, p)
	pl.mu.Lock()
	pl.chosen = p
	pl.mu.Unlock()
	return Choice{Engine: e, Note: note}, err
}

// Plan picks the engine for p and prepares it on in; note says why backend auto did not use the GPU.
func (pl *Pipeline) Plan(in *solver.Instance, p solver.Params) (plan *Plan, note string, err error) {
	if in == nil {
		return nil, "", errors.New("no instance loaded")
	}
	e, note, err := solver.Resolve(p.Algorithm, p.Backend)
	if err != nil {
		return nil, "", err
	}
	plan, err = pl.Prepare(e, in, p)
	return plan, note, err
}

// Plan is a run validated on its instance, ready to start.
type Plan struct {
	pl     *Pipeline
	Engine solver.Engine
	In     *solver.Instance
	Params solver.Params
}

// Prepare checks p on in for e and refuses fixed edges e cannot keep; the plan carries the config read once.
func (pl *Pipeline) Prepare(e solver.Engine, in *solver.Instance, p solver.Params) (*Plan, error) {
	pl.mu.Lock()
	p = p.ReadFrom(pl.chosen)
	pl.mu.Unlock()
	p, err := solver.Prepare(e, in, p)
	if err != nil {
		return nil, err
	}
	if err := solver.CheckFixedEdges(e, in); err != nil {
		return nil, err
	}
	if err := checkStart(in, p.Start); err != nil {
		return nil, err
	}
	return &Plan{pl: pl, Engine: e, In: WithExactOptimum(in), Params: p}, nil
}

// checkStart refuses a start tour of the wrong cities or without a fixed edge.
func checkStart(in *solver.Instance, start []int) error {
	if start == nil {
		return nil
	}
	if err := solver.ValidateTour(start, in.N); err != nil {
		return fmt.Errorf("start tour: %v", err)
	}
	if err := in.CheckFixedEdges(start); err != nil {
		return fmt.Errorf("start tour: %v", err)
	}
	return nil
}

// Request is how one run of a Plan goes.
type Request struct {
	// Params, when not nil, replaces the plan's params for this run (a continuation), unchecked.
	Params *solver.Params
	// Bound asks for a lower bound beside the run when no optimum is known, from the cached one, on the engine's
	// accelerator or the cores, within BoundShare of the limit.
	Bound bool
	// OnBound, when not nil, receives the cached bound and each higher one.
	OnBound func(bound.Result)
	// OnSnapshot, when not nil, receives the newest snapshot at most once per Interval (0: each), the last before Run returns.
	OnSnapshot func(solver.Snapshot)
	Interval   time.Duration
	// NoOptimumStop runs on past a known optimum (the suites measure the whole budget).
	NoOptimumStop bool
}

// Outcome is a run's result, report and any lower bound.
type Outcome struct {
	Result solver.Result
	Report report.Report
	// Bound is the higher of the bound proven beside the run and the cached one (nil: none); BoundErr says why not.
	Bound    *bound.Result
	BoundErr error
	// Fallback is true when the stopped run's result is the Fallback tour.
	Fallback bool
}

// ErrNoBoundBeside is Outcome.BoundErr when no bound ran beside the search, to spare its cores (strategy.BoundBesideCPU).
var ErrNoBoundBeside = errors.New("an ascent beside the search would take its cores: 'tsp bound FILE' or --bound D (up to D after the run) computes one")

// Run runs the plan once as req says.
func (pl *Plan) Run(ctx context.Context, req Request) (Outcome, error) {
	p := pl.Params
	if req.Params != nil {
		p = *req.Params
	}
	if ctx.Err() != nil && !errors.Is(context.Cause(ctx), solver.ErrTimeLimit) && p.Start == nil {
		return Outcome{Result: solver.Result{StopReason: solver.StopInterrupt, Stopped: true}}, ErrNoTour
	}
	var lb *boundRun
	dev := ascentDevice(pl.Engine)
	asked := req.Bound && !pl.In.HasOptimum()
	bounded := asked && (dev != nil || strategy.BoundBesideCPU(pl.In.N, runtime.GOMAXPROCS(0)))
	rctx, req, proven := watchOptimum(ctx, req, bounded)
	var cached *bound.Result
	if asked {
		cached = startCached(pl.In, &req)
	}
	if bounded {
		lb = pl.pl.startBound(ctx, pl.In, dev, boundLimit(ctx, p.TimeLimit), req.OnBound)
		defer lb.end()
	}
	snaps, forwarded := forward(req.OnSnapshot, req.Interval)
	aid := solver.Aid{Ascents: &pl.pl.ascents}
	q := p
	if q.TimeLimit == 0 {
		// the engine's default limit is the run's, as its report says
		q.TimeLimit = solver.DefaultLimitOf(pl.Engine, pl.In, q)
	}
	var res solver.Result
	var err error
	started := false
	if req.Params == nil && !req.NoOptimumStop {
		// a start tour already optimal ends the run before the engine sets up
		res, started, err = solver.OptimalStart(pl.Engine, pl.In, q)
	}
	if !started {
		res, err = solver.RunAided(rctx, pl.Engine, pl.In, q, snaps, aid, !req.NoOptimumStop)
	}
	forwarded()
	if proven() {
		res.StopReason, res.Stopped = solver.StopOptimum, true
	}
	res, fell, err := pl.keepBest(ctx, res, err, p)
	out := Outcome{Result: res, Fallback: fell}
	if err != nil {
		return out, err
	}
	out.Result = pl.named(res, p)
	if lb != nil {
		out.Bound, out.BoundErr = lb.result()
	} else if asked {
		out.BoundErr = ErrNoBoundBeside
	}
	out.Bound = bestBound(pl.In, out.Bound, cached)
	out.Report = report.New(pl.In, out.Result)
	RecordBound(&out.Report, pl.In, out.Bound)
	return out, nil
}

// boundLimit is the time of the bound beside a run of limit on ctx.
func boundLimit(ctx context.Context, limit time.Duration) time.Duration {
	if left := solver.LeftOf(ctx, time.Now()); left > 0 && (limit == 0 || left < limit) {
		return left
	}
	return limit
}

// BoundAfter spends up to limit after a run on a lower bound where none was ready, accelerator first, and sets out's
// Bound, BoundErr and report.
func (pl *Plan) BoundAfter(ctx context.Context, out *Outcome, limit time.Duration) {
	if out.Bound != nil || limit <= 0 || pl.In.HasOptimum() || ctx.Err() != nil {
		return
	}
	out.Bound, out.BoundErr = pl.pl.boundAfter(ctx, pl.In, ascentDevice(pl.Engine), limit)
	if c, ok := CachedBound(pl.In); ok {
		out.Bound = bestBound(pl.In, out.Bound, &c)
	} else {
		out.Bound = bestBound(pl.In, out.Bound, nil)
	}
	RecordBound(&out.Report, pl.In, out.Bound)
}

// named fills in the name, backend and seed an engine left out of res.
func (pl *Plan) named(res solver.Result, p solver.Params) solver.Result {
	if res.Algorithm == "" {
		res.Algorithm = pl.Engine.Name()
	}
	if res.Backend == "" {
		res.Backend = pl.Engine.Backend()
	}
	if res.Params.Seed == 0 {
		res.Params.Seed = p.Seed
	}
	return res
}

// ascentDevice is e's accelerator, where its runs' bound goes (nil: the cores).
func ascentDevice(e solver.Engine) solver.OpenAscentDevice {
	if h, ok := e.(solver.AscentHost); ok {
		return h.AscentDevice()
	}
	return nil
}

// forward returns the engine's snapshot channel and a function passing the last one on once the engine returned;
// on gets them at most every interval.
func forward(on func(solver.Snapshot), interval time.Duration) (chan solver.Snapshot, func()) {
	if on == nil {
		return nil, func() {}
	}
	snaps := solver.Latest()
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		var next time.Time
		for {
			select {
			case s := <-snaps:
				if wait := time.Until(next); wait > 0 {
					select {
					case <-time.After(wait):
					case <-stop:
					}
					s = newest(snaps, s)
				}
				next = time.Now().Add(interval)
				on(s)
			case <-stop:
				select {
				case s := <-snaps:
					on(s)
				default:
				}
				return
			}
		}
	}()
	return snaps, func() {
		close(stop)
		<-done
	}
}

// newest is the snapshot waiting in snaps merged over s, or s.
func newest(snaps chan solver.Snapshot, s solver.Snapshot) solver.Snapshot {
	select {
	case t := <-snaps:
		return solver.Merge(s, t)
	default:
		return s
	}
}
