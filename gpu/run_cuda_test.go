//go:build cuda

package gpu

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"gorgonia.org/cu"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/gpu/ils"
	"github.com/tsplab/tsplab/internal/gputest"
	"github.com/tsplab/tsplab/lab/gpu/climb"
	"github.com/tsplab/tsplab/lab/gpu/pspm"
	"github.com/tsplab/tsplab/solver"
)

// Two GPU runs at the same time, each on its own streams, give exactly the
// tours they give alone (both engines are deterministic for a seed): no
// run reads or waits on the other's state.
func TestConcurrentRunsMatchSoloRuns(t *testing.T) {
	gputest.NeedDevice(t)
	in := gputest.RandomInstance(400, solver.Euc2D, 10000, 31)
	type job struct {
		algo string
		p    solver.Params
	}
	q := gputest.QuickParams(3)
	q.TimeLimit = 0
	jobs := []job{{pspm.AlgoPSPM, q}, {pspm.AlgoSSPM, q}}
	solve := func(j job) (solver.Result, error) {
		e, err := solver.Lookup(j.algo, solver.BackendGPU)
		if err != nil {
			return solver.Result{}, err
		}
		return e.Solve(context.Background(), in, gputest.Takes(j.algo, j.p), solver.Latest())
	}
	solo := make([]solver.Result, len(jobs))
	for i, j := range jobs {
		r, err := solve(j)
		if err != nil {
			t.Fatalf("%s alone: %v", j.algo, err)
		}
		gputest.CheckResult(t, j.algo+" alone", in, r)
		solo[i] = r
	}
	for round := 0; round < 3; round++ {
		both := make([]solver.Result, len(jobs))
		errs := make([]error, len(jobs))
		var wg sync.WaitGroup
		for i, j := range jobs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				both[i], errs[i] = solve(j)
			}()
		}
		wg.Wait()
		for i, j := range jobs {
			if errs[i] != nil {
				t.Fatalf("%s concurrently: %v", j.algo, errs[i])
			}
			gputest.CheckResult(t, j.algo+" concurrently", in, both[i])
			if both[i].Length != solo[i].Length || fmt.Sprint(both[i].Tour) != fmt.Sprint(solo[i].Tour) {
				t.Fatalf("%s concurrently: length %d, alone %d (or a different tour)", j.algo, both[i].Length, solo[i].Length)
			}
		}
	}
}

// Two different engines (annealing and 2-opt ILS) run side by side under a
// time limit, as two panes of the app do; both return checked tours.
func TestConcurrentEnginesBothFinish(t *testing.T) {
	gputest.NeedDevice(t)
	in := gputest.RandomInstance(2000, solver.Euc2D, 100000, 32)
	algos := []string{pspm.AlgoPSPM, climb.AlgoTwoOptILS, ils.AlgoThreeOptILS}
	res := make([]solver.Result, len(algos))
	errs := make([]error, len(algos))
	var wg sync.WaitGroup
	for i, a := range algos {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e, err := solver.Lookup(a, solver.BackendGPU)
			if err != nil {
				errs[i] = err
				return
			}
			res[i], errs[i] = solver.RunAided(context.Background(), e, in, solver.Params{Seed: 1, TimeLimit: 700 * time.Millisecond}, solver.Latest(), solver.Aid{}, false)
		}()
	}
	wg.Wait()
	for i, a := range algos {
		if errs[i] != nil {
			t.Fatalf("%s: %v", a, errs[i])
		}
		gputest.CheckResult(t, a, in, res[i])
		t.Logf("%s: %d in %v", a, res[i].Length, res[i].Elapsed)
	}
}

// afterFaultRunWorks fails t unless a PSPM run right after works.
func afterFaultRunWorks(t *testing.T, what string) {
	t.Helper()
	in := gputest.RandomInstance(100, solver.Euc2D, 1000, 33)
	e, _ := solver.Lookup(pspm.AlgoPSPM, solver.BackendGPU)
	p := gputest.QuickParams(9)
	p.TimeLimit = 0
	r, err := e.Solve(context.Background(), in, p, nil)
	if err != nil {
		t.Fatalf("the run after %s: %v", what, err)
	}
	gputest.CheckResult(t, "the run after "+what, in, r)
}

