package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"
)

// fakeGPUs makes listGPUs answer n usable GPUs (none: the driver's error
// err) for the rest of the test.
func fakeGPUs(t *testing.T, n int, err error) {
	t.Helper()
	old := listGPUs
	t.Cleanup(func() { listGPUs = old })
	listGPUs = func() ([]device.GPU, error) {
		if err != nil {
			return nil, err
		}
		gpus := make([]device.GPU, n)
		for i := range gpus {
			gpus[i] = device.GPU{Index: i, Info: device.DeviceInfo{Name: fmt.Sprintf("GPU %d", i), Major: 9}}
		}
		return gpus, nil
	}
}

// TestCheckGPUs: --gpus all, a count, a bare 0 and the written-out forms
// select device 0 of a one-GPU machine; a device it lacks and a machine
// without a GPU are refused in one line (exit 2, no usage line); a CPU run
// is not checked.
func TestCheckGPUs(t *testing.T) {
	fakeGPUs(t, 1, nil)
	gpu := func(v string) solver.Params {
		return solver.Params{Backend: solver.BackendGPU, Extra: map[string]string{device.OptGPUs: v}}
	}
	for _, v := range []string{"all", "1", "0", "count=1", "device=0", "0,"} {
		if sel, err := checkGPUs("solve", gpu(v)); err != nil || !slices.Equal(sel, []int{0}) {
			t.Errorf("--gpus %s on one GPU: %v, %v; want device 0", v, sel, err)
		}
	}
	for v, says := range map[string]string{
		"1,":       "--gpus 1, is out of range: want all, a count 1..1, or device numbers 0..0 such as 0 or 0,1 (device 1 does not exist: this machine has 1 GPU, device 0)",
		"device=3": "device 3 does not exist: this machine has 1 GPU, device 0",
		"2":        "(this machine has 1 GPU)",
	} {
		_, err := checkGPUs("solve", gpu(v))
		var ue *usageError
		if !errors.As(err, &ue) || !ue.machine || !strings.Contains(ue.msg, says) {
			t.Errorf("--gpus %s on one GPU: %v; want a one-line usage error saying %q", v, err, says)
		}
	}
	cpu := gpu("5")
	cpu.Backend = solver.BackendCPU
	if sel, err := checkGPUs("solve", cpu); sel != nil || err != nil {
		t.Errorf("a CPU run's --gpus is checked: %v, %v", sel, err)
	}
	fakeGPUs(t, 0, device.ErrNoDevice)
	_, err := checkGPUs("batch", gpu("0"))
	var ue *usageError
	if !errors.As(err, &ue) || !ue.machine || ue.msg != "--gpus 0: no GPU to run on: no CUDA device" {
		t.Errorf("--gpus 0 without a GPU: %v", err)
	}
}

// TestGPUsOnTheDefaultEngine: solve (default engine auto) and batch take
// --gpus all, 1 and 0 on the GPU backend; without a GPU each says so in
// one line and exits 2, and a device the machine lacks is refused so.
func TestGPUsOnTheDefaultEngine(t *testing.T) {
	p := genCircle(t, 20)
	out := filepath.Join(t.TempDir(), "b.jsonl")
	runs := func(gpus string) [][]string {
		return [][]string{
			{"solve", p, "--backend", "gpu", "--gpus", gpus, "--time", "0.2", "--quiet"},
			{"batch", p, "--backend", "gpu", "--gpus", gpus, "--time-each", "0.2", "--out", out, "--quiet"},
		}
	}
	fakeGPUs(t, 0, device.ErrNoDevice)
	for _, gpus := range []string{"all", "1", "0"} {
		for _, args := range runs(gpus) {
			code, _, stderr := tsp(t, args...)
			want := fmt.Sprintf("tsp %s: --gpus %s: no GPU to run on: no CUDA device\n", args[0], gpus)
			if code != 2 || stderr != want {
				t.Errorf("%s without a GPU: exit %d, %q; want exit 2, %q", strings.Join(args, " "), code, stderr, want)
			}
		}
	}
	fakeGPUs(t, 1, nil)
	for _, gpus := range []string{"all", "1", "0"} {
		for _, args := range runs(gpus) {
			// on this one-GPU machine the selection is fine: a build
			// without CUDA, or one without the device, then says why the
			// GPU cannot run, never that --gpus is wrong
			if code, _, stderr := tsp(t, args...); code == 2 || strings.Contains(stderr, "gpus") {
				t.Errorf("%s on one GPU: exit %d, %q", strings.Join(args, " "), code, stderr)
			}
		}
	}
	for _, args := range runs("2,") {
		code, _, stderr := tsp(t, args...)
		if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "device 2 does not exist") {
			t.Errorf("%s on one GPU: exit %d, %q", strings.Join(args, " "), code, stderr)
		}
	}
}

