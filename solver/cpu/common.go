package cpu

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/cpu/internal/runctl"
	"github.com/tsplab/tsplab/solver/cpu/localsearch"
)

// checkEvery is how many moves a worker makes between looks at the clock,
// the context, the target and the snapshot sink.
const checkEvery = runctl.CheckEvery

// DefaultTimeLimit is the time budget of the engines without a natural
// end when Params.TimeLimit is 0.
const DefaultTimeLimit = solver.DefaultTimeLimit

// rng is a worker's private PCG stream.
type rng = runctl.Rand

// splitmix64 scrambles seeds so that neighbouring seeds and stream indices
// give unrelated streams.
func splitmix64(x uint64) uint64 { return runctl.Mix(x) }

// newRNG returns stream number stream of seed.
func newRNG(seed uint64, stream uint64) *rng { return runctl.NewRand(seed, stream) }

func workers(p solver.Params) int {
	if p.Workers > 0 {
		return p.Workers
	}
	return runtime.NumCPU()
}

// maxSearches bounds the workers, searches or parallel moves an engine
// accepts: more only slow a run down.
const maxSearches = 1024

// searchMemory is the memory the per-search state of one run may take.
const searchMemory = 1 << 30

// searchLimit returns how many searches of bytesPerCity bytes per city fit
// in searchMemory for n cities, at least 1 and at most maxSearches.
func searchLimit(n, bytesPerCity int) int {
	per := bytesPerCity*max(n, 1) + 16<<10 // a goroutine's stack and bookkeeping
	return max(1, min(maxSearches, searchMemory/per))
}

// countSearches returns the parallel searches to run: asked (0: def)
// capped by searchLimit, an explicit value above it being an error.
func countSearches(option string, asked, def, n, bytesPerCity int) (int, error) {
	limit := searchLimit(n, bytesPerCity)
	if asked < 0 {
		return 0, fmt.Errorf("%s = %d: want a positive number", option, asked)
	}
	if asked == 0 {
		return min(def, limit), nil
	}
	if asked > limit {
		return 0, fmt.Errorf("%s = %d: at most %d for %d cities (each search keeps its own tour; together they may take %d MiB)", option, asked, limit, n, searchMemory>>20)
	}
	return asked, nil
}

func deviceName(w int) string {
	return fmt.Sprintf("cpu: %d workers on %d cores", w, runtime.NumCPU())
}

func to32(t []int) []int32 {
	o := make([]int32, len(t))
	for i, c := range t {
		o[i] = int32(c)
	}
	return o
}

func toInt(t []int32) []int {
	o := make([]int, len(t))
	for i, c := range t {
		o[i] = int(c)
	}
	return o
}

// checkStart validates Params.Start against the instance, its fixed
// edges included.
func checkStart(in *solver.Instance, p solver.Params) error {
	if p.Start == nil {
		return nil
	}
	if err := solver.ValidateTour(p.Start, in.N); err != nil {
		return fmt.Errorf("start tour: %v", err)
	}
	if err := in.CheckFixedEdges(p.Start); err != nil {
		return fmt.Errorf("start tour: %v", err)
	}
	return nil
}

// refuseFixed is the error of an engine that cannot keep fixed edges in
// its tours, for an instance that has some.
func refuseFixed(in *solver.Instance, name string) error {
	if len(in.FixedEdges) == 0 {
		return nil
	}
	return fmt.Errorf("%s has %d fixed edges (FIXED_EDGES_SECTION) and %s does not keep them: use auto, 2opt-ils or 3opt-ils", in.Name, len(in.FixedEdges), name)
}

// control is what the workers of one run share, looked at every
// checkEvery moves.
type control struct {
	ctx      context.Context
	start    time.Time
	deadline time.Time // zero: none
	target   int64
	stop     atomic.Bool
	stopped  atomic.Bool // cancelled, out of time or target reached
	optimal  atomic.Bool // a tour of length 0 was found: nothing is shorter
	moves    []paddedCounter

	mu      sync.Mutex
	sink    *solver.Sink
	phase   solver.Phase
	best    []int32
	bestLen atomic.Int64
}

// paddedCounter is a worker's counter on a cache line of its own, so
// workers publishing counts do not slow each other down.
type paddedCounter struct {
	v atomic.Int64
	_ [56]byte
}

func newControl(ctx context.Context, p solver.Params, nworkers int, snaps chan solver.Snapshot, start time.Time) *control {
	c := &control{ctx: ctx, start: start, target: p.Target, moves: make([]paddedCounter, nworkers)}
	if p.TimeLimit > 0 {
		c.deadline = start.Add(p.TimeLimit)
	}
	c.sink = solver.NewSink(snaps, 0, start)
	c.bestLen.Store(math.MaxInt64)
	c.phase = solver.PhaseSearch
	return c
}

// setupContext returns a context that ends with the run, for set-up
// steps to give up in time.
func (c *control) setupContext() (context.Context, context.CancelFunc) {
	if c.deadline.IsZero() {
		return context.WithCancel(c.ctx)
	}
	return context.WithDeadline(c.ctx, c.deadline)
}

