package ils

import (
	"context"
	"errors"
	"github.com/tsplab/tsplab/solver/strategy"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tsplab/tsplab/internal/runctl"
	"github.com/tsplab/tsplab/lab/cpu/climb"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/bound"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/cpu/partition"
	"github.com/tsplab/tsplab/solver/cpu/population"
	"github.com/tsplab/tsplab/solver/enginetest"
	"github.com/tsplab/tsplab/solver/gen"
	"github.com/tsplab/tsplab/solver/neighbor"
)

var allEngines = []string{"sa", "sspm", "pssm", "pspm", "2opt-climb", "swap-climb", "2opt-ils", "3opt-ils", "auto", "pop"}

// budgetParams returns parameters that end each engine by a step budget,
// not by time, so that runs are deterministic and short.
func budgetParams(name string, seed uint64, workers int) solver.Params {
	p := solver.Params{Seed: seed, Workers: workers}
	switch name {
	case "sa", "sspm", "pssm", "pspm":
		p = withOpts(p, "t0=200", "tend=1", "alpha=0.8", "sweeps=4")
		if name != "sa" && name != "sspm" {
			p = withOpts(p, "k=5")
		}
		if name == "pspm" {
			p = withOpts(p, "blocks=3", "threads=4")
		}
	case "2opt-climb", "swap-climb":
		p = withOpts(p, climb.OptRestarts+"=3")
	case "pop":
		p.Config = func(o *population.Config) { o.Kicks = 300 }
	default:
		p.Config = func(o *ilsOptions) { o.kicks = 300 }
	}
	return p
}

func solve(t *testing.T, name string, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot) solver.Result {
	t.Helper()
	return enginetest.Solve(t, name, in, p, snaps)
}

func TestEnginesRegistered(t *testing.T) {
	for _, name := range allEngines {
		e, err := solver.Lookup(name, solver.BackendCPU)
		if err != nil {
			t.Fatal(err)
		}
		if e.Name() != name || e.Backend() != solver.BackendCPU || e.Describe() == "" || len([]rune(e.Describe())) > solver.MaxDescription || e.Available() != nil {
			t.Fatalf("%s: bad identity %q/%q %q", name, e.Name(), e.Backend(), e.Describe())
		}
	}
}

// TestEnginesImprove: every engine returns a valid tour of exact length,
// much shorter than a random tour, counts moves and reports its params.
func TestEnginesImprove(t *testing.T) {
	in := uniformInstance(80, 3)
	random := solver.TourLength(in, runctl.ToInt(newRNG(1, 1).RandomTour(in.N)))
	for _, name := range allEngines {
		t.Run(name, func(t *testing.T) {
			res := solve(t, name, in, budgetParams(name, 1, 2), nil)
			if res.Length >= random*2/3 {
				t.Errorf("length %d, a random tour is %d", res.Length, random)
			}
			if res.Moves <= 0 || res.Steps <= 0 {
				t.Errorf("moves %d, steps %d", res.Moves, res.Steps)
			}
			if res.Params.Algorithm != name || res.Params.Workers <= 0 || res.Algorithm != name {
				t.Errorf("params not filled: %+v", res.Params)
			}
			if res.Stopped {
				t.Errorf("a run that ended by its budget says Stopped")
			}
		})
	}
}

