package ils

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tsplab/tsplab/internal/tsplibdir"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// solveWithin runs engine name and fails when it has not returned after
// limit: a watchdog for hangs, far above the run's own time limit, not a
// speed assertion.
func solveWithin(t *testing.T, limit time.Duration, ctx context.Context, name string, in *solver.Instance, p solver.Params) (solver.Result, error) {
	t.Helper()
	e, err := solver.Lookup(name, solver.BackendCPU)
	if err != nil {
		t.Fatal(err)
	}
	type out struct {
		res solver.Result
		err error
	}
	done := make(chan out, 1)
	go func() {
		res, err := solver.RunAided(ctx, e, in, p, solver.Latest(), solver.Aid{}, false)
		done <- out{res, err}
	}()
	select {
	case o := <-done:
		return o.res, o.err
	case <-time.After(limit):
		t.Fatalf("%s on %s (n=%d) has not returned after %v", name, in.Name, in.N, limit)
		return solver.Result{}, nil
	}
}

// zeroInstances are instances whose every distance is 0: identical
// points and an all-zero EXPLICIT matrix.
func zeroInstances() []*solver.Instance {
	var ins []*solver.Instance
	for _, n := range []int{8, 50, 1000} {
		ins = append(ins, solver.NewCoordInstance("same", solver.Euc2D, make([]float64, n), make([]float64, n), nil))
	}
	return append(ins, solver.NewMatrixInstance("zero", 60, make([]int32, 60*60)))
}

// TestZeroDistancesEnd: on instances where every tour has length 0 the
// engines return at once with such a tour, as done (not stopped by the
// clock): a tour of length 0 is optimal.
func TestZeroDistancesEnd(t *testing.T) {
	for _, in := range zeroInstances() {
		for _, name := range allEngines {
			p := solver.Params{Seed: 1, Workers: 2, TimeLimit: time.Minute}
			res, err := solveWithin(t, 20*time.Second, context.Background(), name, in, p)
			if err != nil {
				t.Fatalf("%s on %s n=%d: %v", name, in.Name, in.N, err)
			}
			if res.Length != 0 || solver.ValidateTour(res.Tour, in.N) != nil {
				t.Fatalf("%s on %s n=%d: length %d", name, in.Name, in.N, res.Length)
			}
			if res.Stopped && (name == "auto" || strings.HasSuffix(name, "-ils") || strings.HasSuffix(name, "-climb")) {
				t.Errorf("%s on %s n=%d: ran until %v, want an end at the first tour of length 0", name, in.Name, in.N, res.StopReason)
			}
		}
	}
}

// TestPlateauChecksClock: two clusters of identical points, so that
// every local-search move is cut short (every candidate distance 0) but
// no tour has length 0: the searches must still see the time limit.
func TestPlateauChecksClock(t *testing.T) {
	n := 400
	x := make([]float64, n)
	for i := n / 2; i < n; i++ {
		x[i] = 1000
	}
	in := solver.NewCoordInstance("two points", solver.Euc2D, x, make([]float64, n), nil)
	for _, name := range []string{"auto", "2opt-ils", "3opt-ils"} {
		p := solver.Params{Seed: 1, Workers: 2, TimeLimit: 200 * time.Millisecond}
		res, err := solveWithin(t, 20*time.Second, context.Background(), name, in, p)
		if err != nil {
			t.Fatal(err)
		}
		if res.Length != 2000 || !res.Stopped {
			t.Errorf("%s: length %d (optimum 2000), stopped %v", name, res.Length, res.Stopped)
		}
	}
}

