//go:build cuda

package main

import (
	"context"
	"time"

	"github.com/tsplab/tsplab/bench"
	"github.com/tsplab/tsplab/gpu"
	"github.com/tsplab/tsplab/solver"
)

// The GPU suites measure the GPU's 2-opt kernels directly, outside the
// engine interface; the command line wires them in here so that neither
// bench nor gpu imports the other.
func init() {
	bench.GPUEvalRate = gpu.EvalRate
	bench.GPUClimbRate = gpu.ClimbRate
	bench.GPUTwoOptDescent = gpu.TwoOptDescent
	bench.GPUOnePass = gpu.OnePass
	bench.GPUEvalBatch = gpu.EvalBatch
	bench.GPUFIPopulation = func(in *solver.Instance, nb, itLim int, mode string, seed uint64) (int64, time.Duration, string, error) {
		r, err := gpu.FIPopulation(in, gpu.Population{Solutions: nb, Kicks: itLim, Mode: mode, Seed: seed})
		return r.Length, r.Elapsed, r.Device, err
	}
	bench.GPURKBIPopulation = func(ctx context.Context, in *solver.Instance, nb, itLim, blocks int, seed uint64) (int64, time.Duration, string, error) {
		r, err := gpu.ThreeOptPopulation(ctx, in, gpu.Population{Solutions: nb, Kicks: itLim, Blocks: blocks, Threads: 64, Seed: seed})
		return r.Length, r.Elapsed, r.Device, err
	}
	bench.FISequential = func(in *solver.Instance, first, count, itLim int, seed uint64) (int64, time.Duration, error) {
		_, l, el, err := gpu.FISequential(in, first, count, itLim, seed)
		return l, el, err
	}
}