// setPhase records the phase and says so at once, with the best tour
// once one exists (never a phase-only snapshot read as length 0).
func (c *control) setPhase(ph solver.Phase) {
	c.mu.Lock()
	c.phase = ph
	if c.best == nil {
		c.sink.SendPhase(ph, solver.UnknownProgress)
		c.mu.Unlock()
		return
	}
	c.mu.Unlock()
	c.snapshot(nil, c.bestLen.Load(), 0, 0, 0)
}

// heartbeat sends a snapshot of the best tour every interval until the
// returned function is called, so that set-up steps show the run moving.
func (c *control) heartbeat(interval time.Duration) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		tk := time.NewTicker(interval)
		defer tk.Stop()
		for {
			select {
			case <-done:
				return
			case <-tk.C:
				c.snapshot(nil, c.bestLen.Load(), 0, 0, 0)
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}

// done reports whether the run must stop now (cancelled, out of time,
// target reached or another worker said so) and records why.
func (c *control) done() bool {
	if c.stop.Load() {
		return true
	}
	if c.ctx.Err() != nil || (!c.deadline.IsZero() && !time.Now().Before(c.deadline)) {
		c.stopped.Store(true)
		c.stop.Store(true)
		return true
	}
	return false
}

// timeFrac is the fraction of the time budget spent (0 without one).
func (c *control) timeFrac() float64 {
	if c.deadline.IsZero() {
		return 0
	}
	f := float64(time.Since(c.start)) / float64(c.deadline.Sub(c.start))
	return min(max(f, 0), 1)
}

// offer records t (length l) as the global best if it is better. It
// copies t. It stops the run when the target is reached.
func (c *control) offer(t []int32, l int64) {
	if l >= c.bestLen.Load() {
		return
	}
	c.mu.Lock()
	if l < c.bestLen.Load() {
		c.best = append(c.best[:0], t...)
		c.bestLen.Store(l)
	}
	c.mu.Unlock()
	c.reached(l)
}

// reached stops the run when a tour of length l ends it: the target, or
// length 0, which no tour can beat (TSPLIB distances are not negative).
func (c *control) reached(l int64) {
	if c.target > 0 && l <= c.target {
		c.stopped.Store(true)
		c.stop.Store(true)
	}
	if l == 0 {
		c.optimal.Store(true)
		c.stop.Store(true)
	}
}

// offerFn is offer for a tour that is costly to build: build is called
// only when l improves the global best.
func (c *control) offerFn(l int64, build func(dst []int32) []int32) {
	if l >= c.bestLen.Load() {
		return
	}
	c.mu.Lock()
	if l < c.bestLen.Load() {
		c.best = build(c.best[:0])
		c.bestLen.Store(l)
	}
	c.mu.Unlock()
	c.reached(l)
}

// totalMoves sums the workers' published move counters.
func (c *control) totalMoves() int64 { return sumCounters(c.moves) }

// sumCounters sums per-worker counters.
func sumCounters(cs []paddedCounter) int64 {
	var s int64
	for i := range cs {
		s += cs[i].v.Load()
	}
	return s
}

// snapshotDue reports whether a snapshot should be built now.
func (c *control) snapshotDue() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sink.Due()
}

// snapshot sends the current state; cur may be nil. It copies what it sends.
func (c *control) snapshot(cur []int32, curLen int64, step int64, frac, temp float64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := solver.Snapshot{
		Length:        curLen,
		Temperature:   temp,
		Step:          step,
		Progress:      max(frac, c.timeFrac()),
		Moves:         c.totalMoves(),
		Phase:         c.phase,
		PhaseProgress: solver.UnknownProgress,
	}
	if c.phase == solver.PhaseSearch {
		s.PhaseProgress = s.Progress
	}
	if cur != nil {
		s.Tour = toInt(cur)
	}
	if c.best != nil {
		s.Best = toInt(c.best)
		s.BestLength = c.bestLen.Load()
	} else if cur != nil {
		s.Best = toInt(cur)
		s.BestLength = curLen
	}
	c.sink.Send(s)
}

// trivial handles instances with fewer than 4 cities, where every tour has
// the same length: it returns the start tour or the identity.
func trivial(in *solver.Instance, e solver.Engine, p solver.Params, snaps chan solver.Snapshot, start time.Time) (solver.Result, error) {
	t := p.Start
	if t == nil {
		t = solver.IdentityTour(in.N)
	}
	if in.N > 0 {
		sink := solver.NewSink(snaps, 0, start)
		l := solver.TourLength(in, t)
		sink.Send(solver.Snapshot{Tour: append([]int(nil), t...), Length: l, Best: append([]int(nil), t...), BestLength: l, Progress: 1})
	}
	return solver.Finish(in, e, p, solver.Outcome{Tour: t, Start: start, Device: deviceName(workers(p))})
}

// baseEngine carries the registry identity shared by every CPU engine.
type baseEngine struct {
	name, desc string
}

func (b baseEngine) Name() string     { return b.name }
func (b baseEngine) Backend() string  { return solver.BackendCPU }
func (b baseEngine) Describe() string { return b.desc }
func (b baseEngine) Available() error { return nil }

// The local-search core's names as this package's engines use them.
type (
	ls      = localsearch.Search
	kopt    = localsearch.FiveOpt
	moveSet = localsearch.MoveSet
)

var (
	newLS   = localsearch.New
	newKopt = localsearch.NewFiveOpt
	nbDists = localsearch.NeighborDists
)

const maxDepth = localsearch.MaxDepth
