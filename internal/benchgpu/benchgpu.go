// Package benchgpu holds the results of the GPU measurements the bench suites take outside the engine interface, one definition for package gpu, which
// takes them, and package bench, which reports them.
package benchgpu

import "time"

// Population is a population of independent searches run in the same launches (Delévacq et al.'s): Solutions searches of Kicks kicks each from one start tour.
type Population struct {
	Solutions int
	Kicks     int
	Seed      uint64
	Mode      string // FIPopulation's mapping of the searches onto the GPU (one of gpu.FIModes)
	Dist      string // OptDist's choice of distances ("", "coords", "matrix")
	// Blocks and Threads are ThreeOptPopulation's evaluation grid per search.
	Blocks, Threads int
}

// PopulationResult is a population's best tour with its exact length, the kicks made by all searches, the time of the searches and the device.
type PopulationResult struct {
	Tour    []int
	Length  int64
	Kicks   int64
	Elapsed time.Duration
	Device  string
}

// Descent is a local search run to its minimum: the tour, its passes and moves evaluated, the time and the device.
type Descent struct {
	Tour          []int
	Passes, Moves int64
	Elapsed       time.Duration
	Device        string
}

// PassTimes is the time of one 2-opt pass (median of reps): the kernel, the tour's upload and the result's download.
type PassTimes struct {
	Kernel, Upload, Download time.Duration
	Device                   string
}

// KernelRate is a kernel timed alone: moves evaluated per second, and for the climber the climbs per second and passes per climb.
type KernelRate struct {
	MovesPerSec    float64
	ClimbsPerSec   float64
	PassesPerClimb float64
	Device         string
}
