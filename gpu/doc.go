// Package gpu runs the TSP engines on an NVIDIA GPU through the CUDA driver
// API (gorgonia.org/cu). It is built with the build tag "cuda"; without it
// the package is a stub whose engines report why they are missing.
//
// Every engine registers itself with the solver registry in init, so
// importing this package (for its side effect or for Info) is all a caller
// does.
package gpu

// DeviceInfo describes one CUDA device.
type DeviceInfo struct {
	Name          string
	Major, Minor  int   // compute capability
	Multiprocs    int   // streaming multiprocessors
	GlobalMemory  int64 // bytes
	DriverVersion int
}
