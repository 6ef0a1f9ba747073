package device

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tsplab/tsplab/solver"
)

// OptGPUs is the GPU engines' device selection (`--gpus`), in ParseGPUs's forms.
const OptGPUs = "gpus"

// gpusOption is OptGPUs's declaration for every GPU engine declared through declareGPU.
var gpusOption = solver.Option{Name: OptGPUs, Kind: solver.KindText, Default: "all",
	Doc: "the GPUs the run uses: all (every usable GPU), a count N of 1 or more (the first N usable ones), or device numbers such as 0, 0,1 or device=1 " +
		"(a bare 0 is device 0; count=N and device=LIST say which is meant; a number twice, as in 0,0, runs two contexts on that device); the engines that split their searches " +
		"(pspm, sspm, pssm, 2opt-climb) run as many searches on each, exchanging the best tour where they do on one; 2opt-ils, 3opt-ils, 2opt-or and swap-climb " +
		"run an independent search on each, seeded apart, and keep the shortest tour; the others run on the first"}

// WithGPUs is a GPU engine's declarations with OptGPUs added.
type WithGPUs struct{ solver.Declarer }

// Options returns the engine's options and OptGPUs.
func (w WithGPUs) Options(in *solver.Instance) solver.OptionSet {
	set := w.Declarer.Options(in)
	if _, ok := set.Lookup(OptGPUs); ok {
		return set
	}
	return append(set, gpusOption)
}

// DeclareGPU declares GPU engine algorithm's options with OptGPUs.
func DeclareGPU(algorithm string, d solver.Declarer) {
	solver.Declare(algorithm, solver.BackendGPU, WithGPUs{d})
}

// DeviceInfo describes one CUDA device.
type DeviceInfo struct {
	Name          string
	Major, Minor  int   // compute capability
	Multiprocs    int   // streaming multiprocessors
	GlobalMemory  int64 // bytes
	DriverVersion int
}

// GPU is one CUDA device as the driver lists it.
type GPU struct {
	Index int
	Info  DeviceInfo
	// Unusable says why the engines cannot run on the device (nil: they can).
	Unusable error
}

// usability says why the kernels cannot run on a device (nil: they can; sm_70 and newer).
func usability(info DeviceInfo) error {
	if info.Major < 7 {
		return fmt.Errorf("%s is sm_%d%d; the kernels need sm_70 or newer", info.Name, info.Major, info.Minor)
	}
	return nil
}

// DevSlot is one context of a selection: the device and its earlier contexts (0: primary).
type DevSlot struct{ ordinal, slot int }

// slotsOf numbers the contexts of a list of device ordinals.
func slotsOf(list []int) []DevSlot {
	seen := map[int]int{}
	out := make([]DevSlot, len(list))
	for i, o := range list {
		out[i] = DevSlot{o, seen[o]}
		seen[o]++
	}
	return out
}

// WithoutGPUs returns p without OptGPUs, which the engines' specs do not declare.
func WithoutGPUs(p solver.Params) solver.Params { return p.Without(OptGPUs) }

// GpusText is sel as a value of OptGPUs.
func GpusText(sel []DevSlot) string {
	parts := make([]string, len(sel))
	for i, ds := range sel {
		parts[i] = strconv.Itoa(ds.ordinal)
	}
	if len(parts) == 1 {
		return parts[0] + ","
	}
	return strings.Join(parts, ",")
}
