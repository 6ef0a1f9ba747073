package ils

import (
	"github.com/tsplab/tsplab/solver/strategy"
	"slices"
	"strconv"
	"testing"

	"github.com/tsplab/tsplab/solver"
)

// TestAutoDefaultsBySize checks auto's defaults at each edge of its size
// table, as the options report them (solver.EffectiveOptions, `tsp
// engines FILE`) and as a run reads them, and that an explicit option
// still wins.
func TestAutoDefaultsBySize(t *testing.T) {
	e, _ := solver.Lookup("auto", solver.BackendCPU)
	ie := e.(ilsEngine)
	type want struct {
		or3              bool
		stale            int
		candidates       listKind
		depth, seg, sync int
		share            shareKind
		move             deepMove
		neighbors        int
	}
	for _, tc := range []struct {
		n int
		w want
	}{
		{500, want{true, 3, listNearest, 1, 30, 0, shareBest, deepChain, 8}},
		{strategy.DeepMinN - 1, want{true, 3, listNearest, 1, 30, 0, shareBest, deepChain, 8}},
		{strategy.DeepMinN, want{false, 0, listAlpha, 2, 200, strategy.MergeSync, shareMerge, deepLK5, strategy.AlphaNeighbors}},
		{strategy.PartitionMinN - 1, want{false, 0, listAlpha, 2, 200, strategy.MergeSync, shareMerge, deepLK5, strategy.AlphaNeighbors}},
		{strategy.PartitionMinN, want{false, 20, listMixed, 2, 200, strategy.MergeSync, shareMerge, deepAdapt, 8}},
	} {
		in := uniformInstance(tc.n, 1)
		o, err := ie.config(in, solver.Params{})
		if err != nil {
			t.Fatal(err)
		}
		c := o.cfg
		got := want{c.or3, c.stale, c.candidates, c.depth, c.maxSeg, c.sync, c.share, c.move, c.neighbors}
		if got != tc.w {
			t.Errorf("n=%d: run reads %+v, want %+v", tc.n, got, tc.w)
		}
		if !c.threeOpt || !c.acceptEqual || !c.orOpt || c.start != startGreedy || !c.partAuto {
			t.Errorf("n=%d: auto's fixed defaults lost: %+v", tc.n, c)
		}
		opts := solver.EffectiveOptions(e, in)
		for name, w := range map[string]string{OptCandidates: []string{"nearest", "quadrant", "union", "mixed", "alpha"}[tc.w.candidates], OptStale: strconv.Itoa(tc.w.stale)} {
			if op, _ := opts.Lookup(name); op.Default != w {
				t.Errorf("n=%d: %s shows default %q, want %q", tc.n, name, op.Default, w)
			}
		}
	}
	small := uniformInstance(500, 1)
	o, err := ie.config(small, solver.Params{Extra: map[string]string{OptOr3: "off", OptStale: "20", OptCandidates: "mixed"}})
	if err != nil {
		t.Fatal(err)
	}
	if o.cfg.or3 || o.cfg.stale != 20 || o.cfg.candidates != listMixed || o.rkbi != 0 {
		t.Errorf("explicit options lost: %+v rkbi %d", o.cfg, o.rkbi)
	}
	// the other engines keep their declared defaults whatever the size
	e3, _ := solver.Lookup("3opt-ils", solver.BackendCPU)
	for _, n := range []int{500, strategy.PartitionMinN} {
		o, err = e3.(ilsEngine).config(uniformInstance(n, 2), solver.Params{})
		c := o.cfg
		if err != nil || c.or3 || c.stale != 0 || c.candidates != listNearest || !c.threeOpt || c.acceptEqual || c.start != startNN || c.partAuto || o.rkbi != 0 {
			t.Errorf("3opt-ils on %d cities: %+v rkbi %d (%v)", n, c, o.rkbi, err)
		}
	}
	// without an instance, the sized options say so
	if op, _ := solver.OptionsFor("auto", solver.BackendCPU).Lookup(OptStale); op.Auto != solver.BySize {
		t.Errorf("stale without an instance: %+v", op)
	}
}

