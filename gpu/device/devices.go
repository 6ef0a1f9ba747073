package device

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tsplab/tsplab/solver"
)

// OptGPUs is the GPU engines' device selection (`--opt gpus=...`): all
// usable GPUs, a count N (the first N usable ones) or a list of device
// numbers, where a number given twice opens two contexts on that device.
const OptGPUs = "gpus"

// maxGPUSlots is the most contexts one selection may open.
const maxGPUSlots = 16

// gpusOption is OptGPUs's declaration, added to every GPU engine that
// declares its options through declareGPU.
var gpusOption = solver.Option{Name: OptGPUs, Kind: solver.KindText, Default: "all",
	Doc: "the GPUs the run uses: all (every usable GPU), N (the first N usable ones) or a list of device numbers such as 0,1 " +
		"(one device alone: 1,; a number twice, as in 0,0, runs two contexts on that device); the engines that split their searches " +
		"(pspm, sspm, pssm, 2opt-climb) run as many searches on each, exchanging the best tour where they do on one; the others run on the first"}

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

// DeclareGPU declares the options of GPU engine algorithm, OptGPUs among
// them.
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

// usability says why the kernels cannot run on a device (nil: they can):
// the fatbin's oldest code is sm_70.
func usability(info DeviceInfo) error {
	if info.Major < 7 {
		return fmt.Errorf("%s is sm_%d%d; the kernels need sm_70 or newer", info.Name, info.Major, info.Minor)
	}
	return nil
}

// DevSlot is one context of a selection: device ordinal and the number of
// earlier contexts on it (slot 0 is the device's primary context).
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

// ParseGPUs reads a value of OptGPUs against the devices the driver lists
// (unusable[i]: why device i cannot run the kernels, nil when it can) and
// returns the device ordinals to open, in order; "" is all. A bad value
// is a one-line *solver.ParamError.
func ParseGPUs(text string, unusable []error) ([]int, error) {
	text = strings.TrimSpace(text)
	var usable []int
	for i, why := range unusable {
		if why == nil {
			usable = append(usable, i)
		}
	}
	count := len(unusable)
	bad := func(why string) error {
		want := fmt.Sprintf("all, a count 1..%d, or device numbers 0..%d separated by commas (one device: 1,)", max(1, len(usable)), max(0, count-1))
		return &solver.ParamError{Flag: "--opt " + OptGPUs, Value: text, Range: want, Why: why}
	}
	if count == 0 {
		return nil, bad("the driver lists no GPU")
	}
	if text == "" || strings.EqualFold(text, "all") {
		if len(usable) == 0 {
			return nil, bad("no GPU can run the kernels: " + unusable[0].Error())
		}
		return usable, nil
	}
	if !strings.Contains(text, ",") {
		n, err := strconv.Atoi(text)
		if err != nil {
			pe := bad("").(*solver.ParamError)
			pe.Not = "all, a count or a list"
			return nil, pe
		}
		if n < 1 || n > len(usable) {
			return nil, bad(fmt.Sprintf("%d of the %d GPUs are usable", len(usable), count))
		}
		return usable[:n], nil
	}
	items := strings.Split(text, ",")
	if items[len(items)-1] == "" {
		items = items[:len(items)-1] // "1,": a list of one
	}
	if len(items) > maxGPUSlots {
		return nil, bad(fmt.Sprintf("at most %d contexts", maxGPUSlots))
	}
	var out []int
	for _, it := range items {
		o, err := strconv.Atoi(strings.TrimSpace(it))
		if err != nil {
			return nil, bad(fmt.Sprintf("%q is not a device number", it))
		}
		if o < 0 || o >= count {
			return nil, bad(fmt.Sprintf("device %d does not exist", o))
		}
		if unusable[o] != nil {
			return nil, bad(fmt.Sprintf("device %d: %v", o, unusable[o]))
		}
		out = append(out, o)
	}
	return out, nil
}

// WithoutGPUs returns p without OptGPUs, on a copy of its Extra map: the
// engines' own option specs do not declare it.
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
