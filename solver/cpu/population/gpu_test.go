package population

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tsplab/tsplab/internal/runctl"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/enginetest"
	"github.com/tsplab/tsplab/solver/gen"
)

// twoOptPool is a solver.TourPool on the cores for the tests: each
// Improve makes first-improvement 2-opt moves that keep the instance's
// fixed edges on every tour until ctx ends or none is left.
type twoOptPool struct {
	in     *solver.Instance
	calls  atomic.Int64
	closed atomic.Bool
	called func() // after each call's count, when set
}

func (p *twoOptPool) Slots() int   { return 6 }
func (p *twoOptPool) Close() error { p.closed.Store(true); return nil }
func (p *twoOptPool) LastKicks() int64 {
	return 1
}

func (p *twoOptPool) Improve(ctx context.Context, tours [][]int32, _ int) ([]int64, error) {
	p.calls.Add(1)
	if p.called != nil {
		p.called()
	}
	lens := make([]int64, len(tours))
	for k, t := range tours {
		n := len(t)
		for improved := true; improved && ctx.Err() == nil; {
			improved = false
			for i := 0; i < n-2; i++ {
				for j := i + 2; j < n && (i > 0 || j < n-1); j++ {
					a, b, c, d := int(t[i]), int(t[i+1]), int(t[j]), int(t[(j+1)%n])
					if p.fixed(a, b) || p.fixed(c, d) {
						continue
					}
					if p.in.Dist(a, c)+p.in.Dist(b, d) < p.in.Dist(a, b)+p.in.Dist(c, d) {
						for l, r := i+1, j; l < r; l, r = l+1, r-1 {
							t[l], t[r] = t[r], t[l]
						}
						improved = true
					}
				}
			}
		}
		lens[k] = solver.TourLength(p.in, runctl.ToInt(t))
	}
	return lens, nil
}

// fixed reports whether the edge {a, b} is one of the instance's fixed
// edges.
func (p *twoOptPool) fixed(a, b int) bool {
	for _, e := range p.in.FixedEdges {
		if (e[0] == a && e[1] == b) || (e[0] == b && e[1] == a) {
			return true
		}
	}
	return false
}

