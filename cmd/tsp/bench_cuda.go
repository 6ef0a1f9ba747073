//go:build cuda

package main

import (
	"github.com/tsplab/tsplab/bench"
	"github.com/tsplab/tsplab/gpu"
)

// The GPU suites measure the GPU's 2-opt kernels directly, outside the
// engine interface; the command line wires them in here so that neither
// bench nor gpu imports the other.
func init() {
	bench.GPUEvalRate = gpu.EvalRate
	bench.GPUTwoOptDescent = gpu.TwoOptDescent
	bench.GPUOnePass = gpu.OnePass
	bench.GPUEvalBatch = gpu.EvalBatch
}
