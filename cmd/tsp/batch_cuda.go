//go:build cuda

package main

import (
	"github.com/tsplab/tsplab/gpu/batch"
)

// gpuBatch is the GPU's batch solver: a block per instance.
func gpuBatch() batchSolver { return batch.Solve }
