package device

import "errors"

// ErrNotBuilt is why GPU engines are unavailable without the cuda tag (in both builds).
var ErrNotBuilt = errors.New("this binary was built without CUDA kernels (build with `make gpu`)")

// ErrNoDriver is wrapped by Available without a usable NVIDIA driver.
var ErrNoDriver = errors.New("no NVIDIA driver")

// ErrNoDevice is wrapped by Available when the driver finds no GPU.
var ErrNoDevice = errors.New("no CUDA device")

// ErrUnsupported is wrapped when an instance cannot run on the GPU.
var ErrUnsupported = errors.New("unsupported on GPU")

// ErrContextLost is wrapped by every GPU error after a fault the driver cannot recover from.
var ErrContextLost = errors.New("the GPU context was lost after a fault")
