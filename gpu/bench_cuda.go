//go:build cuda

package gpu

import "github.com/tsplab/tsplab/solver/bench"

func init() { bench.GPUEvalRate = EvalRate }
