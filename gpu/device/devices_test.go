package device

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/tsplab/tsplab/solver"
)

// TestParseGPUs: all, a count (a bare number of 1 or more, or count=N),
// device lists (a bare 0, numbers with commas, device=LIST; a device twice:
// two contexts on it), and every bad value refused in one line naming the
// option, without a GPU.
func TestParseGPUs(t *testing.T) {
	old := errors.New("Tesla K80 is sm_37; the kernels need sm_70 or newer")
	one := []error{nil}
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
		{"1", one, []int{0}},
		{"2", mixed, []int{1, 2}},
		{"0", one, []int{0}},
		{"0", three, []int{0}},
		{"count=2", three, []int{0, 1}},
		{"Count=1", mixed, []int{1}},
		{"device=1", three, []int{1}},
		{"devices=2,0", three, []int{2, 0}},
		{"0,1", three, []int{0, 1}},
		{"2,0", three, []int{2, 0}},
		{"0,0", three, []int{0, 0}},
		{"1,", three, []int{1}},
		{" 0 , 2 ", three, []int{0, 2}},
		{"0,0", one, []int{0, 0}},
	}
	for _, c := range good {
		got, err := ParseGPUs(c.text, c.usable)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("ParseGPUs(%q) = %v, %v; want %v", c.text, got, err, c.want)
		}
		if err := CheckGPUs(c.text); err != nil {
			t.Errorf("CheckGPUs(%q) = %v", c.text, err)
		}
	}
	bad := []struct {
		text   string
		usable []error
		says   string
		form   bool // refused by its form alone (CheckGPUs)
	}{
		{"4", three, "(this machine has 3 GPUs)", false},
		{"2", one, "(this machine has 1 GPU)", false},
		{"3", mixed, "2 of the machine's 3 GPUs can run the kernels", false},
		{"count=3", mixed, "2 of the machine's 3 GPUs can run the kernels", false},
		{"1", []error{old}, "the machine's one GPU cannot run the kernels", false},
		{"-1", three, "neither a count nor a device number", true},
		{"count=0", three, "count= takes a whole number from 1 to 16", true},
		{"count=x", three, "count= takes a whole number from 1 to 16", true},
		{"3,", three, "device 3 does not exist: this machine has 3 GPUs, devices 0 to 2", false},
		{"1,", one, "device 1 does not exist: this machine has 1 GPU, device 0", false},
		{"device=2", []error{nil, nil}, "device 2 does not exist: this machine has 2 GPUs, devices 0 and 1", false},
		{"0,-1", three, `"-1" is not a device number`, true},
		{"0,x", three, `"x" is not a device number`, true},
		{"0,,1", three, `"" is not a device number`, true},
		{",", three, `"" is not a device number`, true},
		{"device=", three, `"" is not a device number`, true},
		{"two", three, "is not all, a count or a list", true},
		{"17", three, "at most 16 contexts", true},
		{"0,1", mixed, "device 0: Tesla K80 is sm_37", false},
		{"all", []error{old}, "no GPU can run the kernels", false},
		{"all", nil, "this machine has no GPU", false},
		{"0", nil, "this machine has no GPU", false},
		{strings.Repeat("0,", maxGPUSlots+1), three, "at most 16 contexts", true},
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
		if err := CheckGPUs(c.text); (err != nil) != c.form {
			t.Errorf("CheckGPUs(%q) = %v; want an error: %v", c.text, err, c.form)
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
