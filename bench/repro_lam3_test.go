package bench

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tsplab/tsplab/internal/tsplibdir"
	"github.com/tsplab/tsplab/solver"
)

// TestLamTimeToThreshold: a trial restarts with the next seed until a run
// reaches the threshold (at or below it), sums its runs' times, gives each
// run the time the trial has left, stops at the cap without reaching, and
// does not count when a run fails.
func TestLamTimeToThreshold(t *testing.T) {
	type call struct {
		seed  uint64
		limit time.Duration
	}
	var calls []call
	// seeds 10, 11, 12 end at 120, 110, 100; each takes 2 s
	run := func(seed uint64, target int64, limit time.Duration) (int64, time.Duration, bool) {
		calls = append(calls, call{seed, limit})
		if target != 100 {
			t.Fatalf("target %d, want the threshold 100", target)
		}
		return 130 - 10*int64(seed-9), 2 * time.Second, true
	}
	tr := lamTimeToThreshold(run, 100, time.Minute, 10)
	if !tr.reached || tr.failed || tr.runs != 3 || tr.elapsed != 6*time.Second {
		t.Fatalf("trial %+v: want reached after 3 runs and 6 s", tr)
	}
	want := []call{{10, time.Minute}, {11, 58 * time.Second}, {12, 56 * time.Second}}
	if fmt.Sprint(calls) != fmt.Sprint(want) {
		t.Fatalf("runs %v, want %v", calls, want)
	}
	// capped: never reaching 50, 5 s of cap is three runs (2 + 2 + 2 s, the
	// last one given the 1 s left but taking 2 s)
	calls = nil
	never := func(seed uint64, target int64, limit time.Duration) (int64, time.Duration, bool) {
		calls = append(calls, call{seed, limit})
		return 60, 2 * time.Second, true
	}
	tr = lamTimeToThreshold(never, 50, 5*time.Second, 1)
	if tr.reached || tr.failed || tr.runs != 3 || tr.elapsed != 6*time.Second || calls[2].limit != time.Second {
		t.Fatalf("capped trial %+v, runs %v", tr, calls)
	}
	fail := func(seed uint64, target int64, limit time.Duration) (int64, time.Duration, bool) { return 0, 0, false }
	if tr := lamTimeToThreshold(fail, 50, 5*time.Second, 1); !tr.failed || tr.reached {
		t.Fatalf("failed run: %+v", tr)
	}
}

// TestLamTCCountsUnreachedTrials: a trial that did not reach the threshold
// is counted with the time it ran, making TC an upper bound written "≤";
// failed trials are left out; the speedup over a bounded SSPM TC is a
// lower bound and over a bounded GPU TC is n/a.
func TestLamTCCountsUnreachedTrials(t *testing.T) {
	all := summarizeTC([]lamTrial{{elapsed: time.Second, reached: true}, {elapsed: 3 * time.Second, reached: true}}, time.Minute)
	if v, ok := all.tc(); !ok || v != 50 || !all.exact() || all.cell() != "50.00" || all.mean() != 2*time.Second {
		t.Fatalf("all reached: tc %v, cell %q, mean %v", v, all.cell(), all.mean())
	}
	some := summarizeTC([]lamTrial{{elapsed: time.Second, reached: true}, {elapsed: 4 * time.Second}, {failed: true, elapsed: time.Hour}}, 4*time.Second)
	if v, ok := some.tc(); !ok || v != 40 || some.exact() || some.n != 2 {
		t.Fatalf("one unreached: %+v, tc %v", some, v)
	}
	if c := some.cell(); c != "≤ 40.00 (1 of 2 trials reached it; 1 not within 4 s) [2 of 3 trials counted: the others were cut by the stop]" {
		t.Fatalf("cell %q", c)
	}
	none := summarizeTC([]lamTrial{{elapsed: 4 * time.Second}}, 4*time.Second)
	if c := none.cell(); c != "≤ 25.00 (not reached within 4 s in any of 1 trials)" {
		t.Fatalf("cell %q", c)
	}
	if c := summarizeTC(nil, time.Second).cell(); c != "n/a" {
		t.Fatalf("no trials: %q", c)
	}
	if c := speedupCell(all, some); c != "≥ 1.2" {
		t.Fatalf("speedup over a bound: %q", c)
	}
	if c := speedupCell(all, all); c != "1.0" {
		t.Fatalf("speedup: %q", c)
	}
	if c := speedupCell(some, all); c != "n/a" {
		t.Fatalf("speedup of a bounded GPU TC: %q", c)
	}
}

