package gpu

import "errors"

// ErrNoDriver is wrapped by Available when no usable NVIDIA driver is
// present (not installed, too old, or only the toolkit's stub library).
var ErrNoDriver = errors.New("no NVIDIA driver")

// ErrNoDevice is wrapped by Available when the driver finds no GPU.
var ErrNoDevice = errors.New("no CUDA device")

// ErrUnsupported is wrapped when an instance cannot run on the GPU (an
// EXPLICIT matrix or a metric the kernels do not implement).
var ErrUnsupported = errors.New("unsupported on GPU")
