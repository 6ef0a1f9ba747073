//go:build cuda

package gputest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"
)

// The device tests' faulting kernel (gpu/device/fault.cu).
func init() { device.RegisterKernels("test_fault") }

// MatrixInstance is an EXPLICIT instance of random symmetric distances.
func MatrixInstance(n int, seed uint64) *solver.Instance {
	rng := rand.New(rand.NewPCG(seed, 1))
	m := make([]int32, n*n)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			v := int32(1 + rng.IntN(1000))
			m[i*n+j], m[j*n+i] = v, v
		}
	}
	return solver.NewMatrixInstance("mat", n, m)
}

// TwoContexts run an engine on two contexts of device 0: the multi-device path on one GPU.
const TwoContexts = device.OptGPUs + "=0,0"

// MultiEngine looks up GPU engine name.
func MultiEngine(t *testing.T, name string) solver.Engine {
	t.Helper()
	e, err := solver.Lookup(name, solver.BackendGPU)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// CheckExact fails unless res's tour is valid and its length exact.
func CheckExact(t *testing.T, what string, in *solver.Instance, res solver.Result) {
	t.Helper()
	if err := solver.ValidateTour(res.Tour, in.N); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if exact := solver.TourLength(in, res.Tour); res.Length != exact {
		t.Fatalf("%s: length %d, exact %d", what, res.Length, exact)
	}
}

// PspmBudget is a short whole schedule of PSPM on 64 searches a context.
func PspmBudget(seed uint64, extra ...string) solver.Params {
	p := WithOpts(solver.Params{Seed: seed}, "t0=100", "tend=1", "alpha=0.8", "sweeps=2", "k=5", "blocks=64")
	return WithOpts(p, extra...)
}

// NeedDevice skips the test with the reason when no GPU can run kernels.
func NeedDevice(t testing.TB) *device.Device {
	t.Helper()
	d, err := device.GetDevice()
	if err != nil {
		t.Skipf("no usable CUDA device: %v", err)
	}
	return d
}

// NeedRun opens a run for the test (closed after it), or skips without a usable GPU.
func NeedRun(t testing.TB) *device.Run {
	t.Helper()
	NeedDevice(t)
	r, err := device.NewRun()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r
}

// RandomInstance is n cities at whole coordinates uniform in a square of side scale.
func RandomInstance(n int, m solver.Metric, scale float64, seed uint64) *solver.Instance {
	rng := rand.New(rand.NewPCG(seed, 7))
	x, y := make([]float64, n), make([]float64, n)
	for i := range x {
		x[i] = math.Floor(rng.Float64() * scale)
		y[i] = math.Floor(rng.Float64() * scale)
	}
	return solver.NewCoordInstance(fmt.Sprintf("rand%d", n), m, x, y, nil)
}

// QuickParams are short PSPM settings of a 300 ms run seeded seed.
func QuickParams(seed uint64) solver.Params {
	p := solver.Params{Seed: seed, TimeLimit: 300 * time.Millisecond}
	return WithOpts(p, "t0=100", "tend=1", "alpha=0.8", "sweeps=2", "k=5", "blocks=64")
}

// CheckResult fails t unless r's tour is valid and exactly its reported length.
func CheckResult(t *testing.T, name string, in *solver.Instance, r solver.Result) {
	t.Helper()
	if err := solver.ValidateTour(r.Tour, in.N); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if l := solver.TourLength(in, r.Tour); l != r.Length {
		t.Fatalf("%s: reported length %d, exact %d", name, r.Length, l)
	}
}

// OneLine fails t unless err is a non-empty single-line message.
func OneLine(t *testing.T, what string, err error) {
	t.Helper()
	if err == nil {
		t.Fatalf("%s: no error", what)
	}
	if s := err.Error(); s == "" || strings.Contains(s, "\n") {
		t.Fatalf("%s: error %q is not one line", what, s)
	}
	t.Logf("%s: %v", what, err)
}
