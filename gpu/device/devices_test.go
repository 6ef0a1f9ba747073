package device

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/tsplab/tsplab/solver"
)

// TestParseGPUs: all, a count, lists (a device twice: two contexts on it),
// and every bad value refused in one line naming the option.
func TestParseGPUs(t *testing.T) {
	old := errors.New("Tesla K80 is sm_37; the kernels need sm_70 or newer")
	three := []error{nil, nil, nil}
	mixed := []error{old, nil, nil}
	good := []struct {
		text   string
		usable []error
		want   []int
	}{
		{"", three, []int{0, 1, 2}},
		{"all", three, []int{0, 1, 2}},
		{" ALL ", mixed, []int{1, 2}},
		{"1", three, []int{0}},
		{"2", mixed, []int{1, 2}},
		{"0,1", three, []int{0, 1}},
		{"2,0", three, []int{2, 0}},
		{"0,0", three, []int{0, 0}},
		{"1,", three, []int{1}},
		{" 0 , 2 ", three, []int{0, 2}},
		{"0,0", []error{nil}, []int{0, 0}},
	}
	for _, c := range good {
		got, err := ParseGPUs(c.text, c.usable)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("ParseGPUs(%q) = %v, %v; want %v", c.text, got, err, c.want)
		}
	}
	bad := []struct {
		text   string
		usable []error
		says   string
	}{
		{"0", three, "out of range"},
		{"4", three, "out of range"},
		{"3", mixed, "2 of the 3 GPUs are usable"},
		{"-1", three, "out of range"},
		{"3,", three, "device 3 does not exist"},
		{"0,-1", three, "device -1 does not exist"},
		{"0,x", three, `"x" is not a device number`},
		{"0,,1", three, `"" is not a device number`},
		{",", three, `"" is not a device number`},
		{"two", three, "is not all, a count or a list"},
		{"0,1", mixed, "device 0: Tesla K80 is sm_37"},
		{"all", []error{old}, "no GPU can run the kernels"},
		{"all", nil, "the driver lists no GPU"},
		{strings.Repeat("0,", maxGPUSlots+1), three, "at most 16 contexts"},
	}
	for _, c := range bad {
		got, err := ParseGPUs(c.text, c.usable)
		var pe *solver.ParamError
		if !errors.As(err, &pe) {
			t.Errorf("ParseGPUs(%q) = %v, %v; want a *solver.ParamError", c.text, got, err)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, c.says) || !strings.HasPrefix(msg, "--opt gpus ") || strings.Contains(msg, "\n") {
			t.Errorf("ParseGPUs(%q): %q; want one line saying %q", c.text, msg, c.says)
		}
	}
}

// TestSlotsOf numbers a device's contexts in the order the list names them.
func TestSlotsOf(t *testing.T) {
	got := slotsOf([]int{0, 1, 0, 0})
	want := []DevSlot{{0, 0}, {1, 0}, {0, 1}, {0, 2}}
	if !slices.Equal(got, want) {
		t.Fatalf("slotsOf = %v; want %v", got, want)
	}
	if s := GpusText(got); s != "0,1,0,0" {
		t.Fatalf("gpusText = %q", s)
	}
	if s := GpusText([]DevSlot{{1, 0}}); s != "1," {
		t.Fatalf("gpusText of one = %q; want 1, (a list, not a count)", s)
	}
}

// TestUsability: the kernels need sm_70.
func TestUsability(t *testing.T) {
	if err := usability(DeviceInfo{Name: "V100", Major: 7}); err != nil {
		t.Fatal(err)
	}
	if err := usability(DeviceInfo{Name: "P100", Major: 6}); err == nil || !strings.Contains(err.Error(), "sm_60") {
		t.Fatalf("P100: %v", err)
	}
}
