package ils

import (
	"github.com/tsplab/tsplab/solver/strategy"
	"slices"
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/enginetest"
	"github.com/tsplab/tsplab/solver/neighbor"
)

// TestAutoPartitionWorkers: auto takes the partition search from
// strategy.PartitionMinN cities with any number of workers; the option overrides it.
func TestAutoPartitionWorkers(t *testing.T) {
	e, _ := solver.Lookup("auto", solver.BackendCPU)
	for _, tc := range []struct {
		n, w int
		opt  partMode
		want bool
	}{
		{strategy.PartitionMinN - 1, 16, partAuto, false},
		{strategy.PartitionMinN, 2, partAuto, true},
		{strategy.PartitionMinN, 1, partAuto, true},
		{strategy.DeepMinN, 2, partOn, true},
		{strategy.PartitionMinN, 16, partOff, false},
	} {
		o := ilsOptions{partition: tc.opt, cfg: e.(ilsEngine).cfg}
		if got := e.(ilsEngine).decide(e.(ilsEngine).facts(o, uniformInstance(tc.n, 3), solver.Params{}.Given, tc.w, 0)).partition(); got != tc.want {
			t.Errorf("n %d, %d workers, partition=%d: %v, want %v", tc.n, tc.w, tc.opt, got, tc.want)
		}
	}
}

// TestPartitionDeterministic: with a kick budget and no time limit the
// partition search gives the same tour for the same seed and workers,
// whichever worker takes which segment.
func TestPartitionDeterministic(t *testing.T) {
	in := uniformInstance(1500, 23)
	p := func() solver.Params {
		return solver.Params{Seed: 9, Workers: 3, Config: func(o *ilsOptions) {
			o.partition, o.partSeg, o.kicks, o.cfg.move, o.cfg.candidates = partOn, 200, 1500, deepChain, listNearest
		}}
	}
	a := solve(t, "auto", in, p(), nil)
	b := solve(t, "auto", in, p(), nil)
	if !slices.Equal(a.Tour, b.Tour) {
		t.Fatalf("same seed and workers, different tours: %d and %d", a.Length, b.Length)
	}
	off := solve(t, "auto", in, solver.Params{Seed: 9, Workers: 3, Config: func(o *ilsOptions) {
		o.partition, o.kicks, o.cfg.move, o.cfg.candidates = partOff, 1500, deepChain, listNearest
	}}, nil)
	if slices.Equal(a.Tour, off.Tour) {
		t.Fatal("partition on and off gave the same tour: the option does nothing")
	}
}

// TestPartitionStops: the time limit and a cancelled context end a
// partition search, which returns its best tour marked Stopped, with
// snapshots of real tours on the way.
func TestPartitionStops(t *testing.T) {
	in := uniformInstance(12000, 24)
	t.Run("time limit", func(t *testing.T) {
		snaps := solver.Latest()
		var got []solver.Snapshot
		done := make(chan struct{})
		go func() {
			defer close(done)
			for s := range snaps {
				got = append(got, s)
			}
		}()
		res := solve(t, "auto", in, solver.Params{Seed: 1, Workers: 2, TimeLimit: 1500 * time.Millisecond, Config: func(o *ilsOptions) { o.partition, o.cfg.candidates = partOn, listMixed }}, snaps)
		close(snaps)
		<-done
		if !res.Stopped {
			t.Fatal("time limit not marked Stopped")
		}
		for _, s := range got {
			if s.Best != nil && solver.TourLength(in, s.Best) != s.BestLength {
				t.Fatalf("snapshot best %d is not its tour's length", s.BestLength)
			}
		}
	})
	t.Run("cancel", func(t *testing.T) {
		checkCancelled(t, "auto", in, 700*time.Millisecond, func(o *ilsOptions) { o.partition = partOn })
	})
}

// TestPartitionRegionsDeterministic: with a kicks budget, runs whose
// rounds cut the plane repeat for a seed and a worker count, whatever the
// merges' timing.
func TestPartitionRegionsDeterministic(t *testing.T) {
	in := uniformInstance(6000, 30)
	p := func() solver.Params {
		return solver.Params{Seed: 4, Workers: 3, Config: func(o *ilsOptions) {
			o.partition, o.partSeg, o.partShape, o.kicks, o.cfg.move, o.cfg.candidates = partOn, 150, shapeRegion, 3000, deepChain, listNearest
		}}
	}
	a := solve(t, "auto", in, p(), nil)
	b := solve(t, "auto", in, p(), nil)
	if !slices.Equal(a.Tour, b.Tour) {
		t.Fatalf("same seed and workers, different tours: %d and %d", a.Length, b.Length)
	}
}

