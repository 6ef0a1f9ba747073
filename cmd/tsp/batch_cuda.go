//go:build cuda

package main

import (
	"github.com/tsplab/tsplab/gpu/blockils"
)

// gpuBatch is the GPU's batch solver: a block per instance.
func gpuBatch() batchSolver { return blockils.SolveBatch }
