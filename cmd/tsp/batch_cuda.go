//go:build cuda

package main

import (
	"context"
	"strconv"

	"github.com/tsplab/tsplab/gpu/batch"
	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"
)

// gpuBatch is the GPU's batch solver: a block per instance (gpu/batch).
func gpuBatch() batchGPU { device.TraceInit(); return cudaBatch{} }

// cudaBatch is gpu/batch on the CUDA devices.
type cudaBatch struct{}

// open opens a run on device d alone.
func (cudaBatch) open(p solver.Params, d int) (gpuLane, error) {
	ru, err := device.NewRunOf(p.WithExtra(device.OptGPUs, strconv.Itoa(d)+",")) // "d," is device d alone, whatever d
	if err != nil {
		return nil, err
	}
	return cudaLane{ru}, nil
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
