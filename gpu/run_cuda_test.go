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

	"github.com/tsplab/tsplab/solver"
)

func init() { registerKernels("test_fault") }

// checkResult fails t unless r's tour is a valid tour of in whose length is
// the reported one, recomputed exactly.
func checkResult(t *testing.T, name string, in *solver.Instance, r solver.Result) {
	t.Helper()
	if err := solver.ValidateTour(r.Tour, in.N); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if l := solver.TourLength(in, r.Tour); l != r.Length {
		t.Fatalf("%s: reported length %d, exact %d", name, r.Length, l)
	}
}

// Two GPU runs at the same time, each on its own streams, give exactly the
// tours they give alone (both engines are deterministic for a seed): no
// run reads or waits on the other's state.
func TestConcurrentRunsMatchSoloRuns(t *testing.T) {
	needDevice(t)
	in := randomInstance(400, solver.Euc2D, 10000, 31)
	type job struct {
		algo string
		p    solver.Params
	}
	pspm := quickParams(3)
	pspm.TimeLimit = 0
	jobs := []job{{AlgoPSPM, pspm}, {AlgoSSPM, pspm}}
	solve := func(j job) (solver.Result, error) {
		e, err := solver.Lookup(j.algo, solver.BackendGPU)
		if err != nil {
			return solver.Result{}, err
		}
		return e.Solve(context.Background(), in, takes(j.algo, j.p), solver.Latest())
	}
	solo := make([]solver.Result, len(jobs))
	for i, j := range jobs {
		r, err := solve(j)
		if err != nil {
			t.Fatalf("%s alone: %v", j.algo, err)
		}
		checkResult(t, j.algo+" alone", in, r)
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
			checkResult(t, j.algo+" concurrently", in, both[i])
			if both[i].Length != solo[i].Length || fmt.Sprint(both[i].Tour) != fmt.Sprint(solo[i].Tour) {
				t.Fatalf("%s concurrently: length %d, alone %d (or a different tour)", j.algo, both[i].Length, solo[i].Length)
			}
		}
	}
}

// Two different engines (annealing and 2-opt ILS) run side by side under a
// time limit, as two panes of the app do; both return checked tours.
func TestConcurrentEnginesBothFinish(t *testing.T) {
	needDevice(t)
	in := randomInstance(2000, solver.Euc2D, 100000, 32)
	algos := []string{AlgoPSPM, AlgoTwoOptILS, AlgoThreeOptILS}
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
			res[i], errs[i] = e.Solve(context.Background(), in, solver.Params{Seed: 1, TimeLimit: 700 * time.Millisecond}, solver.Latest())
		}()
	}
	wg.Wait()
	for i, a := range algos {
		if errs[i] != nil {
			t.Fatalf("%s: %v", a, errs[i])
		}
		checkResult(t, a, in, res[i])
		t.Logf("%s: %d in %v", a, res[i].Length, res[i].Elapsed)
	}
}

// oneLine fails t unless err is a non-empty single-line message.
func oneLine(t *testing.T, what string, err error) {
	t.Helper()
	if err == nil {
		t.Fatalf("%s: no error", what)
	}
	if s := err.Error(); s == "" || strings.Contains(s, "\n") {
		t.Fatalf("%s: error %q is not one line", what, s)
	}
	t.Logf("%s: %v", what, err)
}

// afterFaultRunWorks fails t unless a PSPM run right after works.
func afterFaultRunWorks(t *testing.T, what string) {
	t.Helper()
	in := randomInstance(100, solver.Euc2D, 1000, 33)
	e, _ := solver.Lookup(AlgoPSPM, solver.BackendGPU)
	p := quickParams(9)
	p.TimeLimit = 0
	r, err := e.Solve(context.Background(), in, p, nil)
	if err != nil {
		t.Fatalf("the run after %s: %v", what, err)
	}
	checkResult(t, "the run after "+what, in, r)
}

