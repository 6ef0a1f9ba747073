package bound

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/neighbor"
)

// Precision scales distances into integer 1-tree weights, Precision·d(i,j) + π_i + π_j, so sums are exact (as in LKH).
const Precision = 100

// Options tune Compute. The zero value is the default.
type Options struct {
	// Time bounds the ascent and the exact evaluation, the ascent leaving time for the latter (0: the whole schedule).
	Time time.Duration
	// MaxPeriod caps the first period (0: defaultMaxPeriod, negative: no cap).
	MaxPeriod int
	// Neighbors is the candidate graph's quadrant neighbours a city (0: DefaultNeighbors).
	Neighbors int
	// Progress, when not nil, is called at most every ProgressInterval during the ascent.
	Progress func(Progress)

	// Device, when not nil, opens the accelerator that runs the ascent (gpu.BoundDevice).
	Device func() (Device, error)
	// Thorough makes the ascent converge further below ThoroughMaxN cities: LKH's short schedule suffices for
	// alpha-nearness, not for a bound a gap is measured against.
	Thorough bool
	// Boruvka makes the CPU ascent use Borůvka's algorithm on few cores and cities too, as the GPU does.
	Boruvka bool
}

// defaultMaxPeriod is the first period's cap for n cities (docs/DECISIONS.md#bound-max-period).
func defaultMaxPeriod(n int) int { return min(max(5_000_000/n, 100), 1000) }

// boruvkaMinN is the fewest cities whose ascent runs parallel Borůvka (docs/DECISIONS.md#boruvka-min-n).
const boruvkaMinN = 10_000

// sparseMST returns the ascent's 1-tree function on g and its degrees: Borůvka from four cores and boruvkaMinN cities
// while the keys fit, else Prim; quit abandons a tree.
func sparseMST(g *graph, pi []int64, boruvka bool, quit *atomic.Bool) (func([]int64) int64, []int32) {
	prim := newSparseTree(g)
	prim.quit = quit
	if !boruvka && (runtime.GOMAXPROCS(0) < 4 || len(pi) < boruvkaMinN) {
		return prim.run, prim.deg
	}
	bor := newSparseBoruvka(g)
	bor.quit = quit
	deg := make([]int32, len(pi))
	return func(pi []int64) int64 {
		if w, ok := bor.run(pi); ok {
			copy(deg, bor.deg)
			return w
		}
		w := prim.run(pi)
		copy(deg, prim.deg)
		return w
	}, deg
}

// ThoroughMaxN is the size from which Options.Thorough changes nothing.
const ThoroughMaxN = 1000

// A thorough ascent's least first period times n, and its candidates per city: within 0.1 % of the converged
// bound on 200 clustered cities where 10 candidates stay 0.5 % below.
const (
	thoroughWork      = 100_000
	thoroughNeighbors = 24
)

// neighbors is the candidates per city that opts ask for on n cities.
func (opts Options) neighbors(n int) int {
	switch {
	case opts.Neighbors > 0:
		return opts.Neighbors
	case opts.Thorough && n < ThoroughMaxN:
		return thoroughNeighbors
	}
	return DefaultNeighbors
}

// thorough reports whether opts.Thorough changes the ascent on n cities.
func (opts Options) thorough(n int) bool { return opts.Thorough && n < ThoroughMaxN }

// DefaultNeighbors is the candidate graph's quadrant neighbours a city by default.
const DefaultNeighbors = 10

// ProgressInterval is the least time between two Options.Progress calls.
const ProgressInterval = 100 * time.Millisecond

// Progress reports the ascent as it runs.
type Progress struct {
	Iteration int
	// Estimate is the best 1-tree bound on the candidate graph, unproven until evaluated.
	Estimate float64
	Elapsed  time.Duration
}

