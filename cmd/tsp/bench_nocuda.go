//go:build !cuda

package main

import "github.com/tsplab/tsplab/bench"

// benchGPU is nil in a build without CUDA: the bench suites leave their GPU columns out and say why.
func benchGPU() bench.GPU { return nil }
