package cpu

import (
	"testing"

	"github.com/tsplab/tsplab/solver"
)

// TestSmallDefaults checks auto's defaults below and above smallN cities,
// as the options report them and as a run reads them, and that an
// explicit option still wins.
func TestSmallDefaults(t *testing.T) {
	e, _ := solver.Lookup("auto", solver.BackendCPU)
	ie := e.(ilsEngine)
	small, large := uniformInstance(500, 1), uniformInstance(smallN, 1)
	for _, tc := range []struct {
		in         *solver.Instance
		or3        bool
		stale      int
		candidates string
	}{{small, true, 3, "nearest"}, {large, false, 20, "mixed"}} {
		opts := solver.EffectiveOptions(e, tc.in)
		for name, want := range map[string]string{OptOr3: map[bool]string{true: "on", false: "off"}[tc.or3], OptCandidates: tc.candidates} {
			if o, _ := opts.Lookup(name); o.Default != want {
				t.Errorf("n=%d: %s default %q, want %q", tc.in.N, name, o.Default, want)
			}
		}
		cfg, _, _, _, err := ie.config(tc.in, solver.Params{})
		if err != nil {
			t.Fatal(err)
		}
		if cfg.or3 != tc.or3 || cfg.stale != tc.stale || cfg.candidates != tc.candidates {
			t.Errorf("n=%d: run reads or3 %v stale %d candidates %s, want %v %d %s", tc.in.N, cfg.or3, cfg.stale, cfg.candidates, tc.or3, tc.stale, tc.candidates)
		}
	}
	cfg, _, _, _, err := ie.config(small, solver.Params{Extra: map[string]string{OptOr3: "off", OptStale: "20", OptCandidates: "mixed"}})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.or3 || cfg.stale != 20 || cfg.candidates != "mixed" {
		t.Errorf("explicit options lost: or3 %v stale %d candidates %s", cfg.or3, cfg.stale, cfg.candidates)
	}
	// depth 2 and long kicks from deepMinN cities: up to deepMaxN (the
	// partition search's threshold) for the whole-tour workers, from there
	// for the partition search
	for _, tc := range []struct{ n, depth, seg int }{{deepMinN - 1, 1, 30}, {deepMinN, 2, deepSegment}, {deepMaxN - 1, 2, deepSegment}, {partMinN, 2, 200}} {
		cfg, _, _, _, err := ie.config(uniformInstance(tc.n, 2), solver.Params{})
		if err != nil || cfg.depth != tc.depth || cfg.maxSeg != tc.seg {
			t.Errorf("n=%d: depth %d segment %d, want %d %d (%v)", tc.n, cfg.depth, cfg.maxSeg, tc.depth, tc.seg, err)
		}
	}
	// alpha-nearness lists from alphaMinN cities up to smallN
	for _, tc := range []struct {
		n    int
		want string
	}{{alphaMinN - 1, "nearest"}, {alphaMinN, "alpha"}, {smallN - 1, "alpha"}, {smallN, "mixed"}} {
		cfg, _, _, _, err := ie.config(uniformInstance(tc.n, 3), solver.Params{})
		if err != nil || cfg.candidates != tc.want {
			t.Errorf("n=%d: candidates %s, want %s (%v)", tc.n, cfg.candidates, tc.want, err)
		}
	}
	// the 5-opt move below lk5MaxN cities, with 5 alpha-nearness
	// candidates where the lists are alpha's
	for _, tc := range []struct {
		n, k int
		move string
	}{{500, 8, "lk5"}, {alphaMinN, alphaNeighbors, "lk5"}, {smallN, 8, "lk5"}, {lk5MaxN - 1, 8, "lk5"}, {lk5MaxN, 8, "chain"}} {
		cfg, _, _, _, err := ie.config(uniformInstance(tc.n, 4), solver.Params{})
		if err != nil || cfg.move != tc.move || cfg.neighbors != tc.k {
			t.Errorf("n=%d: move %s neighbors %d, want %s %d (%v)", tc.n, cfg.move, cfg.neighbors, tc.move, tc.k, err)
		}
	}
	// the other engines keep the table's defaults
	e3, _ := solver.Lookup("3opt-ils", solver.BackendCPU)
	cfg, _, _, _, err = e3.(ilsEngine).config(small, solver.Params{})
	if err != nil || cfg.or3 || cfg.stale != 0 || cfg.candidates != "nearest" || cfg.move != "chain" {
		t.Errorf("3opt-ils: or3 %v stale %d candidates %s move %s (%v)", cfg.or3, cfg.stale, cfg.candidates, cfg.move, err)
	}
}