// TestCancelledDuringSetup: with the context already cancelled, the
// iterated local searches return a valid tour (the space-filling curve's)
// marked stopped instead of building candidate lists and a greedy tour
// for 200 000 cities first.
func TestCancelledDuringSetup(t *testing.T) {
	if testing.Short() {
		t.Skip("200 000 cities")
	}
	in := uniformInstance(200_000, 3)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, name := range []string{"auto", "2opt-ils", "3opt-ils"} {
		res, err := solveWithin(t, 20*time.Second, ctx, name, in, solver.Params{Seed: 1, Workers: 2, TimeLimit: time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		if err := solver.ValidateTour(res.Tour, in.N); err != nil || !res.Stopped {
			t.Fatalf("%s: %v, stopped %v", name, err, res.Stopped)
		}
	}
}

// TestSetupHonoursContext: a cancelled context during set-up on a smaller
// instance (fast enough for -short) still gives a valid, stopped result.
func TestSetupHonoursContext(t *testing.T) {
	in := uniformInstance(20_000, 4)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := solveWithin(t, 20*time.Second, ctx, "auto", in, solver.Params{Seed: 1, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := solver.ValidateTour(res.Tour, in.N); err != nil || !res.Stopped {
		t.Fatalf("%v, stopped %v", err, res.Stopped)
	}
}

// TestUnboundedParams: huge or memory-exhausting numbers of workers are
// refused with an error, never a panic or an allocation that cannot
// succeed (the option texts: solver's TestCPUEnginesRefuseHugeText).
func TestUnboundedParams(t *testing.T) {
	in := uniformInstance(2000, 1)
	for _, c := range []struct {
		name string
		p    solver.Params
	}{
		{"pssm", solver.Params{Workers: 100_000_000}},
		{"auto", solver.Params{Workers: 100_000_000}},
		{"2opt-climb", solver.Params{Workers: 100_000_000}},
	} {
		if _, err := solveWithin(t, 20*time.Second, context.Background(), c.name, in, c.p); err == nil {
			t.Errorf("%s %+v: no error", c.name, c.p)
		}
	}
	// 1000 workers for 200 000 cities would take 3 GB of tours.
	big := uniformInstance(200_000, 2)
	if _, err := solveWithin(t, 20*time.Second, context.Background(), "auto", big, solver.Params{Workers: 1000, TimeLimit: time.Second}); err == nil {
		t.Error("auto: 1000 workers on 200 000 cities accepted")
	}
}

// fixedInstance is a uniform instance with fixed edges that no short
// tour would use: long chords between far cities.
func fixedInstance() *solver.Instance {
	in := uniformInstance(300, 8)
	in.FixedEdges = [][2]int{{0, 150}, {150, 7}, {20, 200}, {41, 99}}
	return in
}

// TestFixedEdgesKept: the iterated local searches and pop keep every fixed edge
// (Finish checks them too); the other engines refuse the instance.
func TestFixedEdgesKept(t *testing.T) {
	in := fixedInstance()
	for _, name := range allEngines {
		e, _ := solver.Lookup(name, solver.BackendCPU)
		res, err := e.Solve(context.Background(), in, budgetParams(name, 1, 2), nil)
		switch name {
		case "auto", "2opt-ils", "3opt-ils", "pop":
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if err := in.CheckFixedEdges(res.Tour); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		default:
			if err == nil || !strings.Contains(err.Error(), "fixed edges") {
				t.Errorf("%s: want a refusal naming fixed edges, got %v", name, err)
			}
		}
	}
	// small instances are enumerated among the tours with the fixed edges
	small := uniformInstance(6, 2)
	small.FixedEdges = [][2]int{{0, 3}}
	res := solve(t, "auto", small, budgetParams("auto", 1, 1), nil)
	if err := small.CheckFixedEdges(res.Tour); err != nil {
		t.Fatal(err)
	}
	// a start tour without them is refused
	e, _ := solver.Lookup("auto", solver.BackendCPU)
	if _, err := e.Solve(context.Background(), in, solver.Params{Start: solver.IdentityTour(in.N)}, nil); err == nil {
		t.Error("a start tour without the fixed edges was accepted")
	}
}

// TestFixedEdgesTSPLIB solves linhp318, the TSPLIB instance with a fixed
// edge, and checks the tour keeps it.
func TestFixedEdgesTSPLIB(t *testing.T) {
	dir := tsplibdir.Need(t)
	path := filepath.Join(dir, "linhp318.tsp")
	if _, err := os.Stat(path); err != nil {
		t.Skip("linhp318.tsp not in " + dir)
	}
	in, err := tsplib.Load(path, dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(in.FixedEdges) == 0 {
		t.Fatal("linhp318 read without its fixed edge")
	}
	res := solve(t, "auto", in, solver.Params{Seed: 1, Workers: 2, Config: func(o *ilsOptions) { o.kicks = 2000 }}, nil)
	if err := in.CheckFixedEdges(res.Tour); err != nil {
		t.Fatal(err)
	}
	if in.HasOptimum() && res.Length < in.Optimum {
		t.Fatalf("length %d below the optimum %d with the fixed edge", res.Length, in.Optimum)
	}
}

// TestSnapshotBestIsBest: every snapshot's best is at most its current
// length and never grows, also while the first descent of a large
// instance runs.
func TestSnapshotBestIsBest(t *testing.T) {
	in := uniformInstance(30_000, 5)
	snaps := make(chan solver.Snapshot, 1)
	var got []solver.Snapshot
	done := make(chan struct{})
	go func() {
		for s := range snaps {
			got = append(got, s)
		}
		close(done)
	}()
	e, _ := solver.Lookup("auto", solver.BackendCPU)
	res, err := e.Solve(context.Background(), in, solver.Params{Seed: 1, Workers: 1, Config: func(o *ilsOptions) { o.kicks, o.cfg.candidates = 10, listNearest }}, snaps)
	close(snaps)
	<-done
	if err != nil {
		t.Fatal(err)
	}
	best := int64(math.MaxInt64)
	phases := map[solver.Phase]bool{}
	for _, s := range got {
		phases[s.Phase] = true
		if s.Best == nil && s.Tour == nil {
			continue
		}
		if s.Tour != nil && s.BestLength > s.Length {
			t.Fatalf("snapshot at %v (%s): best %d longer than the current %d", s.Elapsed, s.Phase, s.BestLength, s.Length)
		}
		if s.BestLength > best {
			t.Fatalf("snapshot at %v: best grew from %d to %d", s.Elapsed, best, s.BestLength)
		}
		best = s.BestLength
	}
	if best < res.Length {
		t.Fatalf("a snapshot's best %d is shorter than the result %d", best, res.Length)
	}
	if !phases[solver.PhaseNeighbours] || !phases[solver.PhaseStart] {
		t.Errorf("phases seen: %v", phases)
	}
}

// TestRunRefusesFixedEdges: solver.Run refuses an engine that does not
// keep fixed edges before it runs, and lets the ILS engines and pop run.
func TestRunRefusesFixedEdges(t *testing.T) {
	in := fixedInstance()
	for _, name := range allEngines {
		e, _ := solver.Lookup(name, solver.BackendCPU)
		_, err := solver.Run(context.Background(), e, in, budgetParams(name, 1, 1), nil)
		keeps := name == "auto" || name == "pop" || strings.HasSuffix(name, "-ils")
		if keeps != solver.KeepsFixedEdges(e) || (err == nil) != keeps {
			t.Errorf("%s: keeps %v, Run error %v", name, solver.KeepsFixedEdges(e), err)
		}
	}
}

// TestSharedDescent: with more than two workers, the workers after the
// first two take the first descent of the worker with their candidate
// lists; runs stay deterministic, and every worker starts its kicks from
// that local optimum (a budget of 0 kicks returns it).
func TestSharedDescent(t *testing.T) {
	in := uniformInstance(500, 9)
	for _, name := range []string{"auto", "3opt-ils"} {
		p := solver.Params{Seed: 3, Workers: 5, Config: func(o *ilsOptions) { o.kicks = 40 }}
		a := solve(t, name, in, p, nil)
		b := solve(t, name, in, p, nil)
		if !slices.Equal(a.Tour, b.Tour) || a.Moves != b.Moves {
			t.Fatalf("%s: same seed and workers, different runs: %d/%d", name, a.Length, b.Length)
		}
		one := solve(t, name, in, solver.Params{Seed: 3, Workers: 1, Config: func(o *ilsOptions) { o.kicks = 40 }}, nil)
		if a.Length > one.Length {
			t.Errorf("%s: 5 workers %d, worse than worker 0 alone %d", name, a.Length, one.Length)
		}
	}
}

// TestAnnealersCancelledDuringSetup: with the context already cancelled,
// the annealers stop while they set up their searches and return a valid
// tour marked stopped.
func TestAnnealersCancelledDuringSetup(t *testing.T) {
	in := uniformInstance(50_000, 6)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, name := range []string{"sa", "pssm", "pspm", "sspm", "2opt-climb", "swap-climb"} {
		p := solver.Params{Seed: 1, Workers: 2}
		if name != "sspm" && !strings.HasSuffix(name, "climb") {
			p = withOpts(p, "blocks=64") // many searches to set up
		}
		res, err := solveWithin(t, 20*time.Second, ctx, name, in, p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := solver.ValidateTour(res.Tour, in.N); err != nil || !res.Stopped {
			t.Fatalf("%s: %v, stopped %v", name, err, res.Stopped)
		}
	}
}
