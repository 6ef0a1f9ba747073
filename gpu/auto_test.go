package gpu

import (
	"context"
	"testing"
	"time"

	"github.com/tsplab/tsplab/gpu/ils"
	"github.com/tsplab/tsplab/internal/gputest"

	"github.com/tsplab/tsplab/solver"
	// the CPU engines declare the options GPU auto inherits from CPU auto
	_ "github.com/tsplab/tsplab/solver/cpu"
	cpuils "github.com/tsplab/tsplab/solver/cpu/ils"
	"github.com/tsplab/tsplab/solver/strategy"
)

// TestAutoPartitionOff: with a GPU present and partition=off from 50,000
// cities, GPU auto's one decision, from CPU auto's facts with every option
// given, takes no partition search, so the CPU run is handed no GPU
// windows and the account says that the CPU searched alone; the default
// takes the partition search with the windows beside it.
func TestAutoPartitionOff(t *testing.T) {
	in := gputest.HostInstance(strategy.PartitionMinN, 3)
	for _, c := range []struct {
		settings []string // CPU auto's config is its package's own: its options as --opt gives them
		windows  bool
	}{
		{nil, true},
		{[]string{cpuils.OptPartition + "=off"}, false},
	} {
		p := withOpts(t, solver.Params{Workers: 2, TimeLimit: 10 * time.Second}, c.settings...)
		cfg, err := prepareAuto(in, p)
		if err != nil {
			t.Fatal(err)
		}
		st := decideAuto(in, p, p.TimeLimit, cfg)
		if st.GPU.Windows != c.windows || (st.Search == strategy.Partition) != c.windows || !st.GPU.Ascent {
			t.Fatalf("%v: %v, windows %v", c.settings, st, st.GPU.Windows)
		}
		if cpuAlone(st, false) == c.windows {
			t.Errorf("%v: the account's CPU alone is %v", c.settings, cpuAlone(st, false))
		}
	}
}

// cpuParams is p for the CPU auto engine that GPU auto runs.
func cpuParams(p solver.Params) solver.Params {
	_, cpu := splitParams(p)
	return cpu
}

// TestCPUAutoAfterSpentLimit runs the CPU auto engine as GPU auto composes
// it after a start tour that took the whole limit (its context's deadline
// passed): it still returns a valid tour, stopped; and run through
// RunAided under such a context, it returns one stopped for time.
func TestCPUAutoAfterSpentLimit(t *testing.T) {
	in := gputest.HostInstance(2000, 7)
	p := solver.Params{Algorithm: AlgoAuto, Backend: solver.BackendGPU, Seed: 1, TimeLimit: time.Hour}
	spent, stop := context.WithDeadlineCause(context.Background(), time.Now().Add(-time.Hour), solver.ErrTimeLimit)
	defer stop()
	r, err := cpuils.Auto().SolveAided(spent, in, cpuParams(p), nil, solver.Aid{})
	if err != nil {
		t.Fatal(err)
	}
	if err := solver.ValidateTour(r.Tour, in.N); err != nil || !r.Stopped {
		t.Fatalf("after a spent limit: tour %v, stopped %v", err, r.Stopped)
	}
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	r, err = solver.RunAided(ctx, cpuils.Auto(), in, cpuParams(p), nil, solver.Aid{}, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := solver.ValidateTour(r.Tour, in.N); err != nil || r.StopReason != solver.StopTime {
		t.Fatalf("past the context's deadline: tour %v, stop reason %v", err, r.StopReason)
	}
}

// TestAutoFacts checks GPU auto's roles by size as its one decision
// gives them: the CPU search alone below GPUWindowsMinN, the windows
// beside its partition search from there, the early or-ils and the GPU's
// start descent too from GPUEarlyMinN; neither with fixed edges or
// coordinates too wide for or-ils, nor the windows with beside=0.
func TestAutoFacts(t *testing.T) {
	inst := func(n int, span float64, fixed bool) *solver.Instance {
		in := &solver.Instance{N: n, Metric: solver.Euc2D, X: make([]float64, n), Y: make([]float64, n)}
		for i := range n {
			in.X[i] = span * float64(i) / float64(n-1)
			in.Y[i] = span * float64((i*7919)%n) / float64(n-1)
		}
		if fixed {
			in.FixedEdges = [][2]int{{0, 1}}
		}
		return in
	}
	type roles struct{ windows, early, descent bool }
	cases := []struct {
		name      string
		in        *solver.Instance
		noWindows bool // as beside=0 gives it (TestPrepareAuto)
		want      roles
	}{
		{"below the windows", inst(strategy.GPUWindowsMinN-1, 1e6, false), false, roles{}},
		{"windows from their size", inst(strategy.GPUWindowsMinN, 1e6, false), false, roles{windows: true}},
		{"windows off", inst(strategy.GPUWindowsMinN, 1e6, false), true, roles{}},
		{"below the early or-ils", inst(strategy.GPUEarlyMinN-1, 1e6, false), false, roles{windows: true}},
		{"early or-ils and windows", inst(strategy.GPUEarlyMinN, 1e6, false), false, roles{true, true, true}},
		{"fixed edges", inst(strategy.GPUEarlyMinN, 1e6, true), false, roles{}},
		{"span too wide", inst(strategy.GPUEarlyMinN, 2*ils.OrMaxSpan, false), false, roles{}},
	}
	for _, c := range cases {
		p := solver.Params{Workers: 2, TimeLimit: 10 * time.Second}
		cfg, err := prepareAuto(c.in, p)
		if err != nil {
			t.Fatal(err)
		}
		cfg.noWindows = c.noWindows
		st := decideAuto(c.in, p, p.TimeLimit, cfg)
		got := roles{st.GPU.Windows, st.GPU.Early, st.Start == strategy.StartGPUDescent}
		if got != c.want || !st.GPU.Ascent || st.GPU.Pool {
			t.Errorf("%s (%d cities): %+v, want %+v", c.name, c.in.N, st.GPU, c.want)
		}
	}
}