// The feeder queues, per member, its slots' shortest tour when shorter
// than the member: valid tours of their stated length.
func TestFeederQueuesShorterTours(t *testing.T) {
	in := enginetest.Instance(60, 3)
	fake := &twoOptPool{in: in}
	f := newFeeder(func(*solver.Instance, uint64) (solver.TourPool, error) { return fake, nil }, in, 1, 20*time.Millisecond)
	pool := NewPool(3, in.N)
	r := rand.New(rand.NewPCG(2, 2))
	seedLens := map[int64]bool{}
	for pool.Len() < 3 {
		tr := perm(in.N, r)
		l := solver.TourLength(in, runctl.ToInt(tr))
		if pool.Offer(tr, l) {
			seedLens[l] = true
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	go f.run(ctx)
	f.publish(pool)
	deadline := time.Now().Add(10 * time.Second)
	var got []gpuTour
	for len(got) < 3 && time.Now().Before(deadline) {
		got = append(got, f.take()...)
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	<-f.done
	if !fake.closed.Load() {
		t.Error("the pool was not closed")
	}
	if len(got) < 3 {
		t.Fatalf("%d tours queued, want one a member", len(got))
	}
	worst := int64(0)
	for l := range seedLens {
		worst = max(worst, l)
	}
	for _, g := range got {
		if err := solver.ValidateTour(runctl.ToInt(g.tour), in.N); err != nil {
			t.Fatal(err)
		}
		if l := solver.TourLength(in, runctl.ToInt(g.tour)); l != g.length || l >= worst {
			t.Fatalf("queued tour of length %d (stated %d), the longest member %d", l, g.length, worst)
		}
	}
	if _, calls, improved, kicks, err := f.stats(); calls == 0 || improved == 0 || kicks != int64(calls) || err != nil {
		t.Fatalf("calls %d, improved %d, kicks %d, err %v", calls, improved, kicks, err)
	}
}

// With a pool GPU pop's run of the search (Solve, which takes the GPU's
// rounds, gpuround) runs it beside the workers and says so, on an
// instance with fixed edges too; a pool that refuses the instance or a
// kicks budget leave the cores alone, with the reason in the account.
func TestEngineWithTourPool(t *testing.T) {
	if testing.Short() {
		t.Skip("a second of search")
	}
	in, err := gen.Generate("uniform", 400, 5)
	if err != nil {
		t.Fatal(err)
	}
	fake := &twoOptPool{in: in}
	open := func(*solver.Instance, uint64) (solver.TourPool, error) { return fake, nil }
	p := solver.Params{Seed: 1, Workers: 2, TimeLimit: time.Second, Config: func(o *Config) { o.Pool, o.GPURound, o.GA = 4, 50, 0 }}
	// no EAX population: the GPU's rounds start with the pool's rounds
	// after the first tours' share of the time; a longer run, ended once
	// the pool has been called, so that a slow host reaches the call too
	long := p
	long.TimeLimit = 5 * time.Second
	ctx, cancel := solver.WithTimeLimit(context.Background(), long.TimeLimit)
	defer cancel()
	fake.called = cancel
	// GPU pop's entry, whose options hold gpuround; the run's clock is ctx
	res, err := Solve(ctx, in, long, nil, solver.Aid{Pool: open})
	fake.called = nil
	if err != nil {
		t.Fatal(err)
	}
	if g := res.Account.GPU; fake.calls.Load() == 0 || g == nil || g.Rounds == 0 || g.TourSlots != fake.Slots() || !fake.closed.Load() {
		t.Fatalf("%d calls, closed %v, GPU account %+v", fake.calls.Load(), fake.closed.Load(), g)
	}
	refuse := func(in *solver.Instance, _ uint64) (solver.TourPool, error) {
		return nil, fmt.Errorf("%w: test", solver.ErrNoTourPool)
	}
	res, err = solveTimed(in, p, nil, solver.Aid{Pool: refuse})
	if err != nil || res.Account.GPU == nil || res.Account.GPU.NoPool != solver.NoPoolInstance {
		t.Fatalf("refused: %v, account %+v", err, res.Account.GPU)
	}
	fixed := *in
	fixed.FixedEdges = [][2]int{{0, 1}}
	keeping := &twoOptPool{in: &fixed}
	res, err = solveTimed(&fixed, p, nil, solver.Aid{Pool: func(*solver.Instance, uint64) (solver.TourPool, error) { return keeping, nil }})
	if g := res.Account.GPU; err != nil || g == nil || g.NoPool != "" || g.Rounds == 0 {
		t.Fatalf("fixed edges: %v, account %+v", err, g)
	}
	if err := fixed.CheckFixedEdges(res.Tour); err != nil {
		t.Fatal(err)
	}
	failing := func(*solver.Instance, uint64) (solver.TourPool, error) { return nil, errors.New("device lost") }
	res, err = solveTimed(in, p, nil, solver.Aid{Pool: failing})
	if err != nil || len(res.Account.Warnings) != 1 || !strings.Contains(res.Account.Warnings[0], "device lost") {
		t.Fatalf("failing: %v, warnings %q", err, res.Account.Warnings)
	}
}

// With a pool, each EAX population takes a tour of every slot beside the
// cores' descents, searched by the pool until the population's share of
// the time ends.
func TestEAXTakesGPUMembers(t *testing.T) {
	if testing.Short() {
		t.Skip("a second of search")
	}
	in, err := gen.Generate("uniform", 300, 8)
	if err != nil {
		t.Fatal(err)
	}
	fake := &twoOptPool{in: in}
	open := func(*solver.Instance, uint64) (solver.TourPool, error) { return fake, nil }
	p := solver.Params{Seed: 2, Workers: 2, TimeLimit: time.Second, Config: func(o *Config) { o.GA = 10 }}
	res, err := solver.RunAided(context.Background(), engine{}, in, p, nil, solver.Aid{Pool: open}, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := solver.ValidateTour(res.Tour, in.N); err != nil {
		t.Fatal(err)
	}
	if e := res.Account.EAX; e == nil || e.FromGPU < fake.Slots() {
		t.Fatalf("EAX account %+v, want at least %d members from the GPU", e, fake.Slots())
	}
	// no pool: the cores' descents alone
	res, err = solver.RunAided(context.Background(), engine{}, in, p, nil, solver.Aid{}, false)
	if e := res.Account.EAX; err != nil || e == nil || e.FromGPU != 0 {
		t.Fatalf("%v, EAX account %+v", err, e)
	}
}

// A run by a kicks budget with a pool is the run without one.
func TestBudgetRunIgnoresPool(t *testing.T) {
	in, err := gen.Generate("uniform", 200, 6)
	if err != nil {
		t.Fatal(err)
	}
	p := solver.Params{Seed: 3, Workers: 2, Config: func(o *Config) { o.Kicks, o.Rounds, o.Pool = 30, 4, 3 }}
	a, err := engine{}.Solve(context.Background(), in, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	fake := &twoOptPool{in: in}
	b, err := engine{}.SolveAided(context.Background(), in, p, nil, solver.Aid{Pool: func(*solver.Instance, uint64) (solver.TourPool, error) { return fake, nil }})
	if err != nil {
		t.Fatal(err)
	}
	if a.Length != b.Length || fake.calls.Load() != 0 || b.Account.GPU == nil || b.Account.GPU.NoPool != solver.NoPoolKicks {
		t.Fatalf("lengths %d and %d, %d calls, account %+v", a.Length, b.Length, fake.calls.Load(), b.Account.GPU)
	}
}

// FromGPU counts the members a pool's tours came in as, replaced or not.
func TestPoolCountsGPUMembers(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	p := NewPool(2, 40)
	p.OfferFrom(perm(40, r), 100, true)
	p.Offer(perm(40, r), 90)
	if p.FromGPU() != 1 {
		t.Fatalf("%d from the GPU, want 1", p.FromGPU())
	}
	for k := 0; k < 50 && p.FromGPU() == 1; k++ {
		p.Offer(perm(40, r), 50)
	}
	if p.FromGPU() != 0 {
		t.Fatal("a shorter tour from the cores replaced no GPU member")
	}
}

// solveTimed runs GPU pop's entry (Solve, whose options hold gpuround) with
// p's time limit as its context's deadline, as the pipeline gives it.
func solveTimed(in *solver.Instance, p solver.Params, snaps chan solver.Snapshot, aid solver.Aid) (solver.Result, error) {
	ctx, cancel := solver.WithTimeLimit(context.Background(), p.TimeLimit)
	defer cancel()
	return Solve(ctx, in, p, snaps, aid)
}

// The accelerator's members are bounded by the limit and n², and on fewer than gpuMembersWorkers workers by their
// share: a population of 18,512 cities in 10 s takes 116 on 16 workers or more, 29 on 4.
func TestGPUMembersShareOfWorkers(t *testing.T) {
	for _, c := range []struct {
		n, w  int
		limit time.Duration
		want  int
	}{
		{18512, 16, 10 * time.Second, 116},
		{18512, 32, 10 * time.Second, 116},
		{18512, 4, 10 * time.Second, 29},
		{18512, 4, 20 * time.Second, 58},
		{5000, 1, 10 * time.Second, 100},
		{5000, 0, 10 * time.Second, 0},
	} {
		if got := gpuMembers(c.n, c.w, c.limit); got != c.want {
			t.Errorf("%d cities, %d workers, %v: %d members, want %d", c.n, c.w, c.limit, got, c.want)
		}
	}
}
