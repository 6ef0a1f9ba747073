package app

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tsplab/tsplab/solver"
)

// optGPUs is the GPU engines' option that names the GPUs a run uses.
const optGPUs = "gpus"

// GPU is one GPU of the host as the driver lists it.
type GPU struct {
	Index int    // the device number a gpus selection names it by
	Name  string // the model, as the driver names it ("NVIDIA H100 80GB HBM3")
	// Unusable says why the engines cannot run on it (nil: they can).
	Unusable error
}

// GPUHost is what the settings know of the host's GPUs, filled by the front end that links the engines (zero: no GPU).
type GPUHost struct {
	GPUs []GPU
	// None says why there is no GPU to list (nil when GPUs lists some).
	None error
	// Select reads a gpus value against the devices (unusable[i]: why device i cannot run) and returns the devices a run opens.
	Select func(text string, unusable []error) ([]int, error)
	// FirstOnly reports whether GPU engine e runs on device 0 alone (nil: none does).
	FirstOnly func(e solver.Engine) bool
}

// Host is the host's GPUs for the settings; tsplab sets it once at start.
var Host GPUHost

// known reports whether h can say which GPUs a run uses.
func (h GPUHost) known() bool { return h.Select != nil && (len(h.GPUs) > 0 || h.None != nil) }

// usable are the device numbers the engines can run on.
func (h GPUHost) usable() []int {
	var out []int
	for _, g := range h.GPUs {
		if g.Unusable == nil {
			out = append(out, g.Index)
		}
	}
	return out
}

// firstOnly reports whether GPU engine e runs on device 0 alone.
func (h GPUHost) firstOnly(e solver.Engine) bool { return h.FirstOnly != nil && h.FirstOnly(e) }

// devices returns the devices a run of GPU engine e with gpus text opens, device 0 alone for an engine that runs there only.
func (h GPUHost) devices(e solver.Engine, text string) ([]int, error) {
	unusable := make([]error, len(h.GPUs))
	for i, g := range h.GPUs {
		unusable[i] = g.Unusable
	}
	sel, err := h.Select(text, unusable)
	if err != nil || len(sel) == 0 || !h.firstOnly(e) {
		return sel, err
	}
	if strings.TrimSpace(text) != "" && sel[0] != 0 {
		return nil, fmt.Errorf("GPUs %s: %s runs on GPU 0 alone; name device 0 first (0 or 0,%d)", strings.TrimSpace(text), e.Name(), sel[0])
	}
	return []int{0}, nil
}

// gpuShare is what compare mode gives a pane of the host's GPUs.
type gpuShare struct {
	// sel are the pane's devices while its gpus field is empty (nil: the engine's default).
	sel []int
	// note says where the other pane runs and whether they share a GPU ("": no GPU engine there).
	note string
}

// gpuDemand is what a compare pane asks of the GPUs.
type gpuDemand struct {
	e    solver.Engine // the pane's GPU engine (nil: it runs none)
	text string        // its gpus field ("": the default)
}

// shareOut gives each of two compare panes GPUs of its own where both run GPU engines and the host has two or more
// usable; a pane whose field names GPUs keeps them, and one usable GPU is shared, each pane's note saying so.
func (h GPUHost) shareOut(d [2]gpuDemand) (out [2]gpuShare) {
	use := h.usable()
	if !h.known() || d[0].e == nil || d[1].e == nil || len(use) == 0 {
		return out
	}
	var on [2][]int // the devices each pane runs on
	for i := range d {
		if strings.TrimSpace(d[i].text) == "" {
			continue
		}
		sel, err := h.devices(d[i].e, d[i].text)
		if err != nil {
			return out // the field's error says why
		}
		on[i] = sel
	}
	first := [2]bool{h.firstOnly(d[0].e), h.firstOnly(d[1].e)}
	switch {
	case on[0] == nil && on[1] == nil && len(use) >= 2:
		switch {
		case first[0] && first[1]:
		case first[0]:
			out[1].sel = without(use, []int{0})
		case first[1]:
			out[0].sel = without(use, []int{0})
		default:
			half := len(use) / 2
			out[0].sel, out[1].sel = use[:half], use[half:2*half]
		}
	case on[0] == nil && on[1] != nil && !first[0]:
		out[0].sel = without(use, on[1])
	case on[1] == nil && on[0] != nil && !first[1]:
		out[1].sel = without(use, on[0])
	}
	for i := range on {
		if out[i].sel != nil {
			on[i] = out[i].sel
		} else if on[i] == nil {
			on[i], _ = h.devices(d[i].e, "")
		}
	}
	for i, letter := range []string{"B", "A"} {
		out[i].note = h.shareNote(letter, on[i], on[1-i], first[0] && first[1])
	}
	return out
}