// A run the device refuses (more threads per block than it has, more
// searches than its memory holds, a launch it cannot run) ends with one
// clear line and the next run works.
func TestRefusedRunsLeaveTheContextUsable(t *testing.T) {
	needDevice(t)
	in := randomInstance(493, solver.Euc2D, 10000, 34)
	pspm, _ := solver.Lookup(AlgoPSPM, solver.BackendGPU)
	p := quickParams(1)
	p = p.WithExtra("threads", "4096") // past every range: Set would refuse it here
	_, err := pspm.Solve(context.Background(), in, p, nil)
	oneLine(t, "threads 4096", err)
	afterFaultRunWorks(t, "threads 4096")

	p = quickParams(1)
	p = p.WithExtra("blocks", fmt.Sprint(1<<30))
	start := time.Now()
	_, err = pspm.Solve(context.Background(), in, p, nil)
	oneLine(t, "blocks 2^30", err)
	if !strings.Contains(err.Error(), "blocks") {
		t.Fatalf("blocks 2^30: %v does not name the blocks", err)
	}
	t.Logf("refused in %v", time.Since(start))
	afterFaultRunWorks(t, "blocks 2^30")

	r := needRun(t)
	err = r.do(func() error {
		// a block larger than any device allows: refused at launch
		return r.launch("test_fault", 1, 1, 4096, 0, r.stream, cu.DevicePtr(0))
	})
	oneLine(t, "block of 4096 threads", err)
	afterFaultRunWorks(t, "a refused launch")
}

// A kernel that faults with an illegal address (a sticky error: CUDA
// documents it as ending CUDA for the process) ends its run with one error
// line; then either the reset context works again, or every later run and
// Available say in one line that the GPU is lost (ErrContextLost), so the
// program can go on on the CPU. The fault runs in a child process (this
// test binary again), so it cannot break the other device tests.
func TestStickyFaultEndsItsRunClearly(t *testing.T) {
	needDevice(t)
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
	r, err := newRun()
	if err != nil {
		t.Fatal(err)
	}
	err = r.do(func() error {
		if err := r.launch("test_fault", 1, 1, 1, 0, r.stream, cu.DevicePtr(16)); err != nil {
			return err
		}
		return r.sync("test_fault")
	})
	oneLine(t, "illegal address", err)
	if !errors.Is(err, cu.IllegalAddress) {
		t.Fatalf("want an error wrapping IllegalAddress, got %v", err)
	}
	if r2, err := newRun(); err == nil {
		r2.close()
		t.Fatal("a run opened while the faulted run still holds the broken context")
	}
	r.close()
	if err := available(); err != nil {
		oneLine(t, "Available after the fault", err)
		if !errors.Is(err, ErrContextLost) {
			t.Fatalf("Available after an unrecovered fault: %v, want ErrContextLost", err)
		}
		e, _ := solver.Lookup(AlgoPSPM, solver.BackendGPU)
		_, err := e.Solve(context.Background(), randomInstance(100, solver.Euc2D, 1000, 33), quickParams(1), nil)
		if !errors.Is(err, ErrContextLost) {
			t.Fatalf("a run after an unrecovered fault: %v, want ErrContextLost", err)
		}
		oneLine(t, "a run after the fault", err)
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
	needDevice(t)
	if testing.Short() {
		t.Skip("a million cities: not in -short")
	}
	in := randomInstance(1000000, solver.Euc2D, 1e6, 35)
	const limit = 2 * time.Second
	for _, a := range []string{AlgoTwoOptClimb, AlgoTwoOptILS, AlgoPSPM, AlgoThreeOptILS, AlgoAuto} {
		e, err := solver.Lookup(a, solver.BackendGPU)
		if err != nil {
			t.Fatal(err)
		}
		snaps := solver.Latest()
		start := time.Now()
		r, err := e.Solve(context.Background(), in, solver.Params{Seed: 1, TimeLimit: limit}, snaps)
		took := time.Since(start)
		if err != nil {
			t.Fatalf("%s: %v", a, err)
		}
		checkResult(t, a, in, r)
		t.Logf("%s: %d after %v (limit %v)", a, r.Length, took, limit)
		if took > limit+15*time.Second {
			t.Errorf("%s: took %v for a %v limit", a, took, limit)
		}
	}
}
