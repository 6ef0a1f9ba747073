package app

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/internal/fakeengine"
	"github.com/tsplab/tsplab/solver"
)

// gpusel is a test engine on the CPU and on a pretended GPU whose GPU
// engine takes a device selection, as the GPU engines' gpus option;
// gpufirst's GPU engine runs on device 0 alone (firstOnly), as GPU pop's.
func init() {
	gpus := solver.Option{Name: "gpus", Kind: solver.KindText, Default: "all", Doc: "the GPUs the run uses"}
	for _, algo := range []string{"gpusel", "gpufirst"} {
		solver.Declare(algo, solver.BackendGPU, append(solver.SharedOptions(), gpus))
		fakeengine.Register(fakeengine.Engine{Algo: algo}, fakeengine.Engine{Algo: algo, On: solver.BackendGPU})
	}
}

// h100 is the model the test hosts' GPUs are.
const h100 = "NVIDIA H100 80GB HBM3"

// firstOnly is the test engines' FirstOnly: gpufirst runs on device 0 alone.
func firstOnly(e solver.Engine) bool { return e.Name() == "gpufirst" }

// useHost makes the app's GPUs those of gpus, read by the GPU engines'
// own rules (device.ParseGPUs), until the test ends.
func useHost(t *testing.T, gpus ...GPU) {
	t.Helper()
	old := Host
	Host = GPUHost{GPUs: gpus, Select: device.ParseGPUs, FirstOnly: firstOnly}
	t.Cleanup(func() { Host = old })
}

// gpuHost is a host of n H100s.
func gpuHost(n int) []GPU {
	out := make([]GPU, n)
	for i := range out {
		out[i] = GPU{Index: i, Name: h100}
	}
	return out
}

// gpuLineOf is the line of p's settings that names the GPUs its run uses
// ("" while hidden or not among the settings).
func gpuLineOf(p *Pane) string {
	f := p.settings
	if f.box == nil || !slices.Contains(f.box.Objects, fyne.CanvasObject(f.gpuLine)) || !f.gpuLine.Visible() {
		return ""
	}
	return f.gpuLine.Text
}

// twoGPUs checks a selection as a host of two GPUs would: all, 1 or 2, or
// a list of 0 and 1.
func twoGPUs(s string) error {
	s = strings.TrimSpace(s)
	if s == "all" || s == "1" || s == "2" {
		return nil
	}
	for _, f := range strings.Split(strings.TrimSuffix(s, ","), ",") {
		if f != "0" && f != "1" {
			return errors.New("--opt gpus " + s + ": want all, a count 1..2, or device numbers 0..1")
		}
	}
	return nil
}

// gpusRow is the gpus field of p's settings, nil when not shown.
func gpusRow(p *Pane) *optionRow {
	for i := range p.settings.rows {
		if r := &p.settings.rows[i]; r.opt.Name == "gpus" && slices.Contains(p.settings.fields.Objects, fyne.CanvasObject(r.box)) {
			return r
		}
	}
	return nil
}

func TestCompareOneGPUAgainstAll(t *testing.T) {
	OptionChecks["gpus"] = twoGPUs
	t.Cleanup(func() { delete(OptionChecks, "gpus") })
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	ap.SetCompare(true)
	for _, p := range []*Pane{ap.Left, ap.Right} {
		p.SetSettings(Settings{Algorithm: "gpusel", Backend: solver.BackendGPU, TimeLimit: time.Second, Seed: 1})
	}
	l, r := gpusRow(ap.Left), gpusRow(ap.Right)
	if l == nil || r == nil {
		t.Fatal("the GPU engine's gpus option is not among the pane's settings")
	}
	// A selection the devices do not allow is shown as the engine says it.
	test.Type(l.entry, "5")
	if !l.errMsg.Visible() || !strings.Contains(l.errMsg.Text, "device numbers 0..1") {
		t.Errorf("gpus 5: error %q (shown %v)", l.errMsg.Text, l.errMsg.Visible())
	}
	if _, err := ap.Left.Settings(); err == nil {
		t.Error("settings with gpus 5 parse")
	}
	// One GPU (a list of one) against all of them.
	l.entry.SetText("0,")
	r.entry.SetText("all")
	if l.errMsg.Visible() || r.errMsg.Visible() {
		t.Fatalf("valid selections flagged: %q %q", l.errMsg.Text, r.errMsg.Text)
	}
	if got := ap.prefs.String("left.gpus") + " " + ap.prefs.String("right.gpus"); got != "0, all" {
		t.Errorf("saved %q, want the selections of each pane", got)
	}
	for _, c := range []struct {
		p    *Pane
		want string
	}{{ap.Left, "0,"}, {ap.Right, "all"}} {
		if err := c.p.RunFor(50 * time.Millisecond); err != nil {
			t.Fatal(err)
		}
		settle(t, c.p)
		if got := fakeengine.LastParams(); got.Extra["gpus"] != c.want || got.Backend != solver.BackendGPU {
			t.Errorf("pane %s ran with gpus %q on %s, want %q on the GPU", c.p.Name, got.Extra["gpus"], got.Backend, c.want)
		}
	}
}

