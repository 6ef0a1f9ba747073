//go:build cuda

package gpu

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tsplab/tsplab/internal/tsplibdir"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/bound"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// The GPU ascent takes exactly the CPU's Borůvka steps: same iterations,
// same estimate, same proven bound.
func TestBoundDeviceMatchesCPU(t *testing.T) {
	needDevice(t)
	rng := rand.New(rand.NewPCG(5, 5))
	n := 6000
	x, y := make([]float64, n), make([]float64, n)
	for i := range n {
		x[i], y[i] = float64(rng.IntN(20000)), float64(rng.IntN(20000))
	}
	in := solver.NewCoordInstance("u6000", solver.Euc2D, x, y, nil)
	for _, period := range []int{30, 150} {
		cpu, err := bound.Compute(context.Background(), in, bound.Options{MaxPeriod: period, Boruvka: true})
		if err != nil {
			t.Fatal(err)
		}
		dev, err := bound.Compute(context.Background(), in, bound.Options{MaxPeriod: period, Device: BoundDevice})
		if err != nil {
			t.Fatal(err)
		}
		if !dev.Device || dev.Bound != cpu.Bound || dev.Estimate != cpu.Estimate || dev.Iterations != cpu.Iterations {
			t.Errorf("period %d: GPU bound %d estimate %.2f after %d iterations, CPU %d %.2f %d",
				period, dev.Bound, dev.Estimate, dev.Iterations, cpu.Bound, cpu.Estimate, cpu.Iterations)
		}
	}
}

// TestBoundDeviceReport measures the GPU bound on the TSPLIB instances
// named in $TSPLAB_BOUND_REPORT (comma-free: one name per run) and on a
// million uniform cities when it says "1M"; it logs the figures docs/PERF.md
// records.
func TestBoundDeviceReport(t *testing.T) {
	name := os.Getenv("TSPLAB_BOUND_REPORT")
	if name == "" {
		t.Skip("set TSPLAB_BOUND_REPORT=pla85900 (or 1M)")
	}
	needDevice(t)
	var in *solver.Instance
	if name == "1M" {
		rng := rand.New(rand.NewPCG(1, 1))
		n := 1_000_000
		x, y := make([]float64, n), make([]float64, n)
		for i := range n {
			x[i], y[i] = float64(rng.IntN(10_000_000)), float64(rng.IntN(10_000_000))
		}
		in = solver.NewCoordInstance("uniform-1M", solver.Euc2D, x, y, nil)
	} else {
		dir := tsplibdir.Need(t)
		var err error
		if in, err = tsplib.Load(filepath.Join(dir, name+".tsp"), dir); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now()
	res, err := bound.Compute(context.Background(), in, bound.Options{Device: BoundDevice})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: GPU bound %d, %d iterations, %.2f s (exact evaluation on the host %.2f s), optimum %d (%.3f%% below)",
		name, res.Bound, res.Iterations, time.Since(start).Seconds(), res.Evaluation.Seconds(), in.Optimum,
		100*float64(in.Optimum-res.Bound)/float64(max(in.Optimum, 1)))
}
