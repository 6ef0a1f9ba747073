//go:build cuda

package main

import (
	"context"
	"time"

	"github.com/tsplab/tsplab/bench"
	"github.com/tsplab/tsplab/gpu/climb"
	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/gpu/ils"
	"github.com/tsplab/tsplab/solver"
)

// benchGPU is package gpu's kernels and populations for the bench suites, joined here so neither package imports the other.
func benchGPU() bench.GPU { return gpuBench{} }

type gpuBench struct{}

func (gpuBench) EvalRate(n, passes int, seed uint64) (bench.KernelRate, error) {
	return climb.EvalRate(n, passes, seed)
}

func (gpuBench) EvalBatch(n int) (int, error) { return climb.EvalBatch(n) }

func (gpuBench) ClimbRate(in *solver.Instance, warm, window time.Duration, seed uint64) (bench.KernelRate, error) {
	return climb.ClimbRate(in, warm, window, seed)
}

func (gpuBench) TwoOptDescent(in *solver.Instance, start []int) (bench.Descent, error) {
	return climb.TwoOptDescent(in, start)
}

func (gpuBench) OnePass(in *solver.Instance, t []int, reps int) (bench.PassTimes, error) {
	return climb.OnePass(in, t, reps)
}

func (gpuBench) ThreeOptPopulation(ctx context.Context, in *solver.Instance, pop bench.Population) (bench.PopulationResult, error) {
	return ils.ThreeOptPopulation(ctx, in, pop)
}

func (gpuBench) FIPopulation(in *solver.Instance, pop bench.Population) (bench.PopulationResult, error) {
	return ils.FIPopulation(in, pop)
}

func (gpuBench) FISequential(in *solver.Instance, first, count int, pop bench.Population) (bench.PopulationResult, error) {
	return ils.FISequential(in, first, count, pop)
}

// SolveBatch runs the instances as one chunk on GPU 0 through the steps
// of tsp batch's GPU lanes (gpuBatch: open, prepare, search, finish).
func (gpuBench) SolveBatch(ctx context.Context, ins []*solver.Instance, p solver.Params) ([]solver.Result, error) {
	g := gpuBatch()
	ps := make([]gpuPrep, len(ins))
	for i, in := range ins {
		var err error
		if ps[i], err = g.prepare(ctx, in, uint64(i), p); err != nil {
			return nil, err
		}
	}
	w := g.join(ps)
	l, err := g.open(p, 0)
	if err != nil {
		return nil, err
	}
	defer l.close()
	if err := l.search(ctx, w); err != nil {
		return nil, err
	}
	return w.finish()
}

// UsableGPUs is the number of the host's GPUs the engines can run on (bench.GPUCounter).
func (gpuBench) UsableGPUs() (int, error) {
	gpus, err := device.GPUs()
	n := 0
	for _, g := range gpus {
		if g.Unusable == nil {
			n++
		}
	}
	return n, err
}