// TestGPUsOnEveryGPUEngine: on a two-GPU machine every GPU engine takes
// --gpus (and --opt gpus=) all, a count, a bare 0 and device lists, and
// refuses a device the machine lacks in one line with exit 2, before it
// runs.
func TestGPUsOnEveryGPUEngine(t *testing.T) {
	fakeGPUs(t, 2, nil)
	p := genCircle(t, 20)
	var names []string
	for _, e := range solver.Engines() {
		if e.Backend() == solver.BackendGPU {
			names = append(names, e.Name())
		}
	}
	if len(names) < 5 {
		t.Fatalf("GPU engines %v: want them all registered", names)
	}
	for _, name := range names {
		for _, gpus := range []string{"all", "2", "1", "0", "0,1", "1,0", "1,", "count=2", "device=1"} {
			for _, flag := range [][]string{{"--gpus", gpus}, {"--opt", "gpus=" + gpus}} {
				args := append([]string{"solve", p, "--backend", "gpu", "--algo", name, "--time", "0.1", "--quiet"}, flag...)
				if code, _, stderr := tsp(t, args...); code == 2 || strings.Contains(stderr, "gpus") {
					t.Errorf("%s on two GPUs: exit %d, %q", strings.Join(args, " "), code, stderr)
				}
			}
		}
		for gpus, says := range map[string]string{"2,": "device 2 does not exist", "0,5": "device 5 does not exist", "3": "(this machine has 2 GPUs)", "device=2": "device 2 does not exist"} {
			args := []string{"solve", p, "--backend", "gpu", "--algo", name, "--gpus", gpus, "--time", "0.1"}
			code, _, stderr := tsp(t, args...)
			if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, says) {
				t.Errorf("%s on two GPUs: exit %d, %q; want exit 2 and one line saying %q", strings.Join(args, " "), code, stderr, says)
			}
		}
	}
}

// TestOnFirstGPU: an engine that runs on device 0 alone refuses a
// selection that does not start with it, in one line with exit 2 before
// the run; one that shares its work out takes it.
func TestOnFirstGPU(t *testing.T) {
	fakeGPUs(t, 2, nil)
	old := firstGPUOnly
	t.Cleanup(func() { firstGPUOnly = old })
	firstGPUOnly = func(e solver.Engine) bool { return e.Name() == "or-ils" }
	p := genCircle(t, 20)
	solve := func(algo, gpus string) (int, string) {
		code, _, stderr := tsp(t, "solve", p, "--backend", "gpu", "--algo", algo, "--gpus", gpus, "--time", "0.1", "--quiet")
		return code, stderr
	}
	if code, stderr := solve("or-ils", "1,"); code != 2 || stderr != "tsp solve: --gpus 1,: or-ils runs on GPU 0 alone; name device 0 first (0 or 0,1)\n" {
		t.Errorf("or-ils on device 1: exit %d, %q", code, stderr)
	}
	for _, c := range [][2]string{{"or-ils", "0,1"}, {"or-ils", "2"}, {"2opt-ils", "1,"}, {"2opt-ils", "device=1"}} {
		if code, stderr := solve(c[0], c[1]); code == 2 || strings.Contains(stderr, "gpus") {
			t.Errorf("%s --gpus %s: exit %d, %q", c[0], c[1], code, stderr)
		}
	}
}
