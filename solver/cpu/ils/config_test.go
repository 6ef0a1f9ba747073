package ils

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/tsplab/tsplab/lab/cpu/climb"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/strategy"
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
		for _, nw := range [][2]string{{OptCandidates, []string{"nearest", "quadrant", "union", "mixed", "alpha"}[tc.w.candidates]}, {OptStale, strconv.Itoa(tc.w.stale)}} {
			if op, _ := opts.Lookup(nw[0]); op.Default != nw[1] {
				t.Errorf("n=%d: %s shows default %q, want %q", tc.n, nw[0], op.Default, nw[1])
			}
		}
	}
	small := uniformInstance(500, 1)
	o, err := ie.config(small, withOpts(solver.Params{}, OptOr3+"=off", OptStale+"=20", OptCandidates+"=mixed"))
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
				p := withOpts(solver.Params{}, o.Name+"="+o.Default)
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
		w    int
		opts []string
		want deepMove
	}{
		{1, nil, deepChain},
		{2, nil, deepAdapt},
		{16, nil, deepAdapt},
		{1, []string{OptMove + "=adapt"}, deepAdapt},
		{2, []string{OptMove + "=lk5"}, deepLK5},
	} {
		p := withOpts(solver.Params{Seed: 1, Workers: tc.w}, tc.opts...)
		o, err := e.(ilsEngine).config(in, p)
		if err != nil {
			t.Fatal(err)
		}
		planned(e.(ilsEngine), &o, in, p, tc.w)
		if o.cfg.move != tc.want {
			t.Errorf("%d cities on %d workers, options %v: move %v, want %v", in.N, tc.w, tc.opts, o.cfg.move, tc.want)
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
		var shown []string
		for _, o := range e.Tune(in, set) {
			if slices.Contains(names, o.Name) {
				shown = append(shown, o.Name+"="+o.Default)
			}
		}
		got, err := e.config(in, withOpts(solver.Params{Workers: w}, shown...))
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

// TestAutoComposedRefusesOthers: auto's config, prepared for a composing
// engine (Auto), refuses an option auto does not take (the composing
// engine hands only auto's).
func TestAutoComposedRefusesOthers(t *testing.T) {
	p := withOpts(solver.Params{Seed: 1, Workers: 2}, OptKicks+"=20", "window=5")
	if _, err := Auto().Prepare(uniformInstance(300, 4), p); err == nil {
		t.Error("auto's config took an option it does not declare")
	}
}

// TestEnginesRefuseBadText: an option text out of range or of the wrong
// kind, or an option the engine does not take, as --opt hands it over
// (Params.Set, which checks a shared option's widest range itself), is a
// *solver.ParamError before any search: never a panic, an allocation that
// cannot succeed or an overflow (N·sweeps once made an empty schedule).
func TestEnginesRefuseBadText(t *testing.T) {
	for _, c := range []struct {
		name     string
		n        int
		settings []string
	}{
		{"pspm", 20, []string{"alpha=1.5"}},
		{"sa", 20, []string{"t0=1", "tend=2"}},
		{"sspm", 20, []string{"sweeps=-1"}},
		{"3opt-ils", 20, []string{OptPivot + "=best-ever"}},
		{"auto", 20, []string{OptKicks + "=many"}},
		{"2opt-climb", 20, []string{climb.OptRestarts + "=-3"}},
		{"auto", 20, []string{OptCandidates + "=farthest"}},
		{"auto", 20, []string{OptThreeOpt + "=maybe"}},
		{"auto", 20, []string{OptAccept + "=worse"}},
		{"2opt-ils", 20, []string{"rkbi=3"}},
		{"sa", 2000, []string{fmt.Sprint("blocks=", 1<<62)}},
		{"sa", 2000, []string{fmt.Sprint("blocks=", 100_000_000)}},
		{"pspm", 2000, []string{fmt.Sprint("threads=", 1<<40)}},
		{"pspm", 2000, []string{fmt.Sprint("threads=", math.MaxInt64)}},
		{"sspm", 2000, []string{fmt.Sprint("threads=", math.MaxInt64-1)}},
		{"sa", 2000, []string{fmt.Sprint("sweeps=", math.MaxInt64)}},
		{"auto", 2000, []string{OptRKBI + "=99999999999", OptPivot + "=rkbi"}},
	} {
		var p solver.Params
		var err error
		for _, s := range c.settings {
			if err = p.Set(s); err != nil {
				break
			}
		}
		if err == nil {
			_, err = solveWithin(t, 20*time.Second, context.Background(), c.name, uniformInstance(c.n, 1), p)
		}
		var pe *solver.ParamError
		if !errors.As(err, &pe) {
			t.Errorf("%s %v: %v, want a *solver.ParamError", c.name, c.settings, err)
		}
	}
}
