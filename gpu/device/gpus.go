package device

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tsplab/tsplab/solver"
)

// maxGPUSlots is the most contexts one selection may open.
const maxGPUSlots = 16

// gpusForms are OptGPUs's forms, for a message without a device list.
const gpusForms = "all, a count N of 1 or more, or device numbers such as 0 or 0,2 (count=N and device=LIST say which is meant)"

// gpuSel is an OptGPUs value as written: every usable GPU, the first count, or a device list.
type gpuSel struct {
	all   bool
	count int
	list  []int
}

// readGPUs reads the form of a value of OptGPUs, without the devices:
//
//	"" or all           every usable GPU
//	N (1 or more)       a count: the first N usable GPUs (as Docker's --gpus N)
//	0                   device 0 (a count of none means nothing; 0 is how the first GPU is named)
//	0,2  1,  0,0        device numbers in order ("1," is device 1 alone; a number twice opens two contexts on it)
//	count=N             the count written out
//	device=LIST         the device numbers written out (device=1 is device 1 alone)
//
// A value in none of the forms is a one-line *solver.ParamError.
func readGPUs(text string) (gpuSel, error) {
	t := strings.TrimSpace(text)
	bad := func(not, why string) error {
		return &solver.ParamError{Flag: "--opt " + OptGPUs, Value: text, Range: gpusForms, Not: not, Why: why}
	}
	low := strings.ToLower(t)
	switch {
	case t == "" || low == "all":
		return gpuSel{all: true}, nil
	case strings.HasPrefix(low, "count="):
		n, err := strconv.Atoi(strings.TrimSpace(t[len("count="):]))
		if err != nil || n < 1 || n > maxGPUSlots {
			return gpuSel{}, bad("", fmt.Sprintf("count= takes a whole number from 1 to %d", maxGPUSlots))
		}
		return gpuSel{count: n}, nil
	case strings.HasPrefix(low, "device="), strings.HasPrefix(low, "devices="):
		return deviceList(t[strings.Index(t, "=")+1:], bad)
	case strings.Contains(t, ","):
		return deviceList(t, bad)
	}
	n, err := strconv.Atoi(t)
	switch {
	case err != nil:
		return gpuSel{}, bad("all, a count or a list", "")
	case n < 0:
		return gpuSel{}, bad("", "neither a count nor a device number")
	case n == 0:
		return gpuSel{list: []int{0}}, nil
	case n > maxGPUSlots:
		return gpuSel{}, bad("", fmt.Sprintf("at most %d contexts", maxGPUSlots))
	}
	return gpuSel{count: n}, nil
}

// deviceList reads comma-separated device numbers, one trailing comma allowed ("1,": device 1 alone).
func deviceList(text string, bad func(not, why string) error) (gpuSel, error) {
	items := strings.Split(text, ",")
	if len(items) > 1 && strings.TrimSpace(items[len(items)-1]) == "" {
		items = items[:len(items)-1]
	}
	if len(items) > maxGPUSlots {
		return gpuSel{}, bad("", fmt.Sprintf("at most %d contexts", maxGPUSlots))
	}
	list := make([]int, len(items))
	for i, it := range items {
		o, err := strconv.Atoi(strings.TrimSpace(it))
		if err != nil || o < 0 {
			return gpuSel{}, bad("", fmt.Sprintf("%q is not a device number", strings.TrimSpace(it)))
		}
		list[i] = o
	}
	return gpuSel{list: list}, nil
}

// CheckGPUs checks the form of an OptGPUs value without asking the driver.
func CheckGPUs(text string) error {
	_, err := readGPUs(text)
	return err
}

// ParseGPUs reads an OptGPUs value (readGPUs) against the devices (unusable[i]: why device i cannot run) and returns the
// ordinals to open; each error is a one-line *solver.ParamError.
func ParseGPUs(text string, unusable []error) ([]int, error) {
	sel, err := readGPUs(text)
	if err != nil {
		return nil, err
	}
	var usable []int
	for i, why := range unusable {
		if why == nil {
			usable = append(usable, i)
		}
	}
	bad := func(why string) error {
		want := fmt.Sprintf("all, a count 1..%d, or device numbers 0..%d such as 0 or 0,1", max(1, len(usable)), max(0, len(unusable)-1))
		return &solver.ParamError{Flag: "--opt " + OptGPUs, Value: strings.TrimSpace(text), Range: want, Why: why}
	}
	switch {
	case len(unusable) == 0:
		return nil, bad("this machine has no GPU")
	case sel.all && len(usable) == 0:
		return nil, bad("no GPU can run the kernels: " + unusable[0].Error())
	case sel.all:
		return usable, nil
	case sel.count > len(usable):
		return nil, bad(usableGPUs(len(usable), len(unusable)))
	case sel.count > 0:
		return usable[:sel.count], nil
	}
	for _, o := range sel.list {
		if o >= len(unusable) {
			return nil, bad(fmt.Sprintf("device %d does not exist: %s", o, gpusHere(len(unusable))))
		}
		if unusable[o] != nil {
			return nil, bad(fmt.Sprintf("device %d: %v", o, unusable[o]))
		}
	}
	return sel.list, nil
}

// gpusHere names the devices of a machine of n GPUs.
func gpusHere(n int) string {
	switch n {
	case 1:
		return "this machine has 1 GPU, device 0"
	case 2:
		return "this machine has 2 GPUs, devices 0 and 1"
	}
	return fmt.Sprintf("this machine has %d GPUs, devices 0 to %d", n, n-1)
}

// usableGPUs says how many of a machine's n GPUs can run the kernels.
func usableGPUs(usable, n int) string {
	switch {
	case usable == n && n == 1:
		return "this machine has 1 GPU"
	case usable == n:
		return fmt.Sprintf("this machine has %d GPUs", n)
	case n == 1:
		return "the machine's one GPU cannot run the kernels"
	case usable == 0:
		return fmt.Sprintf("none of the machine's %d GPUs can run the kernels", n)
	}
	return fmt.Sprintf("%d of the machine's %d GPUs can run the kernels", usable, n)
}
