//go:build cuda

package main

import (
	"context"
	"time"

	"github.com/tsplab/tsplab/bench"
	"github.com/tsplab/tsplab/gpu"
	"github.com/tsplab/tsplab/solver"
)

// benchGPU is package gpu's kernels and populations for the bench suites:
// the command line joins the two packages, so that neither imports the
// other. bench's types are gpu's field for field; the methods convert.
func benchGPU() bench.GPU { return gpuBench{} }

type gpuBench struct{}

func (gpuBench) EvalRate(n, passes int, seed uint64) (bench.KernelRate, error) {
	r, err := gpu.EvalRate(n, passes, seed)
	return bench.KernelRate(r), err
}

func (gpuBench) EvalBatch(n int) (int, error) { return gpu.EvalBatch(n) }

func (gpuBench) ClimbRate(in *solver.Instance, warm, window time.Duration, seed uint64) (bench.KernelRate, error) {
	r, err := gpu.ClimbRate(in, warm, window, seed)
	return bench.KernelRate(r), err
}

func (gpuBench) TwoOptDescent(in *solver.Instance, start []int) (bench.Descent, error) {
	d, err := gpu.TwoOptDescent(in, start)
	return bench.Descent(d), err
}

func (gpuBench) OnePass(in *solver.Instance, t []int, reps int) (bench.PassTimes, error) {
	p, err := gpu.OnePass(in, t, reps)
	return bench.PassTimes(p), err
}

func (gpuBench) ThreeOptPopulation(ctx context.Context, in *solver.Instance, pop bench.Population) (bench.PopulationResult, error) {
	r, err := gpu.ThreeOptPopulation(ctx, in, gpu.Population(pop))
	return bench.PopulationResult(r), err
}

func (gpuBench) FIPopulation(in *solver.Instance, pop bench.Population) (bench.PopulationResult, error) {
	r, err := gpu.FIPopulation(in, gpu.Population(pop))
	return bench.PopulationResult(r), err
}

func (gpuBench) FISequential(in *solver.Instance, first, count int, pop bench.Population) (bench.PopulationResult, error) {
	r, err := gpu.FISequential(in, first, count, gpu.Population(pop))
	return bench.PopulationResult(r), err
}
