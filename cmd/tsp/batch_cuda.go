//go:build cuda

package main

import (
	"context"
	"os"
	"strconv"

	"github.com/tsplab/tsplab/gpu/batch"
	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"
)

// gpuBatch is the GPU's batch solver: a block per instance (gpu/batch).
func gpuBatch() batchGPU { return cudaBatch{} }

// batchDriverSettings gives the CUDA driver, before it starts, one
// hardware queue a context unless the user's CUDA_DEVICE_MAX_CONNECTIONS
// says otherwise: with the default 8, 10,000 100-city instances took the
// 4-H200 host's four GPUs 1.41-1.44 s against 1.22-1.26 s (docs/BATCH.md).
func batchDriverSettings() {
	if _, set := os.LookupEnv("CUDA_DEVICE_MAX_CONNECTIONS"); !set {
		os.Setenv("CUDA_DEVICE_MAX_CONNECTIONS", "1")
	}
}

// cudaBatch is gpu/batch on the CUDA devices.
type cudaBatch struct{}

// open opens a run on device d alone.
func (cudaBatch) open(p solver.Params, d int) (gpuLane, error) {
	ru, err := device.NewRunOf(p.WithExtra(device.OptGPUs, strconv.Itoa(d)+",")) // "d," is device d alone, whatever d
	if err != nil {
		return nil, err
	}
	return cudaLane{ru, p}, nil
}

func (cudaBatch) prepare(ctx context.Context, in *solver.Instance, id uint64, p solver.Params) (gpuPrep, error) {
	return batch.Prepare(ctx, []*solver.Instance{in}, []uint64{id}, p)
}

func (cudaBatch) join(ps []gpuPrep) gpuWork {
	prs := make([]*batch.Prepared, len(ps))
	for i, x := range ps {
		prs[i] = x.(*batch.Prepared)
	}
	return cudaWork{batch.Join(prs)}
}

// cudaLane is one GPU's run.
type cudaLane struct {
	ru *device.Run
	p  solver.Params
}

func (l cudaLane) capacity(in *solver.Instance) int { return batch.Capacity(l.ru, in, l.p) }
func (l cudaLane) search(ctx context.Context, w gpuWork) error {
	return w.(cudaWork).pr.Search(ctx, l.ru)
}
func (l cudaLane) close() { l.ru.Close() }

// cudaWork is a chunk batch.Prepare made ready.
type cudaWork struct{ pr *batch.Prepared }

func (w cudaWork) finish() ([]solver.Result, error) { return w.pr.Finish() }
