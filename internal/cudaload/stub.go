//go:build !cuda

package cudaload

// Find reports that this build has no CUDA kernels.
func Find() Driver { return Driver{} }