// TestLamTable3Protocol runs Table 3's path on rd100 with the CPU's PSPM
// standing in for the GPU's: the threshold is the best of CPU SSPM's runs,
// every implementation's trials run, and the convergence runs happen at
// the stand-in's mean time to the threshold, their SEC in the row.
func TestLamTable3Protocol(t *testing.T) {
	dir := tsplibdir.Need(t)
	tsplibdir.Instance(t, "rd100")
	var log bytes.Buffer
	r, err := newRepro(context.Background(), "lam", Options{TSPLIBDir: dir, Quick: true, Runs: 3, Time: 2 * time.Second, Workers: 2, Only: []string{"table3"}, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	s := newLamSuite(r)
	pspm, err := solver.Lookup("pspm", solver.BackendCPU)
	if err != nil {
		t.Fatal(err)
	}
	s.eng[lamPSPM] = pspm
	in, err := r.load("rd100")
	if err != nil {
		t.Fatal(err)
	}
	x := lamT3In{name: "rd100", in: in}
	s.threshold3(newLamPool(2), 0, &x)
	if len(x.sspm) != 3 {
		t.Fatalf("%d SSPM runs for the threshold, want 3", len(x.sspm))
	}
	best := x.sspm[0].Length
	for k, res := range x.sspm {
		best = min(best, res.Length)
		if res.Algorithm != "sspm" || res.Params.Seed != uint64(k+1) || res.Params.TimeLimit != 0 || res.Params.Workers != 1 {
			t.Fatalf("threshold run %d: %s seed %d, limit %v, workers %d: want sspm, seed %d, whole schedule, one core", k, res.Algorithm, res.Params.Seed, res.Params.TimeLimit, res.Params.Workers, k+1)
		}
	}
	s.table3([]lamT3In{x})
	row := s.t3.Rows[0]
	cell := func(h string) string {
		for i, c := range s.t3.Header {
			if c == h {
				return row[i]
			}
		}
		t.Fatalf("no column %q", h)
		return ""
	}
	if got := cell("threshold (SSPM best)"); got != fmt.Sprint(best) {
		t.Fatalf("threshold %s, want the best SSPM run %d", got, best)
	}
	for _, h := range []string{"TC CPU SSPM", "TC CPU PSSM", "TC GPU PSPM"} {
		var v float64
		c := strings.TrimPrefix(cell(h), "≤ ")
		if _, err := fmt.Sscan(c, &v); err != nil || v <= 0 {
			t.Fatalf("%s = %q: want a positive TC", h, cell(h))
		}
	}
	var at float64
	if _, err := fmt.Sscan(strings.TrimPrefix(cell("GPU mean time to threshold s"), "≥ "), &at); err != nil || at <= 0 {
		t.Fatalf("GPU mean time %q", cell("GPU mean time to threshold s"))
	}
	for _, h := range []string{"SEC CPU SSPM %", "SEC CPU PSSM %", "SEC GPU PSPM %", "SEC SSPM - GPU"} {
		var v float64
		if _, err := fmt.Sscan(cell(h), &v); err != nil || v < -1000 || v > 1000 {
			t.Fatalf("%s = %q", h, cell(h))
		}
	}
	// every trial of every implementation is logged, three each
	for _, name := range lamImplName {
		if n := strings.Count(log.String(), "rd100: "+name+" trial "); n != 3 {
			t.Fatalf("%d trials of %s logged, want 3:\n%s", n, name, log.String())
		}
	}
}

// TestLamPSSMCap: CPU PSSM's trials are capped at 5x (times --scale) CPU
// SSPM's mean time to the threshold, never above the trials' cap.
func TestLamPSSMCap(t *testing.T) {
	sspm := summarizeTC([]lamTrial{{elapsed: time.Second, reached: true}, {elapsed: 3 * time.Second, reached: true}}, time.Minute)
	for _, c := range []struct {
		time  time.Duration
		scale float64
		want  time.Duration
	}{
		{time.Minute, 0, 10 * time.Second},
		{time.Minute, 0.2, 2 * time.Second},
		{5 * time.Second, 0, 5 * time.Second},
	} {
		s := &lamSuite{repro: &repro{opt: Options{Time: c.time, Scale: c.scale}}}
		if got := s.pssmCap(sspm); got != c.want {
			t.Errorf("--time %v --scale %g: cap %v, want %v", c.time, c.scale, got, c.want)
		}
		if got := s.pssmCap(lamTC{}); got != c.time {
			t.Errorf("no SSPM trials: cap %v, want --time %v", got, c.time)
		}
	}
}

// TestLamSlotsServeLowestFirst: a freed core goes to the waiting run of
// the lowest priority number, whatever the order they began to wait in.
func TestLamSlotsServeLowestFirst(t *testing.T) {
	l := newLamSlots(1)
	l.acquire(0) // the one slot, taken
	got := make(chan int, 3)
	for i, prio := range []int{5, 2, 9} {
		go func() {
			l.acquire(prio)
			got <- prio
			l.release()
		}()
		// wait until it waits, so the arrival order is 5, 2, 9
		for deadline := time.Now().Add(5 * time.Second); ; {
			l.mu.Lock()
			n := 0
			for _, c := range l.wait {
				n += c
			}
			l.mu.Unlock()
			if n == i+1 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("the waiter never waited")
			}
			time.Sleep(time.Millisecond)
		}
	}
	l.release()
	var order []int
	for range 3 {
		order = append(order, <-got)
	}
	if fmt.Sprint(order) != "[2 5 9]" {
		t.Fatalf("served %v, want [2 5 9]", order)
	}
}

// lamFake is an engine for Table 3's bookkeeping: with reach it ends at
// once on a tour of length 100; without, it runs until the suite is
// stopped and then returns, as the engines do, the long tour it had.
type lamFake struct {
	name  string
	reach bool
}

func (f lamFake) Name() string     { return f.name }
func (f lamFake) Backend() string  { return solver.BackendCPU }
func (f lamFake) Describe() string { return "test engine" }
func (f lamFake) Available() error { return nil }
func (f lamFake) Solve(ctx context.Context, in *solver.Instance, p solver.Params, _ chan solver.Snapshot) (solver.Result, error) {
	if f.reach {
		// a second to the threshold, so that the convergence runs' limit (the run's context deadline) outlasts the suite's stop
		return solver.Result{Length: 100, Elapsed: time.Second, Params: p}, nil
	}
	<-ctx.Done()
	return solver.Result{Length: 1_000_000, Elapsed: time.Second, Params: p, Stopped: true, StopReason: solver.StopInterrupt}, nil
}

// TestLamTable3StoppedRunsDoNotCount: runs cut short by the suite's stop
// count neither as trials nor as convergence runs (their tours are the
// ones in hand at the stop): the cells read n/a, while the trials that
// ended before the stop do count.
func TestLamTable3StoppedRunsDoNotCount(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, err := newRepro(ctx, "lam", Options{TSPLIBDir: "unused", Runs: 2, Time: time.Minute, Workers: 4})
	if err != nil {
		t.Fatal(err)
	}
	s := newLamSuite(r)
	s.eng = [3]solver.Engine{lamSSPM: lamFake{name: "sspm"}, lamPSSM: lamFake{name: "pssm"}, lamPSPM: lamFake{name: "pspm", reach: true}}
	in := solver.NewCoordInstance("sq", solver.Euc2D, []float64{0, 10, 10, 0}, []float64{0, 0, 10, 10}, nil)
	in.Optimum = 100
	x := lamT3In{name: "sq", in: in, sspm: lamRuns{{Length: 100, Elapsed: 10 * time.Millisecond}}}
	go func() {
		time.Sleep(200 * time.Millisecond)
		cancel()
	}()
	s.table3([]lamT3In{x})
	row := s.t3.Rows[0]
	want := map[string]string{"TC CPU SSPM": "n/a [0 of 2 trials counted: the others were cut by the stop]", "TC CPU PSSM": "n/a [0 of 2 trials counted: the others were cut by the stop]", "TC GPU PSPM": "100.00", "GPU mean time to threshold s": "1.000",
		"SEC CPU SSPM %": "n/a", "SEC CPU PSSM %": "n/a", "SEC GPU PSPM %": "0.00"}
	for i, h := range s.t3.Header {
		if w, ok := want[h]; ok && row[i] != w {
			t.Errorf("%s = %q, want %q", h, row[i], w)
		}
	}
}
