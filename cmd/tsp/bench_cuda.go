//go:build cuda

package main

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tsplab/tsplab/bench"
	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/gpu/ils"
	"github.com/tsplab/tsplab/lab/gpu/climb"
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

// SolveBatch runs the instances as one chunk on GPU 0 through tsp batch's GPU lane steps.
func (gpuBench) SolveBatch(ctx context.Context, ins []*solver.Instance, p solver.Params) ([]solver.Result, error) {
	g := gpuBatch()
	type opened struct {
		l   gpuLane
		err error
	}
	lane := make(chan opened, 1)
	go func() {
		l, err := g.open(p, 0)
		lane <- opened{l, err}
	}()
	ps := make([]gpuPrep, len(ins))
	errs := make([]error, len(ins))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range runtime.NumCPU() {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(ins); i = int(next.Add(1) - 1) {
				ps[i], errs[i] = g.prepare(ctx, ins[i], uint64(i), p)
			}
		})
	}
	wg.Wait()
	o := <-lane
	if o.err != nil {
		return nil, o.err
	}
	defer o.l.close()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	w := g.join(ps)
	if err := o.l.search(ctx, w); err != nil {
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
