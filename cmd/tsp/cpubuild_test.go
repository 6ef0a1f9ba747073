//go:build !cuda

package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tsplab/tsplab/solver"
)

// TestCPUBuildSaysGPUOnce: a build without CUDA names its GPU engines in
// one line, refuses the gpu suite instead of printing empty rows, and
// notes the unused GPU only to a user who asked for GPUs.
func TestCPUBuildSaysGPUOnce(t *testing.T) {
	code, out, _ := tsp(t, "engines")
	if code != 0 || strings.Contains(out, " gpu  ") || !strings.Contains(out, "GPU engines need the CUDA build") {
		t.Errorf("tsp engines: exit %d\n%s", code, out)
	}
	if code, out, _ := tsp(t, "engines", "--verbose"); code != 0 || !strings.Contains(out, " gpu  ") {
		t.Errorf("tsp engines --verbose lists no GPU engine: exit %d", code)
	}
	code, out, stderr := tsp(t, "bench", "--suite", "gpu", "--quick")
	if code != 1 || out != "" || !strings.Contains(stderr, "this build has none") {
		t.Errorf("bench --suite gpu: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	p := genCircle(t, 20)
	if _, _, stderr := tsp(t, "solve", p, "--time", "0.1"); strings.Contains(stderr, "GPU not used") {
		t.Errorf("a default run notes the GPU: %q", stderr)
	}
	if code, _, stderr := tsp(t, "solve", p, "--time", "0.1", "--gpus", "1"); code != 0 || !strings.Contains(stderr, "note: --gpus: GPU not used") {
		t.Errorf("--gpus in a CPU build: exit %d, %q", code, stderr)
	}
}

// TestEnginesForAFileInTheCPUBuild: tsp engines FILE in a build without
// CUDA gives each GPU engine one line, saying it needs the CUDA build, and
// says an option's text shared by several engines once.
func TestEnginesForAFileInTheCPUBuild(t *testing.T) {
	p := genCircle(t, 200)
	code, out, stderr := tsp(t, "engines", p)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	docs := map[string]bool{}
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "        ") {
			if docs[l] {
				t.Errorf("said twice: %s", l)
			}
			docs[l] = true
		}
	}
	for _, eng := range solver.Engines() {
		if eng.Backend() != solver.BackendGPU {
			continue
		}
		b := engineBlock(out, fmt.Sprintf("%-12s %-4s", eng.Name(), eng.Backend()))
		if strings.Count(b, "\n") != 0 || !strings.Contains(b, "needs the CUDA build") {
			t.Errorf("%s/gpu: %q, want one line saying it needs the CUDA build", eng.Name(), b)
		}
	}
}
