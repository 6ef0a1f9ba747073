//go:build cuda

package ascent

import (
	"context"
	"math/rand/v2"
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
