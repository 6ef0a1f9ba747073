//go:build cuda

package device

// cudaload stands in for libcuda at link time so the CUDA build starts without a driver.
import _ "github.com/tsplab/tsplab/internal/cudaload"
