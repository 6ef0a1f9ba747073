package runctl

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// Workers is the run's workers: Params.Workers, or one per core.
func Workers(p solver.Params) int {
	if p.Workers > 0 {
		return p.Workers
	}
	return runtime.NumCPU()
}

// MaxSearches bounds an engine's workers, searches or parallel moves: more only slow a run down.
const MaxSearches = 1024

// SearchMemory is the memory the per-search state of one run may take.
const SearchMemory = 1 << 30

// SearchLimit returns how many searches of bytesPerCity fit in SearchMemory (1 to MaxSearches).
func SearchLimit(n, bytesPerCity int) int {
	per := bytesPerCity*max(n, 1) + 16<<10 // a goroutine's stack and bookkeeping
	return max(1, min(MaxSearches, SearchMemory/per))
}

// CountSearches returns asked (0: def) capped by SearchLimit; an explicit excess is an error.
func CountSearches(option string, asked, def, n, bytesPerCity int) (int, error) {
	limit := SearchLimit(n, bytesPerCity)
	if asked < 0 {
		return 0, fmt.Errorf("%s = %d: want a positive number", option, asked)
	}
	if asked == 0 {
		return min(def, limit), nil
	}
	if asked > limit {
		return 0, fmt.Errorf("%s = %d: at most %d for %d cities (each search keeps its own tour; together they may take %d MiB)", option, asked, limit, n, SearchMemory>>20)
	}
	return asked, nil
}

// DeviceName is the device line of a CPU run on w workers.
func DeviceName(w int) string {
	return "cpu: " + solver.Plural(int64(w), "worker") + " on " + solver.Plural(int64(runtime.NumCPU()), "core")
}

// To32 returns tour t as int32 cities.
func To32(t []int) []int32 {
	o := make([]int32, len(t))
	for i, c := range t {
		o[i] = int32(c)
	}
	return o
}

// ToInt returns tour t as int cities.
func ToInt(t []int32) []int {
	o := make([]int, len(t))
	for i, c := range t {
		o[i] = int(c)
	}
	return o
}

// CheckStart validates Params.Start against the instance and its fixed edges.
func CheckStart(in *solver.Instance, p solver.Params) error {
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

// RefuseFixed is the error of an engine that cannot keep fixed edges.
func RefuseFixed(in *solver.Instance, name string) error {
	if len(in.FixedEdges) == 0 {
		return nil
	}
	return fmt.Errorf("%s has %d fixed edges (FIXED_EDGES_SECTION) and %s does not keep them: use auto, 2opt-ils or 3opt-ils", in.Name, len(in.FixedEdges), name)
}

// Control is what the workers of one run share: the deadline, stop flags, best tour and move counters.
type Control struct {
	ctx      context.Context
	Start    time.Time // when the run began
	Deadline time.Time // the run's or phase's end: its context's deadline (solver.DeadlineOf); zero: none
	target   int64
	Stop     atomic.Bool // every worker stops at its next look
	Stopped  atomic.Bool // cancelled, out of time or target reached
	Optimal  atomic.Bool // a tour of length 0 was found: nothing is shorter
	Moves    []Counter   // each worker's moves evaluated

	mu      sync.Mutex
	sink    *solver.Sink
	Phase   solver.Phase // the phase the snapshots report (SetPhase)
	account *solver.Account
	Best    []int32      // the best tour offered (under the lock; Offer)
	BestLen atomic.Int64 // its length
}

// Counter is a worker's counter on its own cache line, so workers do not slow each other down.
type Counter struct {
	V atomic.Int64 // the count
	_ [56]byte
}

// NewControl returns the control of a run of p on nworkers workers begun at start.
func NewControl(ctx context.Context, p solver.Params, nworkers int, snaps chan solver.Snapshot, start time.Time) *Control {
	c := &Control{ctx: ctx, Start: start, target: p.Target, Moves: make([]Counter, nworkers)}
	c.Deadline = solver.DeadlineOf(ctx, start)
	c.sink = solver.NewSink(snaps, 0, start)
	c.BestLen.Store(math.MaxInt64)
	c.Phase = solver.PhaseSearch
	return c
}

// SetupContext returns a context ending with the run, for set-up steps.
func (c *Control) SetupContext() (context.Context, context.CancelFunc) {
	if c.Deadline.IsZero() {
		return context.WithCancel(c.ctx)
	}
	return context.WithDeadline(c.ctx, c.Deadline)
}

// SetPhase records the phase and says so at once, with the best tour once there is one.
func (c *Control) SetPhase(ph solver.Phase) {
	c.mu.Lock()
	c.Phase = ph
	if c.Best == nil {
		c.sink.SendPhase(ph, solver.UnknownProgress)
		c.mu.Unlock()
		return
	}
	c.mu.Unlock()
	c.Snapshot(nil, c.BestLen.Load(), 0, 0, 0)
}

// SetAccount records the run's account, which the snapshots carry from now on.
func (c *Control) SetAccount(a solver.Account) {
	c.mu.Lock()
	c.account = &a
	c.mu.Unlock()
}

// Heartbeat sends the best tour every interval until stopped, so set-up shows the run moving.
func (c *Control) Heartbeat(interval time.Duration) (stop func()) {
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
				c.Snapshot(nil, c.BestLen.Load(), 0, 0, 0)
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}

// Done reports whether the run must stop now, and records why.
func (c *Control) Done() bool {
	if c.Stop.Load() {
		return true
	}
	if c.ctx.Err() != nil || (!c.Deadline.IsZero() && !time.Now().Before(c.Deadline)) {
		c.Stopped.Store(true)
		c.Stop.Store(true)
		return true
	}
	return false
}

// TimeFrac is the fraction of the time budget spent (0 without one).
func (c *Control) TimeFrac() float64 {
	if c.Deadline.IsZero() {
		return 0
	}
	f := float64(time.Since(c.Start)) / float64(c.Deadline.Sub(c.Start))
	return min(max(f, 0), 1)
}

// Offer records a copy of t (length l) as the global best if better, stopping at the target.
func (c *Control) Offer(t []int32, l int64) {
	c.OfferFn(l, func(dst []int32) []int32 { return append(dst, t...) })
}

// Reached stops the run at the target or length 0 (no tour is shorter).
func (c *Control) Reached(l int64) {
	if c.target > 0 && l <= c.target {
		c.Stopped.Store(true)
		c.Stop.Store(true)
	}
	if l == 0 {
		c.Optimal.Store(true)
		c.Stop.Store(true)
	}
}

// OfferFn is Offer for a costly tour: build runs only when l improves the best.
func (c *Control) OfferFn(l int64, build func(dst []int32) []int32) {
	if l >= c.BestLen.Load() {
		return
	}
	c.mu.Lock()
	if l < c.BestLen.Load() {
		c.Best = build(c.Best[:0])
		c.BestLen.Store(l)
	}
	c.mu.Unlock()
	c.Reached(l)
}

// TotalMoves sums the workers' published move counters.
func (c *Control) TotalMoves() int64 { return SumCounters(c.Moves) }

// SumCounters sums per-worker counters.
func SumCounters(cs []Counter) int64 {
	var s int64
	for i := range cs {
		s += cs[i].V.Load()
	}
	return s
}

// SnapshotDue reports whether a snapshot should be built now.
func (c *Control) SnapshotDue() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sink.Due()
}

