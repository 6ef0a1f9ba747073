package population_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/cpu/population"
	"github.com/tsplab/tsplab/solver/enginetest"
	"github.com/tsplab/tsplab/solver/gen"
)

// budget ends a run by rounds of short local searches, not by time.
func budget(seed uint64) solver.Params {
	return solver.Params{Seed: seed, Workers: 2, Config: func(o *population.Config) { o.Kicks, o.Rounds, o.Pool = 40, 6, 4 }}
}

func TestContract(t *testing.T) {
	e, err := solver.Lookup("pop", solver.BackendCPU)
	if err != nil {
		t.Fatal(err)
	}
	enginetest.Run(t, e, enginetest.Config{
		Budget: func(solver.Engine) solver.Params { return budget(1) },
		Open:   func(solver.Engine) solver.Params { return solver.Params{Workers: 2} },
	})
}

// A run by a kicks budget is the same run twice, and its note names the
// pool.
func TestDeterministicByBudget(t *testing.T) {
	in, err := gen.Generate("uniform", 300, 4)
	if err != nil {
		t.Fatal(err)
	}
	e, _ := solver.Lookup("pop", solver.BackendCPU)
	var tours [][]int
	for k := 0; k < 2; k++ {
		res, err := e.Solve(context.Background(), in, budget(7), nil)
		if err != nil {
			t.Fatal(err)
		}
		if pl := res.Account.Pool; pl == nil || pl.Tours != 4 || pl.Capacity != 4 || pl.Crossovers == 0 {
			t.Errorf("account %+v does not describe the pool", pl)
		}
		tours = append(tours, res.Tour)
	}
	if !slices.Equal(tours[0], tours[1]) {
		t.Fatal("the same seed and budget gave two tours")
	}
}

// Tiny instances: a tour of every size, the optimum where it is one of a
// few.
func TestTinyInstances(t *testing.T) {
	e, _ := solver.Lookup("pop", solver.BackendCPU)
	for _, n := range []int{1, 2, 3, 5, 7, 8, 12} {
		in := enginetest.Instance(n, uint64(n))
		res, err := e.Solve(context.Background(), in, budget(1), nil)
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		if err := solver.ValidateTour(res.Tour, n); err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
	}
}

// The local search keeps the fixed edges of a larger instance and
// improves on the identity tour, on two seeds.
func TestLocalSearchesOnAThousandCities(t *testing.T) {
	if testing.Short() {
		t.Skip("a second of search")
	}
	in, err := gen.Generate("uniform", 1200, 9)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 100; i += 7 {
		in.FixedEdges = append(in.FixedEdges, [2]int{i, i + 3})
	}
	e, _ := solver.Lookup("pop", solver.BackendCPU)
	for _, seed := range []uint64{2, 3} {
		// the time limit bounds the run under the race detector too
		p := solver.Params{Seed: seed, Workers: 2, TimeLimit: 3 * time.Second, Config: func(o *population.Config) { o.Kicks, o.Rounds, o.Pool = 100, 4, 3 }}
		res, err := solver.RunAided(context.Background(), e, in, p, nil, solver.Aid{}, false)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if err := in.CheckFixedEdges(res.Tour); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if g := solver.TourLength(in, solver.IdentityTour(in.N)); res.Length >= g/5 {
			t.Errorf("seed %d: %d, not far below the identity tour's %d", seed, res.Length, g)
		}
	}
}

// A timed run shows its workers' best tour while its first round goes on:
// with init=1 and a pool of two the first round is the whole run, yet a
// tour arrives in it, a valid one of the length it reports.
func TestShowsBestDuringRound(t *testing.T) {
	in, err := gen.Generate("uniform", 1200, 5)
	if err != nil {
		t.Fatal(err)
	}
	e, _ := solver.Lookup("pop", solver.BackendCPU)
	// a long limit, ended once a tour is shown, so that a slow host
	// shows it early too
	p := solver.Params{Seed: 1, Workers: 2, TimeLimit: time.Minute, Config: func(o *population.Config) { o.Pool, o.Init, o.GA = 2, 1, 0 }}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	snaps := make(chan solver.Snapshot, 64)
	var early *solver.Snapshot
	done := make(chan struct{})
	go func() {
		defer close(done)
		for s := range snaps {
			if s.Best != nil && early == nil && s.Progress < 0.75 {
				s := s
				early = &s
				cancel()
			}
		}
	}()
	res, err := solver.RunAided(ctx, e, in, p, snaps, solver.Aid{}, false)
	close(snaps)
	<-done
	if err != nil {
		t.Fatal(err)
	}
	if pl := res.Account.Pool; pl == nil || pl.NewTours != 2 || pl.Crossovers != 0 {
		t.Fatalf("pool %+v: the run was not one round", pl)
	}
	if early == nil {
		t.Fatal("no tour shown in the first three quarters of a one-round run of a minute")
	}
	if err := solver.ValidateTour(early.Best, in.N); err != nil {
		t.Fatal(err)
	}
	if l := solver.TourLength(in, early.Best); l != early.BestLength {
		t.Fatalf("shown length %d, the tour's %d", early.BestLength, l)
	}
}

