//go:build cuda

package main

import (
	"context"
	"fmt"
	"strconv"
	"sync"

	"github.com/tsplab/tsplab/gpu/batch"
	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"
)

// gpuBatch is the GPU's batch solver: a block per instance (gpu/batch).
func gpuBatch() batchGPU { return cudaBatch{} }

// cudaBatch is gpu/batch on the CUDA devices.
type cudaBatch struct{}

// open opens a run on each device at once, each on an OS thread of its
// own.
func (cudaBatch) open(p solver.Params, devs []int) ([]gpuLane, []string, error) {
	if len(devs) == 0 {
		devs = []int{0}
	}
	runs, errs := make([]*device.Run, len(devs)), make([]error, len(devs))
	var wg sync.WaitGroup
	for g, d := range devs {
		q := p
		if len(devs) > 1 || d != 0 || p.Given(device.OptGPUs) {
			q = p.WithExtra(device.OptGPUs, strconv.Itoa(d)+",") // "d," is device d alone, whatever d
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			runs[g], errs[g] = device.NewRunOf(q)
		}()
	}
	wg.Wait()
	var lanes []gpuLane
	var notes []string
	for g, ru := range runs {
		if errs[g] != nil {
			notes = append(notes, fmt.Sprintf("GPU %d left out: %v", devs[g], errs[g]))
			continue
		}
		lanes = append(lanes, cudaLane{ru})
	}
	if len(lanes) == 0 {
		return nil, nil, errs[0]
	}
	return lanes, notes, nil
}

func (cudaBatch) prepare(ctx context.Context, ins []*solver.Instance, ids []uint64, p solver.Params) (gpuWork, error) {
	pr, err := batch.Prepare(ctx, ins, ids, p)
	if err != nil {
		return nil, err
	}
	return cudaWork{pr}, nil
}

// cudaLane is one GPU's run.
type cudaLane struct{ ru *device.Run }

func (l cudaLane) capacity(in *solver.Instance) int { return batch.Capacity(l.ru, in) }
func (l cudaLane) search(ctx context.Context, w gpuWork) error {
	return w.(cudaWork).pr.Search(ctx, l.ru)
}
func (l cudaLane) close() { l.ru.Close() }

// cudaWork is a chunk batch.Prepare made ready.
type cudaWork struct{ pr *batch.Prepared }

func (w cudaWork) finish() ([]solver.Result, error) { return w.pr.Finish() }