func TestSettingsNameTheGPUs(t *testing.T) {
	useHost(t, gpuHost(2)...)
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	p := ap.Single
	p.SetSettings(Settings{Algorithm: "gpusel", Backend: solver.BackendGPU, TimeLimit: time.Second, Seed: 1})
	if got, want := gpuLineOf(p), "Runs on GPUs 0 and 1: "+h100+"."; got != want {
		t.Errorf("default selection: %q, want %q", got, want)
	}
	r := gpusRow(p)
	test.Type(r.entry, "1,")
	if got, want := gpuLineOf(p), "Runs on GPU 1: "+h100+"."; got != want {
		t.Errorf("gpus 1,: %q, want %q", got, want)
	}
	// A device the host lacks: no line, the field's error says why.
	r.entry.SetText("2,")
	if got := gpuLineOf(p); got != "" || !r.errMsg.Visible() || !strings.Contains(r.errMsg.Text, "device 2 does not exist") {
		t.Errorf("gpus 2,: line %q, error %q", got, r.errMsg.Text)
	}
	r.entry.SetText("")

	// An engine that runs on device 0 alone says so, and refuses a
	// selection that starts elsewhere, as its runs do.
	p.SetSettings(Settings{Algorithm: "gpufirst", Backend: solver.BackendGPU, TimeLimit: time.Second, Seed: 1})
	if got, want := gpuLineOf(p), "Runs on GPU 0: "+h100+". gpufirst keeps its search on device 0."; got != want {
		t.Errorf("gpufirst: %q, want %q", got, want)
	}
	r = gpusRow(p)
	r.entry.SetText("1,")
	if !r.errMsg.Visible() || !strings.Contains(r.errMsg.Text, "runs on GPU 0 alone") {
		t.Errorf("gpufirst on gpus 1,: error %q (shown %v)", r.errMsg.Text, r.errMsg.Visible())
	}
	if _, err := p.Settings(); err == nil {
		t.Error("gpufirst with gpus 1, parses")
	}
	r.entry.SetText("")

	// A CPU run names no GPU.
	p.SetSettings(Settings{Algorithm: "gpusel", Backend: solver.BackendCPU, TimeLimit: time.Second, Seed: 1})
	if p.settings.gpuLine.Visible() {
		t.Errorf("a CPU run names GPUs: %q", p.settings.gpuLine.Text)
	}
}

func TestGPUNames(t *testing.T) {
	mixed := []GPU{{Index: 0, Name: h100}, {Index: 1, Name: "NVIDIA A100-SXM4-40GB"}}
	for _, c := range []struct {
		gpus []GPU
		sel  []int
		want string
	}{
		{gpuHost(1), []int{0}, "GPU 0: " + h100},
		{gpuHost(2), []int{0, 1}, "GPUs 0 and 1: " + h100},
		{gpuHost(4), []int{1, 2, 3}, "GPUs 1, 2 and 3: " + h100},
		{gpuHost(2), []int{0, 0}, "GPU 0 (2 contexts): " + h100},
		{mixed, []int{0, 1}, "GPU 0: " + h100 + "; GPU 1: NVIDIA A100-SXM4-40GB"},
	} {
		if got := GPUNames(c.gpus, c.sel); got != c.want {
			t.Errorf("GPUNames(%v): %q, want %q", c.sel, got, c.want)
		}
	}
}

// TestShareOutGPUs: compare mode's share of the GPUs on hosts of one,
// two and four, with and without a pane's own selection and engines that
// run on device 0 alone.
func TestShareOutGPUs(t *testing.T) {
	sel, _ := solver.Lookup("gpusel", solver.BackendGPU)
	first, _ := solver.Lookup("gpufirst", solver.BackendGPU)
	for _, c := range []struct {
		n      int
		a, b   gpuDemand
		sa, sb []int
	}{
		{2, gpuDemand{e: sel}, gpuDemand{e: sel}, []int{0}, []int{1}},
		{4, gpuDemand{e: sel}, gpuDemand{e: sel}, []int{0, 1}, []int{2, 3}},
		{3, gpuDemand{e: sel}, gpuDemand{e: sel}, []int{0}, []int{1}},
		{1, gpuDemand{e: sel}, gpuDemand{e: sel}, nil, nil},
		{4, gpuDemand{e: first}, gpuDemand{e: sel}, nil, []int{1, 2, 3}},
		{4, gpuDemand{e: sel}, gpuDemand{e: first}, []int{1, 2, 3}, nil},
		{2, gpuDemand{e: first}, gpuDemand{e: first}, nil, nil},
		{4, gpuDemand{e: sel, text: "0,"}, gpuDemand{e: sel}, nil, []int{1, 2, 3}},
		{2, gpuDemand{e: sel}, gpuDemand{e: sel, text: "0,"}, []int{1}, nil},
		{2, gpuDemand{e: sel}, gpuDemand{}, nil, nil},
	} {
		h := GPUHost{GPUs: gpuHost(c.n), Select: device.ParseGPUs, FirstOnly: firstOnly}
		got := h.shareOut([2]gpuDemand{c.a, c.b})
		if !slices.Equal(got[0].sel, c.sa) || !slices.Equal(got[1].sel, c.sb) {
			t.Errorf("%d GPUs, %+v against %+v: shares %v and %v, want %v and %v", c.n, c.a, c.b, got[0].sel, got[1].sel, c.sa, c.sb)
		}
	}
}