// Result is a proven lower bound and how it was found.
type Result struct {
	// Bound is a lower bound of every tour: the complete graph's minimum 1-tree under the best penalties.
	Bound int64
	// Estimate is the ascent's best bound on the candidate graph.
	Estimate float64
	// Iterations counts the minimum 1-trees computed by the ascent.
	Iterations int
	// Elapsed is the whole time; Evaluation the complete graph's part.
	Elapsed, Evaluation time.Duration
	// Optimal: the final 1-tree is a tour, so Bound is the optimum.
	Optimal bool
	// Device reports that the ascent ran on Options.Device.
	Device bool
	// Stopped: the time limit or context ended the ascent early.
	Stopped bool
	// Shared: the ascent was another caller's.
	Shared bool
	// Cached: the bound came from the user's cache, only Bound, Optimal and Stopped set.
	Cached bool
	// Pi holds the final penalties, in units of 1/Precision.
	Pi []int64

	in   *solver.Instance
	kd   *kdTree
	g    *graph
	tree *oneTree
}

// GapPercent returns how far length lies above the bound, in percent of it.
func (r Result) GapPercent(length int64) float64 {
	if r.Bound <= 0 {
		return 0
	}
	return 100 * float64(length-r.Bound) / float64(r.Bound)
}

// Compute returns the Held–Karp lower bound of in within Options.Time: out of time, the penalty-free 1-tree's bound
// with Stopped set, or an error wrapping context.DeadlineExceeded. Cancelling ctx abandons it (StopAscent ends early instead).
func Compute(ctx context.Context, in *solver.Instance, opts Options) (Result, error) {
	return compute(ctx, nil, in, opts)
}

// StopAscent is Compute where closing stop ends the computation with the best bound proven so far (an exact evaluation may
// run StopGrace more; else ErrStopped).
func StopAscent(ctx context.Context, stop <-chan struct{}, in *solver.Instance, opts Options) (Result, error) {
	return compute(ctx, stop, in, opts)
}

// UntilDone runs ascent with ctx's end as its stop, returning within StopGrace with the best bound by then.
func UntilDone(ctx context.Context, ascent func(context.Context, <-chan struct{}, *solver.Instance, Options) (Result, error), in *solver.Instance, opts Options) (Result, error) {
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			close(stop)
		case <-done:
		}
	}()
	defer close(done)
	return ascent(context.WithoutCancel(ctx), stop, in, opts)
}

// StopGrace is how long an exact evaluation may run after StopAscent's stop.
const StopGrace = 500 * time.Millisecond

// ErrStopped is StopAscent's error when stop came before any bound.
var ErrStopped = errors.New("bound: stopped before a first bound was proven")

