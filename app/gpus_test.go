package app

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/tsplab/tsplab/internal/fakeengine"
	"github.com/tsplab/tsplab/solver"
)

// gpusel is a test engine on the CPU and on a pretended GPU whose GPU
// engine takes a device selection, as the GPU engines' gpus option.
func init() {
	gpus := solver.Option{Name: "gpus", Kind: solver.KindText, Default: "all", Doc: "the GPUs the run uses"}
	solver.Declare("gpusel", solver.BackendGPU, append(solver.SharedOptions(), gpus))
	fakeengine.Register(fakeengine.Engine{Algo: "gpusel"}, fakeengine.Engine{Algo: "gpusel", On: solver.BackendGPU})
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