// gpuCompare is a test app in compare mode on a host of n GPUs, both
// panes set to the fake GPU engine that takes the gpus option.
func gpuCompare(t *testing.T, n int) *App {
	t.Helper()
	useHost(t, gpuHost(n)...)
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	ap.SetCompare(true)
	for _, p := range []*Pane{ap.Left, ap.Right} {
		p.SetSettings(Settings{Algorithm: "gpusel", Backend: solver.BackendGPU, TimeLimit: time.Second, Seed: 1})
	}
	return ap
}

func TestCompareGivesEachPaneItsOwnGPU(t *testing.T) {
	ap := gpuCompare(t, 2)
	for _, c := range []struct {
		p          *Pane
		line, gpus string
	}{
		{ap.Left, "Runs on GPU 0: " + h100 + ". Pane B runs on GPU 1: each pane has GPUs of its own.", "0,"},
		{ap.Right, "Runs on GPU 1: " + h100 + ". Pane A runs on GPU 0: each pane has GPUs of its own.", "1,"},
	} {
		if got := gpuLineOf(c.p); got != c.line {
			t.Errorf("pane %s: %q, want %q", c.p.Name, got, c.line)
		}
		if err := c.p.RunFor(50 * time.Millisecond); err != nil {
			t.Fatal(err)
		}
		settle(t, c.p)
		if got := fakeengine.LastParams().Extra["gpus"]; got != c.gpus {
			t.Errorf("pane %s ran with gpus %q, want %q", c.p.Name, got, c.gpus)
		}
	}
	if err := ap.RunCompareFor(50 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	settle(t, ap.Left)
	settle(t, ap.Right)
	ap.updateSummary()
	if want := "GPUs: A ran on GPU 0; B ran on GPU 1."; !strings.Contains(ap.summary.Text, want) {
		t.Errorf("summary %q does not say %q", ap.summary.Text, want)
	}

	// Each pane chooses its GPUs: pane B's own choice of device 0 leaves
	// pane A device 1; both on device 1 share it and say so.
	gpusRow(ap.Right).entry.SetText("0,")
	if got, want := gpuLineOf(ap.Left), "Runs on GPU 1: "+h100+". Pane B runs on GPU 0: each pane has GPUs of its own."; got != want {
		t.Errorf("pane A beside B on 0,: %q, want %q", got, want)
	}
	gpusRow(ap.Left).entry.SetText("1,")
	gpusRow(ap.Right).entry.SetText("0,1")
	if got, want := gpuLineOf(ap.Left), "Runs on GPU 1: "+h100+". Pane B runs on GPU 1 too."; got != want {
		t.Errorf("pane A on 1, beside B on 0,1: %q, want %q", got, want)
	}
	if got := ap.prefs.String("left.gpus") + " " + ap.prefs.String("right.gpus"); got != "1, 0,1" {
		t.Errorf("saved %q, want each pane's own selection", got)
	}
}

func TestCompareOnOneGPUShares(t *testing.T) {
	ap := gpuCompare(t, 1)
	for _, c := range []struct {
		p    *Pane
		line string
	}{
		{ap.Left, "Runs on GPU 0: " + h100 + ". Pane B runs on GPU 0 too: this host has one GPU."},
		{ap.Right, "Runs on GPU 0: " + h100 + ". Pane A runs on GPU 0 too: this host has one GPU."},
	} {
		if got := gpuLineOf(c.p); got != c.line {
			t.Errorf("pane %s: %q, want %q", c.p.Name, got, c.line)
		}
	}
	if err := ap.Right.RunFor(50 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	settle(t, ap.Right)
	if got := fakeengine.LastParams().Extra; got["gpus"] != "" {
		t.Errorf("pane B on the one GPU ran with gpus %q, want the default", got["gpus"])
	}
	// With a CPU engine beside it, the GPU pane names no other pane.
	ap.Left.SetSettings(Settings{Algorithm: "gpusel", Backend: solver.BackendCPU, TimeLimit: time.Second, Seed: 1})
	if got, want := gpuLineOf(ap.Right), "Runs on GPU 0: "+h100+"."; got != want {
		t.Errorf("pane B beside a CPU pane: %q, want %q", got, want)
	}
}
