// Package fakeengine is a small solver engine for the front ends' tests:
// a random 2-opt annealer that honours Start, t0 and the context (its
// deadline), sends snapshots through a Sink (with phases) and records the
// Params of every Solve. Tests register it under names of their own, so
// the app's and the session's tests never depend on the real engines.
package fakeengine

import (
	"context"
	"math/rand/v2"
	"strconv"
	"sync"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// Engine is the fake annealer. The zero Backend is the CPU.
type Engine struct {
	Algo string // registry name
	On   string // backend: solver.BackendCPU or solver.BackendGPU
	// Unavailable, when not nil, is what Available returns.
	Unavailable error
	// Schedule, when set, has the result report the schedule, as the annealers do.
	Schedule bool
	// SetupDelay is spent in the start-tour phase before the first tour, as building candidate lists would.
	SetupDelay time.Duration
	// Account, when set, is the result's and every search snapshot's account.
	Account *solver.Account
}

var (
	mu    sync.Mutex
	calls []solver.Params
)

// Register registers each engine; one without declared options takes the shared ones.
func Register(es ...Engine) {
	for _, e := range es {
		solver.Register(e)
		if !solver.HasOptionTable(e.Name(), e.Backend()) {
			solver.Declare(e.Name(), e.Backend(), solver.SharedOptions())
		}
	}
}

// LastParams returns the Params of the newest Solve of any fake engine.
func LastParams() solver.Params {
	mu.Lock()
	defer mu.Unlock()
	if len(calls) == 0 {
		return solver.Params{}
	}
	return calls[len(calls)-1]
}

// Calls returns how many Solves the fake engines have begun.
func Calls() int {
	mu.Lock()
	defer mu.Unlock()
	return len(calls)
}

// Name returns the registry name.
func (e Engine) Name() string { return e.Algo }

// Backend returns the backend the engine claims to run on.
func (e Engine) Backend() string {
	if e.On == "" {
		return solver.BackendCPU
	}
	return e.On
}

// Describe says what the engine is.
func (Engine) Describe() string { return "test engine: random 2-opt annealing" }

// Available returns Unavailable.
func (e Engine) Available() error { return e.Unavailable }

// Solve anneals with random 2-opt moves for 100,000 steps, until ctx's deadline (1 s by default) or end.
func (e Engine) Solve(ctx context.Context, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot) (solver.Result, error) {
	mu.Lock()
	calls = append(calls, p)
	mu.Unlock()
	start := time.Now()
	sink := solver.NewSink(snaps, 5*time.Millisecond, start)
	limit := solver.LeftOf(ctx, start)
	if limit <= 0 {
		limit = time.Second
	}
	tour := solver.IdentityTour(in.N)
	if len(p.Start) == in.N {
		copy(tour, p.Start)
	}
	rng := rand.New(rand.NewPCG(p.Seed, 7))
	if p.Start == nil {
		rng.Shuffle(len(tour), func(i, j int) { tour[i], tour[j] = tour[j], tour[i] })
	}
	if e.SetupDelay > 0 {
		if stopped := e.setup(ctx, sink, start, limit); stopped {
			return solver.Finish(in, e, p, solver.Outcome{Tour: tour, Start: start, Stopped: true, Device: "test"})
		}
	}
	st := &fakeRun{in: in, tour: tour, length: solver.TourLength(in, tour), best: append([]int(nil), tour...)}
	st.bestLen = st.length
	t, _ := strconv.ParseFloat(p.Extra["t0"], 64)
	if t <= 0 {
		t = 100
	}
	t0 := t
	var steps int64
	stopped := false
	for steps < 100000 {
		if ctx.Err() != nil || time.Since(start) >= limit {
			stopped = true
			break
		}
		st.sweep(rng)
		steps++
		t *= 0.95
		if sink.Due() {
			sink.Send(solver.Snapshot{
				Tour: append([]int(nil), st.tour...), Length: st.length,
				Best: append([]int(nil), st.best...), BestLength: st.bestLen,
				Temperature: t, Step: steps, Moves: st.moves,
				Progress: float64(time.Since(start)) / float64(limit),
				Phase:    solver.PhaseSearch, PhaseProgress: solver.UnknownProgress,
				Account: e.Account.Clone(),
			})
		}
		time.Sleep(200 * time.Microsecond)
	}
	res, err := solver.Finish(in, e, p, solver.Outcome{Tour: st.best, Moves: st.moves, Steps: steps, Start: start, Stopped: stopped, Device: "test"})
	res.Account = e.result()
	if e.Schedule {
		res.Schedule = &solver.ScheduleRun{T0: t0, TEnd: 1, LamAlpha: 0.99, Alpha0: 0.99, Alpha: 0.99, Steps: steps, Sweeps: 1}
	}
	return res, err
}

// fakeRun is one fake run's state.
type fakeRun struct {
	in              *solver.Instance
	tour, best      []int
	length, bestLen int64
	moves           int64
}

// sweep tries 200 random 2-opt moves and applies the improving ones.
func (st *fakeRun) sweep(rng *rand.Rand) {
	in, tour := st.in, st.tour
	for m := 0; m < 200; m++ {
		i, j := rng.IntN(in.N), rng.IntN(in.N)
		if i > j {
			i, j = j, i
		}
		if j-i < 2 || (i == 0 && j == in.N-1) {
			continue
		}
		a, b, c, d := tour[i], tour[i+1], tour[j], tour[(j+1)%in.N]
		delta := in.Dist(a, c) + in.Dist(b, d) - in.Dist(a, b) - in.Dist(c, d)
		st.moves++
		if delta < 0 {
			for x, y := i+1, j; x < y; x, y = x+1, y-1 {
				tour[x], tour[y] = tour[y], tour[x]
			}
			st.length += delta
			if st.length < st.bestLen {
				st.bestLen = st.length
				copy(st.best, tour)
			}
		}
	}
}

// setup spends SetupDelay in the start-tour phase; it reports whether ctx or the time limit ended it.
func (e Engine) setup(ctx context.Context, sink *solver.Sink, start time.Time, limit time.Duration) bool {
	for {
		el := time.Since(start)
		if ctx.Err() != nil || el >= limit {
			return true
		}
		if el >= e.SetupDelay {
			return false
		}
		if sink.Due() {
			sink.SendPhase(solver.PhaseStart, float64(el)/float64(e.SetupDelay))
		}
		time.Sleep(time.Millisecond)
	}
}

// result is the account of the engine's result (none when not set).
func (e Engine) result() solver.Account {
	if e.Account == nil {
		return solver.Account{}
	}
	return *e.Account.Clone()
}
