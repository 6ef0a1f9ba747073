package gpu

import (
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver"
	// the CPU engines declare the options GPU auto inherits from CPU auto
	_ "github.com/tsplab/tsplab/solver/cpu"
)

// TestCPUParams checks that the CPU auto engine gets GPU auto's
// parameters without the options only GPU auto takes (it would refuse
// them), and that the caller's map is left alone.
func TestCPUParams(t *testing.T) {
	p := solver.Params{Backend: solver.BackendGPU, Seed: 4, Extra: map[string]string{OptWindow: "512",
		OptWindowSegment: "50", "kicks": "10", "segment": "100"}}
	q := cpuParams(p)
	if q.Backend != solver.BackendCPU || q.Seed != 4 || len(q.Extra) != 2 || q.Extra["kicks"] != "10" || q.Extra["segment"] != "100" {
		t.Fatalf("CPU params %+v", q)
	}
	if len(p.Extra) != 4 {
		t.Fatalf("the caller's options changed: %v", p.Extra)
	}
	cpuOpts := solver.OptionsFor(AlgoAuto, solver.BackendCPU)
	for k := range q.Extra {
		if _, ok := cpuOpts.Lookup(k); !ok {
			t.Fatalf("the CPU auto engine has no option %s", k)
		}
	}
	gpuOpts := solver.OptionsFor(AlgoAuto, solver.BackendGPU)
	for _, k := range autoOnly {
		if _, ok := gpuOpts.Lookup(k); !ok {
			t.Fatalf("GPU auto has no option %s", k)
		}
	}
	for _, k := range gpuOpts.Names() {
		if _, ok := cpuOpts.Lookup(k); !ok && !slices.Contains(autoOnly, k) {
			t.Fatalf("GPU auto's option %s reaches the CPU auto engine, which has none", k)
		}
	}
}

// TestWindowParams checks that GPU auto's windows get none of the CPU auto
// engine's options that or-ils also reads: of the names both GPU auto and
// or-ils take, only the windows' own (window) reaches them, so a
// value in the CPU engine's range (segment up to 2^20) can never stop the
// windows with or-ils's narrower one. The caller's map is left alone.
func TestWindowParams(t *testing.T) {
	auto := solver.OptionsFor(AlgoAuto, solver.BackendGPU)
	orils := solver.OptionsFor(AlgoOrILS, solver.BackendGPU)
	extra := map[string]string{}
	for _, k := range auto.Names() {
		extra[k] = "1"
	}
	p := solver.Params{Seed: 9, TimeLimit: time.Second, Extra: extra}
	q := windowParams(p)
	if q.Seed != 9 || q.TimeLimit != time.Second {
		t.Fatalf("window params %+v", q)
	}
	own := map[string]bool{OptWindow: true}
	shared := 0
	for _, k := range auto.Names() {
		if _, ok := orils.Lookup(k); !ok {
			continue
		}
		shared++
		if _, ok := q.Extra[k]; ok != own[k] {
			t.Errorf("option %s reaches the windows: %v, want %v", k, ok, own[k])
		}
	}
	if shared < 2 {
		t.Fatalf("only %d names shared by GPU auto and or-ils: the test lost its point", shared)
	}
	if len(p.Extra) != len(auto.Names()) || p.Extra["segment"] != "1" {
		t.Fatalf("the caller's options changed: %v", p.Extra)
	}
	if r := windowParams(solver.Params{}); r.Extra != nil {
		t.Fatalf("no options gave %v", r.Extra)
	}
}

// TestEarlyParams: or-ils before the CPU engine's first tour runs without
// global passes, a value or-ils's option table takes, and the caller's
// options are left alone.
func TestEarlyParams(t *testing.T) {
	orils := solver.OptionsFor(AlgoOrILS, solver.BackendGPU)
	for _, extra := range []map[string]string{nil, {OptWindow: "512"}, {"segment": "100"}} {
		p := solver.Params{Seed: 3, Extra: extra}
		before := maps.Clone(extra)
		q := earlyParams(p)
		if g, err := orils.Float(q, OptGlobal); err != nil || g != 0 {
			t.Fatalf("%v: global %v, %v", extra, g, err)
		}
		if _, ok := q.Extra["segment"]; ok || (extra[OptWindow] != "" && q.Extra[OptWindow] != extra[OptWindow]) {
			t.Fatalf("%v gave %v", extra, q.Extra)
		}
		if !maps.Equal(extra, before) {
			t.Fatalf("the caller's options changed: %v, were %v", extra, before)
		}
	}
}
