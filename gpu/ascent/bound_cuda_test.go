//go:build cuda

package ascent

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tsplab/tsplab/internal/gputest"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/bound"
)

// The GPU ascent takes exactly the CPU's Borůvka steps: same iterations,
// same estimate, same proven bound.
func TestBoundDeviceMatchesCPU(t *testing.T) {
	gputest.NeedDevice(t)
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

// The sparse ascent's alpha lists on the GPU are the CPU's: the same
// steps (Borůvka on both), the same penalties, the same lists.
func TestSparseAlphaMatchesCPU(t *testing.T) {
	gputest.NeedDevice(t)
	rng := rand.New(rand.NewPCG(7, 7))
	n := 12000
	x, y := make([]float64, n), make([]float64, n)
	for i := range n {
		x[i], y[i] = float64(rng.IntN(50000)), float64(rng.IntN(50000))
	}
	in := solver.NewCoordInstance("u12000", solver.Euc2D, x, y, nil)
	tour := make([]int32, n)
	for i, c := range rng.Perm(n) {
		tour[i] = int32(c)
	}
	cpu, cres, err := bound.SparseAlpha(context.Background(), in, tour, 8, bound.Options{Boruvka: true})
	if err != nil {
		t.Fatal(err)
	}
	dev, dres, err := bound.SparseAlpha(context.Background(), in, tour, 8, bound.Options{Device: BoundDevice})
	if err != nil {
		t.Fatal(err)
	}
	if !dres.Device || dres.Iterations != cres.Iterations || dres.Estimate != cres.Estimate {
		t.Fatalf("GPU %d iterations to %.2f (device %v), CPU %d to %.2f", dres.Iterations, dres.Estimate, dres.Device, cres.Iterations, cres.Estimate)
	}
	if !slices.Equal(dev.List, cpu.List) || dev.K != cpu.K {
		t.Errorf("the GPU's alpha lists differ from the CPU's")
	}
	t.Logf("%d iterations, estimate %.2f, GPU %v, CPU %v", dres.Iterations, dres.Estimate, dres.Elapsed, cres.Elapsed)
}