// TestCPUOptionsWellFormed: every CPU engine declares its options with a
// doc, exactly one of a default and a description of how it is chosen,
// and a default inside its own range; auto keeps at most 8 stable ones.
func TestCPUOptionsWellFormed(t *testing.T) {
	ins := []*solver.Instance{uniformInstance(100, 1), uniformInstance(5000, 1), uniformInstance(20000, 1)}
	for _, e := range solver.Engines() {
		if e.Backend() != solver.BackendCPU {
			continue
		}
		set := solver.OptionsFor(e.Name(), e.Backend())
		if len(set) == 0 {
			t.Errorf("%s declares no options", e.Name())
		}
		for _, o := range set {
			if o.Doc == "" || (o.Default == "") == (o.Auto == "") {
				t.Errorf("%s %s: doc and exactly one of Default, Auto needed: %+v", e.Name(), o.Name, o)
			}
		}
		for _, in := range ins {
			for _, o := range solver.EffectiveOptions(e, in) {
				if o.Default == "" || o.Shared {
					continue
				}
				p := solver.Params{Extra: map[string]string{o.Name: o.Default}}
				if err := solver.Validate(e, in, p); err != nil {
					t.Errorf("%s on %d cities: default %s=%s refused: %v", e.Name(), in.N, o.Name, o.Default, err)
				}
			}
		}
	}
	if n := len(solver.OptionsFor("auto", solver.BackendCPU).Stable()); n > 8 {
		t.Errorf("auto: %d stable options, want at most 8", n)
	}
}

// TestFitMove: auto takes the 5-opt move by the round up to
// strategy.AdaptMaxPerWorker cities a worker and the chain beyond, unless the
// user sets the move.
func TestFitMove(t *testing.T) {
	in := uniformInstance(strategy.AdaptMaxPerWorker+5000, 2)
	e, _ := solver.Lookup("auto", solver.BackendCPU)
	for _, tc := range []struct {
		w     int
		extra map[string]string
		want  deepMove
	}{
		{1, nil, deepChain},
		{2, nil, deepAdapt},
		{16, nil, deepAdapt},
		{1, map[string]string{OptMove: "adapt"}, deepAdapt},
		{2, map[string]string{OptMove: "lk5"}, deepLK5},
	} {
		p := solver.Params{Seed: 1, Workers: tc.w, Extra: tc.extra}
		o, err := e.(ilsEngine).config(in, p)
		if err != nil {
			t.Fatal(err)
		}
		planned(e.(ilsEngine), &o, in, p, tc.w)
		if o.cfg.move != tc.want {
			t.Errorf("%d cities on %d workers, options %v: move %v, want %v", in.N, tc.w, tc.extra, o.cfg.move, tc.want)
		}
	}
}

// TestTuneShowsTheRun: the defaults auto shows on an instance (Tune, as
// tsp engines FILE prints them) are those a run with as many workers
// takes, the 5-opt move by the round (decide) and the crowded set-up
// (crowd) included.
func TestTuneShowsTheRun(t *testing.T) {
	// 1 worker: crowded; 2: the chain alone; 3, 4: neither
	e := autoWith(t, lowCrowd(200_000))
	in := uniformInstance(2*strategy.AdaptMaxPerWorker+10000, 3)
	names := []string{OptMove, OptCandidates, OptPartKicks, OptPartShape}
	for _, w := range []int{1, 2, 3, 4} {
		set := ilsSpecs["auto"].Options(in)
		for i := range set {
			if set[i].Name == "workers" {
				set[i].Default = strconv.Itoa(w)
			}
		}
		shown := map[string]string{}
		for _, o := range e.Tune(in, set) {
			if slices.Contains(names, o.Name) {
				shown[o.Name] = o.Default
			}
		}
		got, err := e.config(in, solver.Params{Workers: w, Extra: shown})
		if err != nil {
			t.Fatalf("%d workers: the shown defaults %v: %v", w, shown, err)
		}
		p := solver.Params{Workers: w}
		run, err := e.config(in, p)
		if err != nil {
			t.Fatal(err)
		}
		planned(e, &run, in, p, w)
		if got.cfg.move != run.cfg.move || got.cfg.candidates != run.cfg.candidates ||
			got.partKicks != run.partKicks || got.partShape != run.partShape {
			t.Errorf("%d cities on %d workers: shown %v, the run takes move %v, candidates %v, neighbours %d, slice %d, kicks %v, shape %v",
				in.N, w, shown, run.cfg.move, run.cfg.candidates, run.cfg.neighbors, run.partSlice, run.partKicks, run.partShape)
		}
		t.Logf("%d workers: %v", w, shown)
	}
}