func compute(ctx context.Context, stop <-chan struct{}, in *solver.Instance, opts Options) (Result, error) {
	if in == nil || in.N <= 0 {
		return Result{}, errors.New("bound: empty instance")
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	return computeOnce(ctx, stop, in, opts)
}

// computeOnce is compute's ascent and evaluations for one caller.
func computeOnce(ctx context.Context, stop <-chan struct{}, in *solver.Instance, opts Options) (Result, error) {
	start := time.Now()
	res := Result{in: in, Pi: make([]int64, in.N)}
	if in.N <= 3 { // one tour only
		return res.only(start), nil
	}
	opts.Neighbors = opts.neighbors(in.N)
	opts.Thorough = opts.thorough(in.N)
	hard, soft, release := phases(ctx, stop, start, opts.Time)
	defer release()
	c := &computation{ctx: ctx, stop: stop, opts: opts, start: start, hard: hard, soft: soft, res: res}
	if err := c.first(); err != nil {
		return Result{}, cutShort(ctx, stop, hard, opts.Time, err)
	}
	return c.improve()
}

// computation is one caller's bound: the penalty-free 1-tree, then the ascent and its exact evaluation.
type computation struct {
	ctx        context.Context
	stop       <-chan struct{}
	opts       Options
	start      time.Time
	hard, soft context.Context // see phases
	res        Result
	tree0      *oneTree
	evalCost   time.Duration
}

// first builds the k-d tree where the metric has one and evaluates the penalty-free 1-tree.
func (c *computation) first() error {
	in := c.res.in
	if euclidLike(in) {
		kd, err := neighbor.Await(c.hard, func() *kdTree { return newKDTree(in) })
		if err != nil {
			return err
		}
		c.res.kd = kd
	}
	t0 := time.Now()
	tree0, err := evaluate(c.hard, in, c.res.kd, nil, c.res.Pi)
	if err != nil {
		return err
	}
	c.tree0, c.evalCost = tree0, time.Since(t0)
	return nil
}

// improve runs the ascent and evaluates its best penalties on the complete graph (else the penalty-free bound).
func (c *computation) improve() (Result, error) {
	res, opts := &c.res, c.opts
	// No room for an ascent and a second evaluation.
	if c.soft.Err() != nil || opts.Time > 0 && time.Since(c.start)+2*c.evalCost >= opts.Time {
		return c.early()
	}
	var err error
	if res.g, err = buildGraph(c.soft, res.in, opts.Neighbors, c.tree0.parent); err != nil {
		return c.failed(c.soft, err)
	}
	halt := ascentHalt(c.soft, c.start, opts.Time, c.evalCost)
	dev, err := res.ascentDevice(c.soft, opts)
	if err != nil {
		return c.failed(c.soft, err)
	}
	best, iters, stopped, err := ascent(dev, res.g, res.Pi, opts, c.start, halt)
	if cerr := dev.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return Result{}, err
	}
	res.Iterations, res.Stopped = iters, stopped
	if iters <= 1 && stopped {
		return c.early()
	}
	res.Estimate = float64(best) / Precision
	t1 := time.Now()
	tree, err := evaluate(c.hard, res.in, res.kd, res.g, res.Pi)
	if err != nil {
		return c.failed(c.hard, err)
	}
	if c.tree0.weight > tree.weight {
		tree = c.tree0
		clear(res.Pi)
	}
	return finishResult(*res, tree, time.Since(t1)+c.evalCost, c.start), nil
}

// early returns the penalty-free 1-tree's bound.
func (c *computation) early() (Result, error) {
	if err := c.ctx.Err(); err != nil {
		return Result{}, err
	}
	c.res.Stopped = true
	c.res.Estimate = float64(c.tree0.weight) / Precision
	clear(c.res.Pi)
	return finishResult(c.res, c.tree0, c.evalCost, c.start), nil
}

// failed is early when phase ph ended, else err.
func (c *computation) failed(ph context.Context, err error) (Result, error) {
	if ph.Err() != nil {
		return c.early()
	}
	return Result{}, err
}

// phases makes a computation's contexts: hard ends every phase (ctx, the limit, StopGrace after stop), soft the phases
// that add nothing to a proven bound.
func phases(ctx context.Context, stop <-chan struct{}, start time.Time, limit time.Duration) (hard, soft context.Context, release func()) {
	hard, cancelHard := context.WithCancel(ctx)
	cancelDeadline := func() {}
	if limit > 0 {
		hard, cancelDeadline = context.WithDeadline(hard, start.Add(limit))
	}
	soft, cancelSoft := context.WithCancel(hard)
	finished := make(chan struct{})
	if isClosed(stop) { // now, not when the goroutine below gets to run
		cancelSoft()
	}
	if stop != nil {
		go func() {
			select {
			case <-stop:
			case <-finished:
				return
			}
			cancelSoft()
			t := time.NewTimer(StopGrace)
			defer t.Stop()
			select {
			case <-t.C:
				cancelHard()
			case <-finished:
			}
		}()
	}
	return hard, soft, func() {
		close(finished)
		cancelSoft()
		cancelDeadline()
		cancelHard()
	}
}

// cutShort is the error of a computation cut short before any bound.
func cutShort(ctx context.Context, stop <-chan struct{}, hard context.Context, limit time.Duration, err error) error {
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case isClosed(stop):
		return ErrStopped
	case hard.Err() != nil:
		return fmt.Errorf("bound: no bound within the time limit of %v: %w", limit, context.DeadlineExceeded)
	}
	return err
}