// The engine's contract holds with the EAX population too (fixed edges,
// stops, tiny instances).
func TestContractEvolve(t *testing.T) {
	e, _ := solver.Lookup("pop", solver.BackendCPU)
	withGA := func(p solver.Params) solver.Params {
		set, _ := p.Config.(func(*population.Config))
		p.Config = func(o *population.Config) {
			if set != nil {
				set(o)
			}
			o.GA = 6
		}
		return p
	}
	enginetest.Run(t, e, enginetest.Config{
		Budget: func(solver.Engine) solver.Params { return withGA(budget(1)) },
		Open:   func(solver.Engine) solver.Params { return withGA(solver.Params{Workers: 2}) },
	})
}

// solveShowing runs e and tells whether a snapshot's phase was ph with
// an account that has.
func solveShowing(e solver.Engine, in *solver.Instance, p solver.Params, ph solver.Phase, has func(*solver.EAXAccount) bool) (solver.Result, bool, error) {
	snaps := make(chan solver.Snapshot, 1024)
	shown := make(chan bool)
	go func() {
		seen := false
		for s := range snaps {
			seen = seen || (s.Phase == ph && s.Account != nil && s.Account.EAX != nil && has(s.Account.EAX))
		}
		shown <- seen
	}()
	res, err := solver.RunAided(context.Background(), e, in, p, snaps, solver.Aid{}, false)
	close(snaps)
	return res, <-shown, err
}

// The EAX population evolves: by a kicks budget the run is the same twice,
// its phase and account name the generations, and its account tells a
// best member shorter after them than before.
func TestEvolve(t *testing.T) {
	in, err := gen.Generate("uniform", 600, 5)
	if err != nil {
		t.Fatal(err)
	}
	e, _ := solver.Lookup("pop", solver.BackendCPU)
	p := budget(3)
	p.Config = func(o *population.Config) { o.Kicks, o.Rounds, o.Pool, o.GA = 40, 1, 4, 12 }
	var tours [][]int
	for k := range 2 {
		res, shown, err := solveShowing(e, in, p, solver.PhaseEvolve, func(a *solver.EAXAccount) bool { return a.Tours == 12 && a.Generations > 0 })
		if !shown && k == 0 {
			t.Error("no snapshot's phase names the population's generations")
		}
		if err != nil {
			t.Fatal(err)
		}
		a := res.Account.EAX
		if a == nil || a.Populations != 1 || a.Tours != 12 || a.Generations == 0 {
			t.Fatalf("account %+v: no EAX population", a)
		}
		before, after := a.FirstBest, a.Best
		if after >= before {
			t.Errorf("account %+v: the generations did not shorten the best member", a)
		}
		if in.LengthValue(res.Length) > after {
			t.Errorf("the run ended at %d, longer than the population's best %g", res.Length, after)
		}
		tours = append(tours, res.Tour)
	}
	if !slices.Equal(tours[0], tours[1]) {
		t.Fatal("the same seed and budget gave two tours")
	}
}

// A timed run whose population converges early builds further
// populations, each keeping the best so far and named in the account,
// and ends no longer than the first population's best.
func TestEvolveAgain(t *testing.T) {
	if testing.Short() {
		t.Skip("seconds of search")
	}
	in, err := gen.Generate("uniform", 400, 7)
	if err != nil {
		t.Fatal(err)
	}
	e, _ := solver.Lookup("pop", solver.BackendCPU)
	p := solver.Params{Seed: 2, Workers: 2, TimeLimit: 4 * time.Second, Config: func(o *population.Config) { o.GA = 6 }}
	res, shown, err := solveShowing(e, in, p, solver.PhaseEvolve, func(a *solver.EAXAccount) bool { return a.Populations == 2 })
	if err != nil {
		t.Fatal(err)
	}
	if !shown {
		t.Error("no snapshot's phase names the second population")
	}
	a := res.Account.EAX
	if a == nil || a.Populations < 2 {
		t.Fatalf("account %+v: no further populations", a)
	}
	first, last := a.FirstBest, a.Best
	if last > first || in.LengthValue(res.Length) > last {
		t.Errorf("first population's best %g, after the others %g, run's %d", first, last, res.Length)
	}
	if err := solver.ValidateTour(res.Tour, in.N); err != nil {
		t.Fatal(err)
	}
}
