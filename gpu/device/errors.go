package device

import "errors"

// ErrNotBuilt is why every GPU engine is unavailable in a build without
// the cuda tag (defined in both builds so callers can test for it).
var ErrNotBuilt = errors.New("this binary was built without CUDA kernels (build with `make gpu`)")

// ErrNoDriver is wrapped by Available when no usable NVIDIA driver is
// present (not installed, too old, or only the toolkit's stub library).
var ErrNoDriver = errors.New("no NVIDIA driver")

// ErrNoDevice is wrapped by Available when the driver finds no GPU.
var ErrNoDevice = errors.New("no CUDA device")

// ErrUnsupported is wrapped when an instance cannot run on the GPU (an
// EXPLICIT matrix or a metric the kernels do not implement).
var ErrUnsupported = errors.New("unsupported on GPU")

// ErrContextLost is wrapped by every GPU error after a fault the driver cannot recover from.
var ErrContextLost = errors.New("the GPU context was lost after a fault")
