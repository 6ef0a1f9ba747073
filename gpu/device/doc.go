// Package device is what every GPU engine shares: the CUDA contexts and
// the devices the driver lists (Devices, GPUs, the gpus option and its
// parser), runs (Run: an OS thread with the context current, its own
// streams and allocations, so panes run side by side; a sticky fault
// marks the context, which is reset once its runs close), device memory
// (Buffers, HtoD, DtoH, pinned host memory), kernel loading from the one
// fatbin that scripts/build-gpu.sh compiles from every .cu file under gpu/
// and this package embeds (kernels are looked up by name:
// RegisterKernels), launch configuration, the host-side helpers of the
// engines (metric codes, coordinates, exact 2-opt deltas, start tours, the
// run loop), the kernels' shared headers (common.cuh, localsearch.cuh),
// and the GPU engine type: NewEngine makes an engine for solver's registry
// in both builds, Implement gives it its CUDA implementation. Without the
// build tag "cuda" only the registration, the options and the host-side
// helpers are built, and Available says ErrNotBuilt.
package device