func TestSADefaults(t *testing.T) {
	in := uniformInstance(10, 1)
	e, _ := solver.Lookup("pspm", solver.BackendCPU)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := e.Solve(ctx, in, solver.Params{Workers: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := res.Settings
	if s.T0 != solver.DefaultT0 || s.TEnd != solver.DefaultTEnd || s.Alpha != solver.DefaultAlpha || s.Sweeps != solver.DefaultSweeps || s.K != solver.DefaultK || s.Threads != solver.DefaultThreads || s.Blocks != 2 {
		t.Fatalf("defaults not reported: %+v", s)
	}
	if !res.Stopped {
		t.Fatal("a cancelled run must say Stopped")
	}
}

func TestDeterminism(t *testing.T) {
	in := uniformInstance(70, 4)
	for _, name := range allEngines {
		t.Run(name, func(t *testing.T) {
			a := solve(t, name, in, budgetParams(name, 42, 2), nil)
			b := solve(t, name, in, budgetParams(name, 42, 2), nil)
			if !slices.Equal(a.Tour, b.Tour) || a.Moves != b.Moves {
				t.Fatalf("same seed and workers, different runs: %d/%d moves %d/%d", a.Length, b.Length, a.Moves, b.Moves)
			}
		})
	}
}

// TestEngineContract runs the engine contract (solver/enginetest) on
// every registered CPU engine, each ended by its budgetParams.
func TestEngineContract(t *testing.T) {
	cfg := enginetest.Config{
		Budget: func(e solver.Engine) solver.Params { return budgetParams(e.Name(), 1, 2) },
		Open:   openParams,
	}
	n := 0
	for _, e := range solver.Engines() {
		if e.Backend() != solver.BackendCPU {
			continue
		}
		n++
		t.Run(e.Name(), func(t *testing.T) { enginetest.Run(t, e, cfg) })
	}
	if n != len(allEngines) {
		t.Errorf("%d CPU engines registered, allEngines names %d", n, len(allEngines))
	}
}

// openParams are the parameters of a run of engine e that only the
// contract's cases stop: the annealers on a schedule far longer than the
// cases' time limits (else it is fitted to them), which passes their
// target early.
func openParams(e solver.Engine) solver.Params {
	p := solver.Params{Workers: 2}
	switch e.Name() {
	case "sa", "sspm", "pssm", "pspm":
		p = withOpts(p, "t0=300", "tend=0.1", "alpha=0.999", "sweeps=4")
	}
	return p
}

// checkCancelled runs engine name on in for an hour with its settings
// changed by set, cancels it after d and checks that it returns a valid
// tour marked Stopped.
func checkCancelled(t *testing.T, name string, in *solver.Instance, d time.Duration, set func(*ilsOptions)) {
	t.Helper()
	e, _ := solver.Lookup(name, solver.BackendCPU)
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	p := solver.Params{Seed: 1, Workers: 2, TimeLimit: time.Hour, Config: set}
	ctx, stop := solver.WithTimeLimit(ctx, p.TimeLimit) // the front end's one deadline
	defer stop()
	res, err := e.Solve(ctx, in, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := solver.ValidateTour(res.Tour, in.N); err != nil {
		t.Fatal(err)
	}
	if !res.Stopped {
		t.Fatal("cancelled run not marked Stopped")
	}
}

// TestFittedSchedule: without alpha, pspm's schedule is fitted to the
// time limit and ends by it or by the schedule's end, never otherwise.
func TestFittedSchedule(t *testing.T) {
	in := uniformInstance(300, 6)
	res := solve(t, "pspm", in, solver.Params{Seed: 1, Workers: 2, TimeLimit: 300 * time.Millisecond}, nil)
	if res.Schedule == nil || !res.Schedule.Fitted {
		t.Fatalf("pspm under a time limit: schedule %+v, want one fitted to the limit", res.Schedule)
	}
	if res.StopReason != solver.StopTime && res.StopReason != solver.StopDone {
		t.Fatalf("pspm's fitted schedule ended by %v, want its time limit or its schedule", res.StopReason)
	}
}

func TestCircleAndGridOptimum(t *testing.T) {
	circle, copt := circleInstance(120, 500, 1)
	grid := gridInstance(10, 12, 2)
	for _, name := range []string{"auto", "2opt-ils", "3opt-ils"} {
		p := solver.Params{Seed: 3, Workers: 2, Config: func(o *ilsOptions) { o.kicks = 3000 }}
		if res := solve(t, name, circle, p, nil); res.Length != copt {
			t.Errorf("%s circle: %d, optimum %d", name, res.Length, copt)
		}
		if name == "2opt-ils" {
			continue // 2-opt + Or-opt may stall on grids; the others must not
		}
		if res := solve(t, name, grid, p, nil); res.Length != 120 {
			t.Errorf("%s 10×12 grid: %d, optimum 120", name, res.Length)
		}
	}
	// the default auto run, by time, on a larger grid
	g := gridInstance(20, 20, 3)
	if res := solve(t, "auto", g, solver.Params{Seed: 1, TimeLimit: 2 * time.Second, Target: 400}, nil); res.Length != 400 {
		t.Errorf("auto 20×20 grid: %d, optimum 400", res.Length)
	}
}

// TestStart: a given start tour is used (a climber from the optimum stays
// there; an ILS never returns worse than its start).
func TestStart(t *testing.T) {
	in, copt := circleInstance(60, 300, 2)
	e, _ := solver.Lookup("2opt-ils", solver.BackendCPU)
	opt := solve(t, "auto", in, solver.Params{Seed: 1, Config: func(o *ilsOptions) { o.kicks = 500 }}, nil)
	if opt.Length != copt {
		t.Fatalf("auto circle: %d, want %d", opt.Length, copt)
	}
	res, err := e.Solve(context.Background(), in, solver.Params{Start: opt.Tour, Config: func(o *ilsOptions) { o.kicks = 1 }}, nil)
	if err != nil || res.Length != copt {
		t.Fatalf("from the optimum: %d, %v", res.Length, err)
	}
	res = solve(t, "2opt-climb", in, withOpts(solver.Params{Start: opt.Tour, Workers: 1}, climb.OptRestarts+"=1"), nil)
	if res.Length != copt {
		t.Fatalf("climber from the optimum: %d", res.Length)
	}
	if _, err := e.Solve(context.Background(), in, solver.Params{Start: []int{0, 1, 1}}, nil); err == nil {
		t.Fatal("an invalid start tour was accepted")
	}
}

func TestSmallInstances(t *testing.T) {
	for n := 1; n <= 9; n++ {
		in := uniformInstance(n, uint64(n))
		for _, name := range allEngines {
			p := budgetParams(name, 1, 2)
			res := solve(t, name, in, p, nil)
			if n >= 4 && n < 8 && (name == "auto" || name == "2opt-ils") {
				// enumeration: no tour is shorter
				if best := bruteForce(in); res.Length != best {
					t.Errorf("%s n=%d: %d, optimum %d", name, n, res.Length, best)
				}
			}
		}
	}
}

func bruteForce(in *solver.Instance) int64 {
	perm := solver.IdentityTour(in.N)
	best := solver.TourLength(in, perm)
	var rec func(k int)
	rec = func(k int) {
		if k == in.N {
			best = min(best, solver.TourLength(in, perm))
			return
		}
		for i := k; i < in.N; i++ {
			perm[k], perm[i] = perm[i], perm[k]
			rec(k + 1)
			perm[k], perm[i] = perm[i], perm[k]
		}
	}
	rec(1)
	return best
}

// TestCandidateOptions: every candidate list choice gives a valid tour
// near the others' on a clustered instance.
func TestCandidateOptions(t *testing.T) {
	in := uniformInstance(150, 12)
	e, _ := solver.Lookup("auto", solver.BackendCPU)
	for c, lists := range []listKind{listNearest, listQuadrant, listUnion, listMixed, listAlpha} {
		p := solver.Params{Seed: 1, Workers: 2, Config: func(o *ilsOptions) {
			o.kicks, o.cfg.candidates, o.cfg.threeOpt, o.cfg.acceptEqual = 300, lists, false, false
		}}
		res, err := e.Solve(context.Background(), in, p, nil)
		if err != nil {
			t.Fatalf("candidate lists %d: %v", c, err)
		}
		ref := solve(t, "2opt-ils", in, solver.Params{Seed: 1, Workers: 1, Config: func(o *ilsOptions) { o.kicks = 300 }}, nil)
		if float64(res.Length) > 1.05*float64(ref.Length) {
			t.Errorf("candidate lists %d: %d, 2opt-ils %d", c, res.Length, ref.Length)
		}
	}
}

// TestDegenerateInstances: all cities on one point, and collinear cities
// (optimum: twice the span), with every engine.
func TestDegenerateInstances(t *testing.T) {
	n := 40
	same := solver.NewCoordInstance("point", solver.Euc2D, make([]float64, n), make([]float64, n), nil)
	x, y := make([]float64, n), make([]float64, n)
	for i := range x {
		x[i] = float64((i * 17) % n * 10) // a shuffled line from 0 to 390
	}
	line := solver.NewCoordInstance("line", solver.Euc2D, x, y, nil)
	for _, name := range allEngines {
		if res := solve(t, name, same, budgetParams(name, 1, 2), nil); res.Length != 0 {
			t.Errorf("%s on one point: %d", name, res.Length)
		}
		res := solve(t, name, line, budgetParams(name, 1, 2), nil)
		if (name == "auto" || name == "2opt-ils" || name == "3opt-ils") && res.Length != 780 {
			t.Errorf("%s on a line: %d, optimum 780", name, res.Length)
		}
	}
}

// watchAscent runs auto with alpha-nearness lists on a 2,000-city instance
// through SolveAided with an accelerator that waits, up to waits·10 ms,
// for a snapshot whose best length passes ok against the greedy tour's,
// then refuses and ends the run (its ascent goes on on the cores). It
// returns the greedy length and whether that snapshot came while the
// ascent was waiting; the run must have asked that accelerator.
func watchAscent(t *testing.T, waits int, ok func(best, greedy int64) bool) (int64, bool) {
	t.Helper()
	in := uniformInstance(2000, 13)
	g, err := construct.GreedyContext(context.Background(), in, neighbor.Nearest(in, strategy.AlphaNeighbors))
	if err != nil {
		t.Fatal(err)
	}
	greedy := solver.TourLength(in, g)
	var seen, during, asked atomic.Bool
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	snaps := make(chan solver.Snapshot, 64)
	go func() {
		for s := range snaps {
			if ok(s.BestLength, greedy) {
				seen.Store(true)
			}
		}
	}()
	refused := errors.New("no device in this test")
	ascent := func() (solver.AscentDevice, error) {
		asked.Store(true)
		defer cancel()
		for range waits {
			if seen.Load() {
				during.Store(true)
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		return nil, refused
	}
	e, _ := solver.Lookup("auto", solver.BackendCPU)
	p := solver.Params{Seed: 1, Workers: 2, TimeLimit: 20 * time.Second, Config: func(o *ilsOptions) { o.cfg.candidates = listAlpha }}
	ctx, stop := solver.WithTimeLimit(ctx, p.TimeLimit) // the front end's one deadline
	defer stop()
	_, err = e.(ilsEngine).SolveAided(ctx, in, p, snaps, solver.Aid{Device: ascent})
	close(snaps)
	if err != nil || !asked.Load() {
		t.Errorf("the ascent did not ask the given device (asked %v), or the run failed: %v", asked.Load(), err)
	}
	return greedy, during.Load()
}

// TestGreedyShownBeforeAscent: with alpha-nearness lists the greedy tour on
// the nearest lists is on the snapshot channel before the ascent opens
// the accelerator SolveAided was given, and that accelerator is the one
// the ascent asks for (here it refuses, so the run reports the error).
func TestGreedyShownBeforeAscent(t *testing.T) {
	greedy, shown := watchAscent(t, 500, func(best, greedy int64) bool { return best == greedy })
	if !shown {
		t.Errorf("the greedy tour (%d) was not shown before the ascent", greedy)
	}
}

// TestSearchBesideAscent: while the ascent behind alpha-nearness lists
// runs, a local search improves the start tour: a tour shorter than the
// greedy one reaches the snapshot channel before the ascent ends (here
// its accelerator waits for it, then refuses).
func TestSearchBesideAscent(t *testing.T) {
	greedy, better := watchAscent(t, 1000, func(best, greedy int64) bool { return best > 0 && best < greedy })
	if !better {
		t.Errorf("no tour shorter than the greedy one (%d) while the ascent ran", greedy)
	}
}

// TestAlphaListsTakenLater: with the ascent another caller runs (as tsp
// solve's bound beside a run does), auto searches on the nearest lists
// meanwhile and gives its workers the alpha lists between two epochs, as
// the run's statistics say; the tour is valid and exact.
func TestAlphaListsTakenLater(t *testing.T) {
	in := uniformInstance(500, 17)
	ascent := make(chan struct{})
	ascents := new(bound.Ascents)
	go func() {
		_, _ = ascents.Compute(context.Background(), in, bound.Options{})
		close(ascent)
	}()
	for !ascents.Underway(in, solver.AscentOptions{}) {
		time.Sleep(time.Millisecond)
	}
	// The run ends a few epochs after the ascent does, however long the
	// ascent takes on a loaded machine: the lists must be taken by then.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-ascent
		time.Sleep(5 * time.Second)
		cancel()
	}()
	// epochs of 500 kicks per worker between exchanges
	e := autoWith(t, defaultLimits)
	p := solver.Params{Seed: 1, Workers: 2, TimeLimit: 5 * time.Minute, Config: func(o *ilsOptions) {
		o.cfg.candidates, o.cfg.share, o.cfg.sync = listAlpha, shareBest, 500
	}}
	ctx, stop := solver.WithTimeLimit(ctx, p.TimeLimit) // the front end's one deadline
	defer stop()
	res, err := e.SolveAided(ctx, in, p, nil, solver.Aid{Ascents: ascents})
	if err != nil {
		t.Fatal(err)
	}
	if err := solver.ValidateTour(res.Tour, in.N); err != nil {
		t.Fatal(err)
	}
	if res.Stats.AlphaListsAt <= 0 || res.Stats.AscentIterations == 0 {
		t.Fatalf("the alpha lists were not taken during the search: %+v", res.Stats)
	}
}

// asideEngine is auto with a path improver beside its partition search,
// as GPU auto lends its windows (solver.Aid.Paths), with a share of one
// worker as `--opt beside=1` sets it: on the tests' small instances that
// are not clustered the improver would take none by default.
type asideEngine struct {
	ilsEngine
	paths solver.PathImprover
}

func (e asideEngine) Solve(ctx context.Context, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot) (solver.Result, error) {
	return e.SolveAided(ctx, in, p, snaps, solver.Aid{Paths: e.paths, PathShare: 1})
}

// TestEngineContractAutoPaths runs the engine contract on auto's paths
// that its 200-city instances do not reach: the merged search of 1,200
// cities (alpha-nearness lists, the workers' changes merged), and the
// partition search, forced on by its option, alone and with a path
// improver beside it (the GPU's stretch, here a CPU 2-opt).
func TestEngineContractAutoPaths(t *testing.T) {
	eng, err := solver.Lookup("auto", solver.BackendCPU)
	if err != nil {
		t.Fatal(err)
	}
	auto := eng.(ilsEngine)
	fake := &enginetest.FakePaths{}
	for _, tc := range []struct {
		name string
		e    solver.Engine
		set  func(*ilsOptions)
	}{
		{"merge", auto, func(o *ilsOptions) { o.cfg.share = shareMerge }}, // settings made keep the merged search on 2 workers
		{"partition", auto, func(o *ilsOptions) { o.partition = partOn }},
		{"partition-beside", asideEngine{auto, fake}, func(o *ilsOptions) { o.partition, o.cfg.candidates = partOn, listNearest }},
	} {
		budget := budgetParams("auto", 1, 2)
		budget.Config = func(o *ilsOptions) { tc.set(o); o.kicks = 60 }
		cfg := enginetest.Config{
			N:      1200,
			Budget: func(solver.Engine) solver.Params { return budget },
			Open:   func(solver.Engine) solver.Params { return solver.Params{Workers: 2, Config: tc.set} },
		}
		t.Run(tc.name, func(t *testing.T) { enginetest.Run(t, tc.e, cfg) })
	}
	// the contract's timed cases are short, so the improver's first call
	// is awaited in a run of its own, ended once the call has come
	in, err := gen.Generate("uniform", 1200, 1)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	first := &firstCall{paths: fake, cancel: cancel}
	p := solver.Params{Seed: 1, Workers: 2, TimeLimit: time.Minute, Config: func(o *ilsOptions) { o.partition, o.cfg.candidates = partOn, listNearest }}
	ctx, stop := solver.WithTimeLimit(ctx, p.TimeLimit) // the front end's one deadline
	defer stop()
	res, err := asideEngine{auto, first}.Solve(ctx, in, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := solver.ValidateTour(res.Tour, in.N); err != nil {
		t.Fatal(err)
	}
	if fake.CallCount() == 0 {
		t.Error("partition-beside: the path improver beside was never called")
	}
}

// firstCall passes calls on to paths and cancels the run after the first.
type firstCall struct {
	paths  solver.PathImprover
	cancel context.CancelFunc
}

func (f *firstCall) ImprovePath(ctx context.Context, in *solver.Instance, path []int32, until time.Time) (int64, error) {
	defer f.cancel()
	return f.paths.ImprovePath(ctx, in, path, until)
}

// A timed merged search with a short stall restarts from its best tour,
// shows it in its phase, and ends on a valid tour (enginetest.Solve
// checks it). Cities on a circle reach their local optimum early, so the
// stall comes under the race detector on a loaded host too (uniform
// cities kept improving for the whole 3 s there).
func TestMergedRestarts(t *testing.T) {
	in, err := gen.Generate("circle", 2000, 3)
	if err != nil {
		t.Fatal(err)
	}
	p := solver.Params{Seed: 1, Workers: 2, TimeLimit: 3 * time.Second, Config: func(o *ilsOptions) { o.cfg.candidates, o.restart = listNearest, 50 }}
	snaps := make(chan solver.Snapshot, 64)
	shown := make(chan bool)
	go func() {
		seen := false
		for s := range snaps {
			seen = seen || (s.Account != nil && s.Account.Restarts != nil && s.Account.Restarts.Count >= 1)
		}
		shown <- seen
	}()
	e, _ := solver.Lookup("auto", solver.BackendCPU)
	ctx, stop := solver.WithTimeLimit(context.Background(), p.TimeLimit) // the front end's one deadline
	defer stop()
	res, err := e.Solve(ctx, in, p, snaps)
	close(snaps)
	if err != nil {
		t.Fatal(err)
	}
	if err := solver.ValidateTour(res.Tour, in.N); err != nil {
		t.Fatal(err)
	}
	if !<-shown {
		t.Error("no snapshot's account names the first restart")
	}
	if r := res.Account.Restarts; r == nil || r.Count < 1 || res.Account.Search != solver.SearchMerged {
		t.Fatalf("account %+v: no restarts of a merged search in 3 s with a stall of 50 ms", res.Account)
	}
}

// TestEngineContractAutoSolo runs the engine contract on chained
// Lin–Kernighan, forced on with the partition search: over the whole tour
// on one worker and 1,200 cities (solo=lk), and in the pieces on two
// workers and 4,000 cities, a piece of 2,000 cities each (solo=pieces).
func TestEngineContractAutoSolo(t *testing.T) {
	eng, err := solver.Lookup("auto", solver.BackendCPU)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		solo, kicks string
		mode        partition.SoloMode
		workers, n  int
	}{{"lk", "kicks=200", partition.SoloLK, 1, 1200}, {"pieces", "kicks=400", partition.SoloPieces, 2, 4000}} {
		t.Run(c.solo, func(t *testing.T) {
			budget := withOpts(budgetParams("auto", 1, c.workers), "partition=on", "solo="+c.solo, c.kicks)
			cfg := enginetest.Config{
				N:      c.n,
				Budget: func(solver.Engine) solver.Params { return budget },
				Open: func(solver.Engine) solver.Params {
					return solver.Params{Workers: c.workers, Config: func(o *ilsOptions) { o.partition, o.solo = partOn, c.mode }}
				},
			}
			enginetest.Run(t, eng, cfg)
		})
	}
}

// TestAutoOneWorkerSolo: auto on one worker on 50,000 uniform cities
// (its default there, chained LK over the whole tour) returns a valid
// tour of the length it reports, far below its greedy start, after its
// first descent and 20 kicks; off, the pieces' search does as well.
func TestAutoOneWorkerSolo(t *testing.T) {
	in := uniformInstance(50_000, 9)
	start := solver.TourLength(in, construct.Greedy(in, neighbor.Nearest(in, 8)))
	for _, mode := range []string{"auto", "off"} {
		res := solve(t, "auto", in, withOpts(solver.Params{Seed: 1, Workers: 1}, OptSolo+"="+mode, OptKicks+"=20"), nil)
		if err := solver.ValidateTour(res.Tour, in.N); err != nil {
			t.Fatalf("solo=%s: %v", mode, err)
		}
		if got := solver.TourLength(in, res.Tour); got != res.Length || got > start*97/100 {
			t.Fatalf("solo=%s: length %d, reported %d, greedy start %d", mode, got, res.Length, start)
		}
	}
}