// A run the device refuses (more threads per block than it has, more
// searches than its memory holds, a launch it cannot run) ends with one
// clear line and the next run works.
func TestRefusedRunsLeaveTheContextUsable(t *testing.T) {
	gputest.NeedDevice(t)
	in := gputest.RandomInstance(493, solver.Euc2D, 10000, 34)
	annealer, _ := solver.Lookup(pspm.AlgoPSPM, solver.BackendGPU)
	p := gputest.QuickParams(1)
	p = p.WithExtra("threads", "4096") // past every range: Set would refuse it here
	_, err := annealer.Solve(context.Background(), in, p, nil)
	gputest.OneLine(t, "threads 4096", err)
	afterFaultRunWorks(t, "threads 4096")

	p = gputest.QuickParams(1)
	p = p.WithExtra("blocks", fmt.Sprint(1<<30))
	start := time.Now()
	_, err = annealer.Solve(context.Background(), in, p, nil)
	gputest.OneLine(t, "blocks 2^30", err)
	if !strings.Contains(err.Error(), "blocks") {
		t.Fatalf("blocks 2^30: %v does not name the blocks", err)
	}
	t.Logf("refused in %v", time.Since(start))
	afterFaultRunWorks(t, "blocks 2^30")

	r := gputest.NeedRun(t)
	err = r.Do(func() error {
		// a block larger than any device allows: refused at launch
		return r.Launch("test_fault", 1, 1, 4096, 0, r.Stream, cu.DevicePtr(0))
	})
	gputest.OneLine(t, "block of 4096 threads", err)
	afterFaultRunWorks(t, "a refused launch")
}

// A kernel that faults with an illegal address (a sticky error: CUDA
// documents it as ending CUDA for the process) ends its run with one error
// line; then either the reset context works again, or every later run and
// Available say in one line that the GPU is lost (ErrContextLost), so the
// program can go on on the CPU. The fault runs in a child process (this
// test binary again), so it cannot break the other device tests.
func TestStickyFaultEndsItsRunClearly(t *testing.T) {
	gputest.NeedDevice(t)
	if os.Getenv("TSPLAB_FAULT_CHILD") != "" {
		stickyFaultChild(t)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^TestStickyFaultEndsItsRunClearly$", "-test.v")
	cmd.Env = append(os.Environ(), "TSPLAB_FAULT_CHILD=1")
	out, err := cmd.CombinedOutput()
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		t.Log("child: " + l)
	}
	if err != nil {
		t.Fatalf("the child test failed: %v", err)
	}
}

func stickyFaultChild(t *testing.T) {
	r, err := device.NewRun()
	if err != nil {
		t.Fatal(err)
	}
	err = r.Do(func() error {
		if err := r.Launch("test_fault", 1, 1, 1, 0, r.Stream, cu.DevicePtr(16)); err != nil {
			return err
		}
		return r.Sync("test_fault")
	})
	gputest.OneLine(t, "illegal address", err)
	if !errors.Is(err, cu.IllegalAddress) {
		t.Fatalf("want an error wrapping IllegalAddress, got %v", err)
	}
	if r2, err := device.NewRun(); err == nil {
		r2.Close()
		t.Fatal("a run opened while the faulted run still holds the broken context")
	}
	r.Close()
	if err := device.Available(); err != nil {
		gputest.OneLine(t, "Available after the fault", err)
		if !errors.Is(err, device.ErrContextLost) {
			t.Fatalf("Available after an unrecovered fault: %v, want ErrContextLost", err)
		}
		e, _ := solver.Lookup(pspm.AlgoPSPM, solver.BackendGPU)
		_, err := e.Solve(context.Background(), gputest.RandomInstance(100, solver.Euc2D, 1000, 33), gputest.QuickParams(1), nil)
		if !errors.Is(err, device.ErrContextLost) {
			t.Fatalf("a run after an unrecovered fault: %v, want ErrContextLost", err)
		}
		gputest.OneLine(t, "a run after the fault", err)
		t.Log("the driver did not let the context recover; the GPU reports itself lost")
		return
	}
	afterFaultRunWorks(t, "an illegal address")
	t.Log("the reset context works again")
}

// On a million cities every set-up phase (candidate lists, the start tour,
// the uploads, a 2-opt pass of 5·10^11 moves, the annealing launches) gives
// way to the time limit: each engine returns a checked tour instead of
// running on for minutes. The bound is generous (the limit plus the CPU
// set-up that cannot be interrupted mid-step: the space-filling-curve
// fallback and the exact length); a hang fails it by far.
func TestMillionCitiesHonourTheTimeLimit(t *testing.T) {
	gputest.NeedDevice(t)
	if testing.Short() {
		t.Skip("a million cities: not in -short")
	}
	in := gputest.RandomInstance(1000000, solver.Euc2D, 1e6, 35)
	const limit = 2 * time.Second
	for _, a := range []string{climb.AlgoTwoOptClimb, climb.AlgoTwoOptILS, pspm.AlgoPSPM, ils.AlgoThreeOptILS, AlgoAuto} {
		e, err := solver.Lookup(a, solver.BackendGPU)
		if err != nil {
			t.Fatal(err)
		}
		snaps := solver.Latest()
		start := time.Now()
		r, err := solver.RunAided(context.Background(), e, in, solver.Params{Seed: 1, TimeLimit: limit}, snaps, solver.Aid{}, false)
		took := time.Since(start)
		if err != nil {
			t.Fatalf("%s: %v", a, err)
		}
		gputest.CheckResult(t, a, in, r)
		t.Logf("%s: %d after %v (limit %v)", a, r.Length, took, limit)
		if took > limit+15*time.Second {
			t.Errorf("%s: took %v for a %v limit", a, took, limit)
		}
	}
}
