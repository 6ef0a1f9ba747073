//go:build !cuda

package main

// gpuBatch is nil in a build without CUDA: batches run on the CPU.
func gpuBatch() batchGPU { return nil }

// batchDriverSettings has nothing to set in a build without CUDA.
func batchDriverSettings() {}
