package gpu

import (
	"context"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/tsplab/tsplab/gpu/ils"
	"github.com/tsplab/tsplab/gpu/internal/gputest"

	"github.com/tsplab/tsplab/solver"
	// the CPU engines declare the options GPU auto inherits from CPU auto
	_ "github.com/tsplab/tsplab/solver/cpu"
)

// TestCPUParams checks that the CPU auto engine gets GPU auto's
// parameters without the options only GPU auto takes (it would refuse
// them), and that the caller's map is left alone.
func TestCPUParams(t *testing.T) {
	p := solver.Params{Backend: solver.BackendGPU, Seed: 4, Extra: map[string]string{ils.OptWindow: "512",
		ils.OptWindowSegment: "50", "kicks": "10", "segment": "100"}}
	q := cpuParams(p, 0)
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
	orils := solver.OptionsFor(ils.AlgoOrILS, solver.BackendGPU)
	extra := map[string]string{}
	for _, k := range auto.Names() {
		extra[k] = "1"
	}
	p := solver.Params{Seed: 9, TimeLimit: time.Second, Extra: extra}
	q := windowParams(p)
	if q.Seed != 9 || q.TimeLimit != time.Second {
		t.Fatalf("window params %+v", q)
	}
	own := map[string]bool{ils.OptWindow: true}
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
	orils := solver.OptionsFor(ils.AlgoOrILS, solver.BackendGPU)
	for _, extra := range []map[string]string{nil, {ils.OptWindow: "512"}, {"segment": "100"}} {
		p := solver.Params{Seed: 3, Extra: extra}
		before := maps.Clone(extra)
		q := earlyParams(p)
		if g, err := orils.Float(q, ils.OptGlobal); err != nil || g != 0 {
			t.Fatalf("%v: global %v, %v", extra, g, err)
		}
		if _, ok := q.Extra["segment"]; ok || (extra[ils.OptWindow] != "" && q.Extra[ils.OptWindow] != extra[ils.OptWindow]) {
			t.Fatalf("%v gave %v", extra, q.Extra)
		}
		if !maps.Equal(extra, before) {
			t.Fatalf("the caller's options changed: %v, were %v", extra, before)
		}
	}
}

// TestTimeLeft checks the CPU auto engine's share of GPU auto's limit:
// what the GPU's start tour spent is taken off, no limit stays none, and
// a spent limit leaves a millisecond rather than 0 (which means none).
func TestTimeLeft(t *testing.T) {
	for _, c := range []struct{ limit, spent, want time.Duration }{
		{20 * time.Second, 0, 20 * time.Second},
		{20 * time.Second, 3600 * time.Millisecond, 16400 * time.Millisecond},
		{20 * time.Second, 20 * time.Second, time.Millisecond},
		{20 * time.Second, time.Minute, time.Millisecond},
		{20 * time.Second, -time.Second, 20 * time.Second},
		{0, 5 * time.Second, 0},
	} {
		if got := timeLeft(c.limit, c.spent); got != c.want {
			t.Errorf("timeLeft(%v, %v) = %v, want %v", c.limit, c.spent, got, c.want)
		}
		p := solver.Params{TimeLimit: c.limit}
		if got := cpuParams(p, c.spent).TimeLimit; got != c.want || p.TimeLimit != c.limit {
			t.Errorf("cpuParams(limit %v, spent %v) gives %v (caller's %v), want %v", c.limit, c.spent, got, p.TimeLimit, c.want)
		}
	}
}

