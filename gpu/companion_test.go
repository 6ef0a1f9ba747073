package gpu

import (
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// TestCPUParams checks that the CPU auto engine gets GPU auto's
// parameters without the options only GPU auto takes (it would refuse
// them), and that the caller's map is left alone.
func TestCPUParams(t *testing.T) {
	p := solver.Params{Backend: solver.BackendGPU, Seed: 4, Extra: map[string]string{OptCompanion: "0.5", OptWindow: "512",
		OptWindowMoves: "3opt", OptWindowSegment: "50", "kicks": "10", "segment": "100"}}
	q := cpuParams(p)
	if q.Backend != solver.BackendCPU || q.Seed != 4 || len(q.Extra) != 2 || q.Extra["kicks"] != "10" || q.Extra["segment"] != "100" {
		t.Fatalf("CPU params %+v", q)
	}
	if len(p.Extra) != 6 {
		t.Fatalf("the caller's options changed: %v", p.Extra)
	}
	cpuOpts := solver.OptionsFor(AlgoAuto, solver.BackendCPU)
	for k := range q.Extra {
		if _, ok := cpuOpts.Lookup(k); !ok {
			t.Fatalf("the CPU auto engine has no option %s", k)
		}
	}
	for _, k := range companionOnly {
		if _, ok := solver.OptionsFor(AlgoAuto, solver.BackendGPU).Lookup(k); !ok {
			t.Fatalf("GPU auto has no option %s", k)
		}
	}
	for _, c := range []struct {
		v    string
		want time.Duration
		ok   bool
	}{{"", 500 * time.Millisecond, true}, {"0", 0, true}, {"0.25", 250 * time.Millisecond, true}, {"-1", 0, false}, {"x", 0, false}} {
		q := solver.Params{Extra: map[string]string{OptCompanion: c.v}}
		got, err := companionEvery(q)
		if (err == nil) != c.ok || (c.ok && got != c.want) {
			t.Errorf("companion=%q: %v, %v", c.v, got, err)
		}
	}
}