// Snapshot sends the current state; cur may be nil. It copies what it sends.
func (c *Control) Snapshot(cur []int32, curLen int64, step int64, frac, temp float64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := solver.Snapshot{
		Length:        curLen,
		Temperature:   temp,
		Step:          step,
		Progress:      max(frac, c.TimeFrac()),
		Moves:         c.TotalMoves(),
		Phase:         c.Phase,
		PhaseProgress: solver.UnknownProgress,
		Account:       c.account.Clone(),
	}
	if c.Phase == solver.PhaseSearch {
		s.PhaseProgress = s.Progress
	}
	if cur != nil {
		s.Tour = ToInt(cur)
	}
	if c.Best != nil {
		s.Best = ToInt(c.Best)
		s.BestLength = c.BestLen.Load()
	} else if cur != nil {
		s.Best = ToInt(cur)
		s.BestLength = curLen
	}
	c.sink.Send(s)
}

// Trivial handles fewer than 4 cities (every tour alike): the start tour or the identity.
func Trivial(in *solver.Instance, e solver.Engine, p solver.Params, snaps chan solver.Snapshot, start time.Time) (solver.Result, error) {
	t := p.Start
	if t == nil {
		t = solver.IdentityTour(in.N)
	}
	if in.N > 0 {
		sink := solver.NewSink(snaps, 0, start)
		l := solver.TourLength(in, t)
		sink.Send(solver.Snapshot{Tour: append([]int(nil), t...), Length: l, Best: append([]int(nil), t...), BestLength: l, Progress: 1})
	}
	return solver.Finish(in, e, p, solver.Outcome{Tour: t, Start: start, Device: DeviceName(Workers(p))})
}

// Identity is every CPU engine's registry identity: name, description, CPU, always available.
type Identity struct {
	ID, Desc string
}

// Name is the engine's name (solver.Engine).
func (b Identity) Name() string { return b.ID }

// Backend is solver.BackendCPU (solver.Engine).
func (b Identity) Backend() string { return solver.BackendCPU }

// Describe is the engine's description (solver.Engine).
func (b Identity) Describe() string { return b.Desc }

// Available is nil: a CPU engine always runs (solver.Engine).
func (b Identity) Available() error { return nil }

// ExactSmall solves fewer than 8 cities by enumeration, where local search has no room.
func ExactSmall(in *solver.Instance, e solver.Engine, p solver.Params, snaps chan solver.Snapshot, start time.Time) (solver.Result, error) {
	n := in.N
	if n < 4 {
		return Trivial(in, e, p, snaps, start)
	}
	perm := solver.IdentityTour(n)
	var best []int
	bestLen := int64(math.MaxInt64)
	var moves int64
	var rec func(k int)
	rec = func(k int) {
		if k == n {
			moves++
			if in.CheckFixedEdges(perm) != nil {
				return
			}
			if l := solver.TourLength(in, perm); l < bestLen {
				best = append(best[:0], perm...)
				bestLen = l
			}
			return
		}
		for i := k; i < n; i++ {
			perm[k], perm[i] = perm[i], perm[k]
			rec(k + 1)
			perm[k], perm[i] = perm[i], perm[k]
		}
	}
	rec(1)
	sink := solver.NewSink(snaps, 0, start)
	sink.Send(solver.Snapshot{Tour: append([]int(nil), best...), Length: bestLen, Best: append([]int(nil), best...), BestLength: bestLen, Progress: 1, Moves: moves})
	return solver.Finish(in, e, p, solver.Outcome{Tour: best, Moves: moves, Steps: 1, Start: start, Device: DeviceName(Workers(p))})
}

// Resume moves the run's deadline to d and lets its workers go on after a phase; false when the run is over or d passed.
func (c *Control) Resume(d time.Time) bool {
	c.Deadline = d
	if c.ctx.Err() != nil || c.Optimal.Load() || (c.target > 0 && c.BestLen.Load() <= c.target) ||
		(!d.IsZero() && !time.Now().Before(d)) {
		c.Stopped.Store(true)
		c.Stop.Store(true)
		return false
	}
	c.Stopped.Store(false)
	c.Stop.Store(false)
	return true
}