// ascentHalt ends the ascent when soft ends or only twice the first evaluation's cost (at least a tenth of the limit)
// is left: a late evaluation loses the whole ascent (docs/DECISIONS.md#ascent-halt).
func ascentHalt(soft context.Context, start time.Time, limit, evalCost time.Duration) func() bool {
	var deadline time.Time
	if limit > 0 {
		deadline = start.Add(limit - max(2*evalCost, limit/10))
	}
	return func() bool {
		return soft.Err() != nil || !deadline.IsZero() && time.Now().After(deadline)
	}
}

// only is the result for at most three cities, whose one tour is its own bound.
func (res Result) only(start time.Time) Result {
	res.Bound = solver.TourLength(res.in, solver.IdentityTour(res.in.N))
	res.Estimate = float64(res.Bound)
	res.Optimal = true
	res.Elapsed = time.Since(start)
	return res
}

// ascentDevice opens what runs the ascent's trees: opts' device, or the CPU's Borůvka, stopped when soft ends.
func (res *Result) ascentDevice(soft context.Context, opts Options) (Device, error) {
	if opts.Device != nil {
		dev, err := openDevice(soft, opts.Device)
		if err != nil {
			return nil, err
		}
		res.Device = true
		return dev, nil
	}
	quit := new(atomic.Bool)
	context.AfterFunc(soft, func() { quit.Store(true) })
	run, deg := sparseMST(res.g, res.Pi, opts.Boruvka, quit)
	n := len(res.Pi)
	return &cpuDevice{g: res.g, pi: make([]int64, n), bestPi: make([]int64, n), lastV: make([]int64, n), run: run, deg: deg}, nil
}

// isClosed reports whether c is closed (false for a nil channel).
func isClosed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// openDevice calls open, giving up when ctx ends first (a late device is closed).
func openDevice(ctx context.Context, open func() (Device, error)) (Device, error) {
	type opened struct {
		d   Device
		err error
	}
	ch := make(chan opened, 1)
	go func() {
		d, err := open()
		ch <- opened{d, err}
	}()
	select {
	case o := <-ch:
		return o.d, o.err
	case <-ctx.Done():
		go func() {
			if o := <-ch; o.err == nil {
				_ = o.d.Close()
			}
		}()
		return nil, ctx.Err()
	}
}

// finishResult fills in the bound of the evaluated 1-tree tree.
func finishResult(res Result, tree *oneTree, eval time.Duration, start time.Time) Result {
	res.tree = tree
	res.Bound = ceilDiv(tree.weight, Precision)
	res.Optimal = true
	for _, d := range tree.degree {
		if d != 2 {
			res.Optimal = false
			break
		}
	}
	res.Evaluation = eval
	res.Elapsed = time.Since(start)
	return res
}

// ceilDiv returns ⌈a/b⌉ for b > 0.
func ceilDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a > 0 {
		q++
	}
	return q
}

// Device runs the ascent's arithmetic on an accelerator (solver.AscentDevice).
type Device = solver.AscentDevice

// Graph is the candidate graph handed to a Device (solver.AscentGraph).
type Graph = solver.AscentGraph

// cpuDevice is the Device on the host's cores.
type cpuDevice struct {
	g      *graph
	pi     []int64
	bestPi []int64
	lastV  []int64
	run    func([]int64) int64
	deg    []int32
}

func (c *cpuDevice) tree() (int64, int64) {
	w := c.run(c.pi)
	var norm int64
	for _, d := range c.deg {
		v := int64(d) - 2
		norm += v * v
	}
	return w, norm
}

func (c *cpuDevice) Start(Graph) (int64, int64, error) {
	clear(c.pi)
	w, norm := c.tree()
	return w, norm, nil
}

func (c *cpuDevice) Step(t int64) (int64, int64, error) {
	for i, d := range c.deg {
		v := int64(d) - 2
		if v != 0 {
			c.pi[i] += t * (7*v + 3*c.lastV[i]) / 10
		}
		c.lastV[i] = v
	}
	w, norm := c.tree()
	return w, norm, nil
}

