//go:build cuda

package device

// cudaload stands in for libcuda at link time and opens the driver when the
// program starts, so the CUDA build starts on machines without it.
import _ "github.com/tsplab/tsplab/internal/cudaload"