// TestCPUAutoAfterSpentLimit runs the CPU auto engine as GPU auto composes
// it after a start tour that took the whole limit: it still returns a
// valid tour, stopped by its own budget; and run under a context whose
// deadline has passed, it returns one stopped for time.
func TestCPUAutoAfterSpentLimit(t *testing.T) {
	aided, err := solver.LookupAided(AlgoAuto, solver.BackendCPU)
	if err != nil {
		t.Skip(err)
	}
	in := gputest.HostInstance(2000, 7)
	p := solver.Params{Algorithm: AlgoAuto, Backend: solver.BackendGPU, Seed: 1, TimeLimit: time.Hour}
	q := cpuParams(p, 2*time.Hour)
	r, err := aided.SolveAided(context.Background(), in, q, nil, solver.Aid{})
	if err != nil {
		t.Fatal(err)
	}
	if err := solver.ValidateTour(r.Tour, in.N); err != nil || !r.Stopped {
		t.Fatalf("after a spent limit: tour %v, stopped %v", err, r.Stopped)
	}
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	r, err = solver.RunAided(ctx, aided, in, cpuParams(p, 0), nil, solver.Aid{}, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := solver.ValidateTour(r.Tour, in.N); err != nil || r.StopReason != solver.StopTime {
		t.Fatalf("past the context's deadline: tour %v, stop reason %v", err, r.StopReason)
	}
}

// TestPlanAuto checks GPU auto's composition by size: the CPU search
// alone below AutoBesideMinN, the windows beside its partition search
// from there, the early or-ils too from AutoOrILSMinN; neither with fixed
// edges or coordinates too wide for or-ils, and or-ils alone without the
// CPU engine from AutoOrILSMinN.
func TestPlanAuto(t *testing.T) {
	inst := func(n int, span float64, fixed bool) *solver.Instance {
		in := &solver.Instance{N: n, X: make([]float64, n), Y: make([]float64, n)}
		for i := range n {
			in.X[i] = span * float64(i) / float64(n-1)
		}
		if fixed {
			in.FixedEdges = [][2]int{{0, 1}}
		}
		return in
	}
	cases := []struct {
		name   string
		in     *solver.Instance
		hasCPU bool
		want   autoPlan
	}{
		{"below the windows", inst(AutoBesideMinN-1, 1e6, false), true, autoPlan{}},
		{"windows from their size", inst(AutoBesideMinN, 1e6, false), true, autoPlan{beside: true}},
		{"below the early or-ils", inst(AutoOrILSMinN-1, 1e6, false), true, autoPlan{beside: true}},
		{"early or-ils and windows", inst(AutoOrILSMinN, 1e6, false), true, autoPlan{early: true, beside: true}},
		{"fixed edges", inst(AutoOrILSMinN, 1e6, true), true, autoPlan{}},
		{"span too wide", inst(AutoOrILSMinN, 2*ils.OrMaxSpan, false), true, autoPlan{}},
		{"no CPU engine, small", inst(AutoOrILSMinN-1, 1e6, false), false, autoPlan{}},
		{"no CPU engine", inst(AutoOrILSMinN, 1e6, false), false, autoPlan{orOnly: true}},
	}
	for _, c := range cases {
		if got := planAuto(c.in, c.hasCPU); got != c.want {
			t.Errorf("%s (%d cities): %+v, want %+v", c.name, c.in.N, got, c.want)
		}
	}
	if AutoBesideMinN > AutoOrILSMinN {
		t.Errorf("the windows beside start at %d cities, after the early or-ils at %d", AutoBesideMinN, AutoOrILSMinN)
	}
}

// TestAutoLSDeadline: the 2opt-or descent of GPU auto's start gets a
// quarter of the limit up to autoLSDescentMax a city, and none with more
// time or no limit.
func TestAutoLSDeadline(t *testing.T) {
	start := time.Unix(1000, 0)
	cases := []struct {
		n     int
		limit time.Duration
		want  time.Duration
	}{
		{1000000, 10 * time.Second, 2500 * time.Millisecond},
		{1000000, 25 * time.Second, 6250 * time.Millisecond},
		{1000000, 30 * time.Second, 0},
		{10000000, 60 * time.Second, 15 * time.Second},
		{200000, 10 * time.Second, 0},
		{200000, 4 * time.Second, time.Second},
		{1000000, 0, 0},
	}
	for _, c := range cases {
		if got := autoLSDeadline(c.n, c.limit, start).Sub(start); got != c.want {
			t.Errorf("n %d, limit %v: descent %v, want %v", c.n, c.limit, got, c.want)
		}
	}
}
