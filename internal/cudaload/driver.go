package cudaload

import (
	"fmt"
	"strings"
)

// Driver is what Find learned of the NVIDIA driver.
type Driver struct {
	// Built is false in a build without the CUDA kernels.
	Built bool
	// Library is the driver library opened (its path), "" when none was.
	Library string
	// CUDAVersion is the driver's CUDA version (12040 for 12.4; 0: unknown).
	CUDAVersion int
	// Kernel is the NVIDIA kernel module's version ("": not loaded).
	Kernel string
	// Err says why the GPU engines cannot start (nil: the driver started).
	Err error
}

// Usable reports whether the driver started, so the GPU engines can run.
func (d Driver) Usable() bool { return d.Built && d.Library != "" && d.Err == nil }

// String describes the driver in one line, as `tsp version` prints it.
func (d Driver) String() string {
	switch {
	case !d.Built:
		return "not built in (no CUDA kernels in this build)"
	case d.Library == "":
		return fmt.Sprintf("no NVIDIA driver: CPU engines only (%v)", d.Err)
	}
	s := "NVIDIA driver"
	if d.Kernel != "" {
		s += " " + d.Kernel
	}
	if d.CUDAVersion > 0 {
		s += fmt.Sprintf(", CUDA %d.%d", d.CUDAVersion/1000, d.CUDAVersion%1000/10)
	}
	s += " (" + d.Library + ")"
	if d.Err != nil {
		s += fmt.Sprintf(", cannot start: %v: CPU engines only", d.Err)
	}
	return s
}

// kernelVersion reads the NVIDIA kernel module's version from /proc/driver/nvidia/version ("" when none).
func kernelVersion(text string) string {
	_, rest, ok := strings.Cut(text, "Kernel Module")
	if !ok {
		return ""
	}
	for _, w := range strings.Fields(rest) {
		if w[0] >= '0' && w[0] <= '9' {
			return w
		}
		if w != "for" && w != "x86_64" && w != "aarch64" {
			break
		}
	}
	return ""
}