// TestPartitionFixedEdges: the instance's fixed edges, some inside a
// segment, survive a partition search of the engine.
func TestPartitionFixedEdges(t *testing.T) {
	in := uniformInstance(2000, 22)
	nb := neighbor.Nearest(in, 8)
	g := construct.Greedy(in, nb)
	for i := 0; i+1 < len(g); i += 37 {
		in.FixedEdges = append(in.FixedEdges, [2]int{g[i], g[i+1]})
	}
	res := solve(t, "auto", in, solver.Params{Seed: 1, Workers: 3, Config: func(o *ilsOptions) {
		o.partition, o.kicks, o.cfg.move, o.cfg.candidates = partOn, 2000, deepChain, listNearest
	}}, nil)
	if err := in.CheckFixedEdges(res.Tour); err != nil {
		t.Fatal(err)
	}
}

// TestPartitionAdaptRepeats: a partition search with move adapt and a
// kicks budget gives the same tour twice.
func TestPartitionAdaptRepeats(t *testing.T) {
	in := uniformInstance(3000, 31)
	p := solver.Params{Seed: 5, Workers: 3, Config: func(o *ilsOptions) {
		o.partSeg, o.partKicks, o.cfg.move, o.kicks, o.partition = 600, 0.3, deepAdapt, 400, partOn
	}}
	a := solve(t, "auto", in, p, nil)
	b := solve(t, "auto", in, p, nil)
	if !slices.Equal(a.Tour, b.Tour) {
		t.Fatalf("same seed and budget, different tours: %d and %d", a.Length, b.Length)
	}
}

// TestPartitionClusteredDeterministic: a partition search on a clustered
// instance with a kicks budget gives the same tour for the same seed.
func TestPartitionClusteredDeterministic(t *testing.T) {
	in := enginetest.DIMACS(t, "portcgen", 1500, 1500)
	p := func() solver.Params {
		return solver.Params{Seed: 4, Workers: 2, Config: func(o *ilsOptions) {
			o.partition, o.partSeg, o.kicks, o.cfg.move, o.cfg.candidates = partOn, 200, 1500, deepChain, listMixed
		}}
	}
	a := solve(t, "auto", in, p(), nil)
	b := solve(t, "auto", in, p(), nil)
	if !slices.Equal(a.Tour, b.Tour) {
		t.Fatalf("same seed and workers, different tours: %d and %d", a.Length, b.Length)
	}
}

// TestPartitionAlphaTakesMixed: under "alpha" the partition search takes
// the mixed lists and runs no ascent: the same tour as under "mixed"; a
// plan of alpha lists with the partition search gives the option's value
// unless it is given.
func TestPartitionAlphaTakesMixed(t *testing.T) {
	in := uniformInstance(1200, 25)
	run := func(lists listKind) solver.Result {
		return solve(t, "auto", in, solver.Params{Seed: 1, Workers: 2, Config: func(o *ilsOptions) {
			o.kicks, o.partition, o.partSeg, o.cfg.candidates = 2000, partOn, 200, lists
		}}, nil)
	}
	alpha, mixed := run(listAlpha), run(listMixed)
	if alpha.Stats.AscentIterations != 0 || alpha.Account.Lists != nil {
		t.Errorf("an ascent beside the partition search: %d iterations, lists %+v", alpha.Stats.AscentIterations, alpha.Account.Lists)
	}
	if !slices.Equal(alpha.Tour, mixed.Tour) {
		t.Errorf("alpha and mixed lists gave different tours: %d and %d", alpha.Length, mixed.Length)
	}
	pl := ilsPlan{Strategy: strategy.Strategy{Search: strategy.Partition, LocalSearch: strategy.LocalSearch{Lists: strategy.Alpha}}}
	for _, given := range []bool{false, true} {
		o := ilsOptions{cfg: ilsConfig{candidates: listMixed}}
		pl.apply(&o, func(name string) bool { return given && name == OptCandidates })
		if want := map[bool]listKind{false: listAlpha, true: listMixed}[given]; o.cfg.candidates != want {
			t.Errorf("candidates given %v: %v, want %v", given, o.cfg.candidates, want)
		}
	}
}
