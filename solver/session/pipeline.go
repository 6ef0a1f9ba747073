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

// Pipeline is the one way the front ends (the app, tsp solve, the bench
// suites) run an engine: Choose picks the engine and checks the settings
// that need no instance, Prepare checks them on the instance (together
// one validation), and Plan.Run starts the lower bound by one policy,
// hands the engine the ascents it shares with that bound, passes the
// snapshots on at the reader's rate and returns the result and its
// report. A Pipeline keeps the last whole Held–Karp ascent for the next
// run on the same instance; the zero value is ready.
type Pipeline struct {
	ascents bound.Ascents
	// chosen is the last settings Choose read, which Prepare reads
	// again only where they differ
	mu     sync.Mutex
	chosen solver.Params
}

// BoundShare is the part of a run's time limit the lower bound beside it
// may take, so that it has returned when the run ends.
const BoundShare = 0.9

// BoundWait is how long the end of a run waits for the bound beside it,
// once stopped: the last moments of its exact evaluation.
const BoundWait = 250 * time.Millisecond

// Choice is the engine picked for a user's (algorithm, backend).
type Choice struct {
	Engine solver.Engine
	// Note says why the GPU was not used for backend auto ("" if it was).
	Note string
}

// Choose picks the engine for p's (algorithm, backend) and checks p's
// settings against what it takes (a *solver.ParamError), before the
// instance is known; the choice names the engine also when the settings
// are refused, so that the error can name the engine's fields.
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

// Plan picks the engine for p's (algorithm, backend) and checks p on in
// (Prepare), for a front end that has the instance at hand; note says why
// the GPU was not used for backend auto.
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

// Plan is a run validated on its instance, ready to start (once, or in
// segments as a Runner does).
type Plan struct {
	pl     *Pipeline
	Engine solver.Engine
	In     *solver.Instance
	Params solver.Params
}

// Prepare checks p on in for engine e (a *solver.ParamError) and refuses
// fixed edges to an engine that does not keep them. The plan's params
// carry the engine's config read once (solver.Prepare), so that the
// engine neither checks nor parses them again.
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

// checkStart refuses a start tour that is not a tour of in or drops one
// of its fixed edges, for every engine alike.
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
	// Params, when not nil, replaces the plan's params for this run: a
	// continuation of them (a start tour, the time left), not checked
	// again.
	Params *solver.Params
	// Bound asks for a lower bound beside the run when the instance has
	// no known optimum, starting from the best one earlier runs proved on
	// the same distances (CachedBound), which a higher one replaces: on the engine's accelerator when it runs on one
	// (solver.AscentHost), else on the cores, within BoundShare of the
	// time limit (none: until the run ends), stopped when the run ends.
	Bound bool
	// OnBound, when not nil, receives the cached bound at the start and
	// each higher bound as soon as it is proven.
	OnBound func(bound.Result)
	// OnSnapshot, when not nil, receives the run's snapshots, at most one
	// per Interval (0: each one the engine sends), the newest each time,
	// from one goroutine; the last one before Run returns.
	OnSnapshot func(solver.Snapshot)
	Interval   time.Duration
	// NoOptimumStop runs on past a known optimum (the suites measure the
	// whole budget); otherwise the run stops there (solver.StopOptimum).
	NoOptimumStop bool
}

// Outcome is what a run returns: the result, the report the front ends
// write, and the lower bound when one was asked for and ready.
type Outcome struct {
	Result solver.Result
	Report report.Report
	// Bound is the lower bound proven beside the run or the cached one,
	// the higher (nil: none asked for, or none ready); BoundErr says why not when it failed or ran
	// out of time.
	Bound    *bound.Result
	BoundErr error
	// Fallback is true when the run was stopped before the engine had a
	// tour as short as the start construction, which the result holds
	// instead (see Fallback).
	Fallback bool
}

// ErrNoBoundBeside is Outcome.BoundErr when a bound was asked for but none
// ran beside the search, because on this machine's cores it would take
// them from the search (strategy.BoundBesideCPU).
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
		// the plan's own start tour, already optimal, ends the run before the engine sets up (a runner's later
		// segment, which gives its params, runs on from its best)
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

// boundLimit is the time of the bound beside a run with the time limit
// limit (0: none) on ctx: what ctx's deadline leaves when it comes first.
func boundLimit(ctx context.Context, limit time.Duration) time.Duration {
	if left := solver.LeftOf(ctx, time.Now()); left > 0 && (limit == 0 || left < limit) {
		return left
	}
	return limit
}

// BoundAfter spends up to limit after a run that gave out on a lower
// bound, when the instance has no known optimum, none was ready and ctx
// has not ended: on the engine's accelerator first, as Request.Bound
// does, limit bounding both tries together; ctx's end stops it with the
// best bound proven by then. It sets out's Bound, BoundErr and report.
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

// named fills in what an engine left out of res: its name, backend and
// the seed of p.
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

// ascentDevice is the accelerator e runs on, where the lower bound of its
// runs goes (nil: the cores).
func ascentDevice(e solver.Engine) solver.OpenAscentDevice {
	if h, ok := e.(solver.AscentHost); ok {
		return h.AscentDevice()
	}
	return nil
}

// forward returns the channel the engine sends its snapshots to and a
// function that, once the engine has returned, passes the last one on
// and waits for the forwarder to end; snapshots go to on at most every
// interval (0: as they come).
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

// newest is the snapshot waiting in snaps, with what s had and it has
// not (solver.Merge), or s when none is.
func newest(snaps chan solver.Snapshot, s solver.Snapshot) solver.Snapshot {
	select {
	case t := <-snaps:
		return solver.Merge(s, t)
	default:
		return s
	}
}
