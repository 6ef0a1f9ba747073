package app

import (
	"context"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// fakeEngine is a small 2-opt annealer for the tests: it honours Start,
// T0, K-free temperature steps, TimeLimit and ctx, sends snapshots through
// a Sink and records the Params of its last Solve.
type fakeEngine struct{ name string }

var (
	fakeMu     sync.Mutex
	fakeParams []solver.Params
)

func lastFakeParams() solver.Params {
	fakeMu.Lock()
	defer fakeMu.Unlock()
	if len(fakeParams) == 0 {
		return solver.Params{}
	}
	return fakeParams[len(fakeParams)-1]
}

func fakeCalls() int {
	fakeMu.Lock()
	defer fakeMu.Unlock()
	return len(fakeParams)
}

func init() {
	solver.Register(fakeEngine{"fake"})
	solver.Register(fakeEngine{"fake2"})
}

func (e fakeEngine) Name() string   { return e.name }
func (fakeEngine) Backend() string  { return solver.BackendCPU }
func (fakeEngine) Describe() string { return "test engine: random 2-opt annealing" }
func (fakeEngine) Available() error { return nil }
func (e fakeEngine) Solve(ctx context.Context, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot) (solver.Result, error) {
	fakeMu.Lock()
	fakeParams = append(fakeParams, p)
	fakeMu.Unlock()
	start := time.Now()
	sink := solver.NewSink(snaps, 5*time.Millisecond, start)
	tour := solver.IdentityTour(in.N)
	if len(p.Start) == in.N {
		copy(tour, p.Start)
	}
	rng := rand.New(rand.NewPCG(p.Seed, 7))
	if p.Start == nil {
		rng.Shuffle(len(tour), func(i, j int) { tour[i], tour[j] = tour[j], tour[i] })
	}
	length := solver.TourLength(in, tour)
	best := append([]int(nil), tour...)
	bestLen := length
	t := p.T0
	if t <= 0 {
		t = 100
	}
	limit := p.TimeLimit
	if limit <= 0 {
		limit = time.Second
	}
	var moves, steps int64
	stopped := false
	for steps < 100000 {
		if ctx.Err() != nil || time.Since(start) >= limit {
			stopped = true
			break
		}
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
			moves++
			if delta < 0 {
				for x, y := i+1, j; x < y; x, y = x+1, y-1 {
					tour[x], tour[y] = tour[y], tour[x]
				}
				length += delta
				if length < bestLen {
					bestLen = length
					copy(best, tour)
				}
			}
		}
		steps++
		t *= 0.95
		if sink.Due() {
			sink.Send(solver.Snapshot{
				Tour: append([]int(nil), tour...), Length: length,
				Best: append([]int(nil), best...), BestLength: bestLen,
				Temperature: t, Step: steps, Moves: moves,
				Progress: float64(time.Since(start)) / float64(limit),
			})
		}
		time.Sleep(200 * time.Microsecond)
	}
	return solver.Finish(in, e, p, best, moves, steps, start, stopped, "test")
}
