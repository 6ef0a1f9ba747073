package gpu

import "github.com/tsplab/tsplab/internal/benchgpu"

// The results of the measurements the bench suites take outside the engine interface (see package benchgpu).
type (
	Population       = benchgpu.Population
	PopulationResult = benchgpu.PopulationResult
	Descent          = benchgpu.Descent
	PassTimes        = benchgpu.PassTimes
	KernelRate       = benchgpu.KernelRate
)