// shareNote says where the other compare pane runs beside this one's devices, and why they share any.
func (h GPUHost) shareNote(letter string, mine, theirs []int, bothFirst bool) string {
	if len(theirs) == 0 {
		return ""
	}
	var both []int
	for _, d := range theirs {
		if slices.Contains(mine, d) && !slices.Contains(both, d) {
			both = append(both, d)
		}
	}
	if len(both) == 0 {
		return fmt.Sprintf("Pane %s runs on %s: each pane has GPUs of its own.", letter, gpuNumbers(theirs))
	}
	why := ""
	switch n := len(h.usable()); {
	case n == 1 && len(h.GPUs) == 1:
		why = ": this host has one GPU"
	case n == 1:
		why = ": only one of the host's GPUs can run the engines"
	case bothFirst:
		why = ": both engines keep their search on device 0"
	}
	return fmt.Sprintf("Pane %s runs on %s too%s.", letter, gpuNumbers(both), why)
}

// without is use less the devices of taken, in order (nil: none left).
func without(use, taken []int) []int {
	var out []int
	for _, d := range use {
		if !slices.Contains(taken, d) {
			out = append(out, d)
		}
	}
	return out
}

// gpusText is sel as a gpus value ("1," is device 1 alone).
func gpusText(sel []int) string {
	parts := make([]string, len(sel))
	for i, d := range sel {
		parts[i] = strconv.Itoa(d)
	}
	if len(parts) == 1 {
		return parts[0] + ","
	}
	return strings.Join(parts, ",")
}

// gpuNumbers names the devices sel by number, with the contexts of one named twice ("GPUs 0 and 1", "GPU 0 (2 contexts)").
func gpuNumbers(sel []int) string {
	var order []int
	count := map[int]int{}
	for _, d := range sel {
		if count[d] == 0 {
			order = append(order, d)
		}
		count[d]++
	}
	nums := make([]string, len(order))
	for i, d := range order {
		nums[i] = strconv.Itoa(d)
		if count[d] > 1 {
			nums[i] += fmt.Sprintf(" (%d contexts)", count[d])
		}
	}
	if len(nums) == 1 {
		return "GPU " + nums[0]
	}
	return "GPUs " + andList(nums)
}

// andList joins items as a person writes them: "a", "a and b", "a, b and c".
func andList(items []string) string {
	if len(items) <= 1 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// GPUNames names the devices sel of gpus with their model ("GPUs 0 and 1: NVIDIA H100 80GB HBM3").
func GPUNames(gpus []GPU, sel []int) string {
	model := func(d int) string {
		for _, g := range gpus {
			if g.Index == d {
				return g.Name
			}
		}
		return ""
	}
	same := true
	for _, d := range sel {
		same = same && model(d) == model(sel[0])
	}
	if same {
		s := gpuNumbers(sel)
		if m := model(sel[0]); m != "" {
			s += ": " + m
		}
		return s
	}
	var parts []string
	for _, d := range sel {
		if p := gpuNumbers([]int{d}) + ": " + model(d); !slices.Contains(parts, p) {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, "; ")
}

// gpuLine is what the settings say of the GPUs a run of GPU engine e uses with gpus text and compare share sh
// ("" where no GPU is known or text is not valid).
func (h GPUHost) gpuLine(e solver.Engine, text string, sh gpuShare) string {
	if !h.known() || e == nil || e.Backend() != solver.BackendGPU {
		return ""
	}
	if h.None != nil {
		return "No GPU here: " + h.None.Error()
	}
	sel := sh.sel
	if strings.TrimSpace(text) != "" || sel == nil {
		var err error
		if sel, err = h.devices(e, text); err != nil || len(sel) == 0 {
			return ""
		}
	}
	s := "Runs on " + GPUNames(h.GPUs, sel) + "."
	if h.firstOnly(e) && len(h.usable()) > 1 {
		s += " " + e.Name() + " keeps its search on device 0."
	}
	if sh.note != "" {
		s += " " + sh.note
	}
	return s
}