func (c *cpuDevice) KeepBest() error       { copy(c.bestPi, c.pi); return nil }
func (c *cpuDevice) Best(pi []int64) error { copy(pi, c.bestPi); return nil }
func (c *cpuDevice) Close() error          { return nil }

// ascent raises the penalties by LKH's rules, leaving the best 1-tree's in pi; it returns its weight minus 2·Σπ,
// the trees computed and whether halt ended it.
func ascent(dev Device, g *graph, pi []int64, opts Options, start time.Time, halt func() bool) (best int64, iters int, stopped bool, err error) {
	w, norm, err := dev.Start(g.export())
	if err != nil {
		return 0, 0, false, err
	}
	if halt() { // the first 1-tree may have been abandoned part-way
		return 0, 1, true, nil
	}
	if err := dev.KeepBest(); err != nil {
		return 0, 0, false, err
	}
	a := &ascender{dev: dev, opts: opts, start: start, halt: halt, best: w, iters: 1, norm: norm, lastReport: time.Now()}
	if stopped, err = a.periods(firstPeriod(len(pi), opts.MaxPeriod, opts.Thorough)); err != nil {
		return 0, a.iters, false, err
	}
	return a.best, a.iters, stopped, dev.Best(pi)
}

// firstPeriod is the ascent's first period: N/2, at least 100 (thorough: thoroughWork/n, up to 1000), capped by maxPeriod.
func firstPeriod(n, maxPeriod int, thorough bool) int {
	p := max(n/2, 100)
	if thorough {
		p = max(p, min(thoroughWork/n, 1000))
	}
	switch {
	case maxPeriod > 0:
		p = min(p, maxPeriod)
	case maxPeriod == 0:
		p = min(p, defaultMaxPeriod(n))
	}
	return p
}

// ascender is the state of an ascent between its steps.
type ascender struct {
	dev        Device
	opts       Options
	start      time.Time
	halt       func() bool
	best       int64 // the best 1-tree's weight minus 2·Σπ
	iters      int
	norm       int64 // the last 1-tree's Σ(d_i − 2)²
	lastReport time.Time
}

// periods runs LKH's step schedule from initialPeriod steps; it reports whether halt ended it.
func (a *ascender) periods(initialPeriod int) (stopped bool, err error) {
	period, t := initialPeriod, int64(Precision) // LKH's INITIAL_STEP_SIZE of 1
	initialPhase := true
	for ; period > 0 && t > 0 && a.norm != 0; period, t = period/2, t/2 {
		for p := 1; t > 0 && p <= period && a.norm != 0; p++ {
			improved, stop, err := a.step(t)
			if stop || err != nil {
				return stop, err
			}
			if improved {
				if initialPhase {
					t *= 2
				}
				if p == period {
					period = min(2*period, initialPeriod)
				}
			} else if initialPhase && p > period/2 {
				initialPhase = false
				p = 0
				t = 3 * t / 4
			}
		}
	}
	return false, nil
}

// step takes a step of size t: improved when its 1-tree beats the best.
func (a *ascender) step(t int64) (improved, stop bool, err error) {
	if a.halt() {
		return false, true, nil
	}
	w, norm, err := a.dev.Step(t)
	if err != nil {
		return false, false, err
	}
	a.norm = norm
	a.iters++
	if a.halt() { // this 1-tree may have been abandoned part-way
		return false, true, nil
	}
	if w <= a.best {
		return false, false, nil
	}
	a.best = w
	if err := a.dev.KeepBest(); err != nil {
		return false, false, err
	}
	if a.opts.Progress != nil && time.Since(a.lastReport) >= ProgressInterval {
		a.lastReport = time.Now()
		a.opts.Progress(Progress{Iteration: a.iters, Estimate: float64(a.best) / Precision, Elapsed: time.Since(a.start)})
	}
	return true, false, nil
}
