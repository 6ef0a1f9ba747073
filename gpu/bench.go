package gpu

import "time"

// Population is Solutions independent searches of Kicks kicks each from
// one start tour, run in the same launches (Delévacq et al.'s).
type Population struct {
	Solutions int
	Kicks     int
	Seed      uint64
	// Mode is FIPopulation's mapping (FIModes), Dist OptDist's choice.
	Mode string
	Dist string
	// Blocks and Threads are ThreeOptPopulation's grid per search.
	Blocks, Threads int
}

// PopulationResult is a population's best tour (exact length), the kicks,
// the time and the device.
type PopulationResult struct {
	Tour    []int
	Length  int64
	Kicks   int64
	Elapsed time.Duration
	Device  string
}

// Descent is a local search run to its minimum.
type Descent struct {
	Tour          []int
	Passes, Moves int64
	Elapsed       time.Duration
	Device        string
}

// PassTimes is one 2-opt pass's median kernel, upload and download times.
type PassTimes struct {
	Kernel, Upload, Download time.Duration
	Device                   string
}

// KernelRate is a kernel timed alone (climbs and passes: the climber).
type KernelRate struct {
	MovesPerSec    float64
	ClimbsPerSec   float64
	PassesPerClimb float64
	Device         string
}
