package app

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"github.com/tsplab/tsplab/internal/fakeengine"
	"github.com/tsplab/tsplab/solver"
)

// tunedFake stands for a GPU engine that fills its defaults and limits
// from the device (solver.Tuner): 4224 blocks, at most 512 threads.
type tunedFake struct{ fakeengine.Engine }

func (tunedFake) Tune(in *solver.Instance, set solver.OptionSet) solver.OptionSet {
	for i := range set {
		switch set[i].Name {
		case "blocks":
			set[i].Default = "4224"
		case "threads":
			set[i].Max = 512
		}
	}
	return set
}

// fakeClimb is the config of the fake CPU swap-climb: the options the
// real one declares in solver/cpu, which the app's tests do not link.
type fakeClimb struct{ Workers, Restarts int }

// The swap-climb options apply to fakes of that name (a name that sorts
// after the other tests' engines, so their defaults stay); the GPU fake
// declares options as package gpu's swap-climb does (blocks, threads,
// dist), which this package does not link either.
func init() {
	solver.Declare("swap-climb", solver.BackendCPU, solver.NewSpec(
		solver.SharedInt("workers", func(c *fakeClimb) *int { return &c.Workers }).Auto("all cores"),
		solver.Int("restarts", func(c *fakeClimb) *int { return &c.Restarts }, 0, 0, 1<<31-1, "climbs in all (0: until the time limit)")))
	solver.Register(fakeengine.Engine{Algo: "swap-climb"})
	solver.Register(tunedFake{fakeengine.Engine{Algo: "swap-climb", On: solver.BackendGPU}})
	type cfg struct {
		blocks, threads int
		dist            string
	}
	solver.Declare("swap-climb", solver.BackendGPU, solver.OptionSet{
		solver.SharedInt("blocks", func(c *cfg) *int { return &c.blocks }).Auto("climbers that fill the device").Option(),
		solver.SharedInt("threads", func(c *cfg) *int { return &c.threads }).Auto("tuned in waves of launches").Option(),
		solver.Choice("dist", func(c *cfg) *string { return &c.dist }, "auto", []string{"auto", "coords", "matrix"}, "kernel distances").Option(),
	})
}

func row(t *testing.T, f *settingsForm, name string) optionRow {
	t.Helper()
	for _, r := range f.rows {
		if r.opt.Name == name {
			return r
		}
	}
	t.Fatalf("no field for %s; have %d fields", name, len(f.rows))
	return optionRow{}
}

func grid(n int) *solver.Instance {
	x, y := make([]float64, n), make([]float64, n)
	for i := range x {
		x[i], y[i] = float64(i%1000), float64(i/1000)
	}
	return solver.NewCoordInstance("grid", solver.Euc2D, x, y, nil)
}

// TestSettingsFieldsFromTheOptionTable: the fields are the chosen engine's
// options; each shows the value that will run on this instance and device
// and the range allowed there, and a value outside it is refused with the
// field's name and the range.
func TestSettingsFieldsFromTheOptionTable(t *testing.T) {
	a := test.NewTempApp(t)
	f := newSettingsForm(a.Preferences(), "opts.", Settings{Algorithm: "swap-climb", Backend: solver.BackendCPU, Seed: 1})
	f.SetInstance(grid(200000))

	w := row(t, f, "workers")
	if e := w.entry; e.PlaceHolder != strconv.Itoa(runtime.NumCPU()) {
		t.Errorf("workers shows %q, want the cores %d", e.PlaceHolder, runtime.NumCPU())
	}
	if want := fmt.Sprintf("range 1..%d", solver.MaxTourCells/200000); !strings.Contains(w.help.Text, want) {
		t.Errorf("workers on 200000 cities: hint %q, want the %s (workers × cities at most solver.MaxTourCells)", w.help.Text, want)
	}
	if !strings.Contains(w.help.Text, "200,000 cities") || !strings.Contains(w.help.Text, "at most 33,554,432") {
		t.Errorf("workers on 200000 cities: hint %q, want its numbers grouped", w.help.Text)
	}
	r := row(t, f, "restarts")
	if r.entry.PlaceHolder != "0" {
		t.Errorf("restarts shows %q", r.entry.PlaceHolder)
	}
	_ = r.value.Set("-1")
	if _, err := f.Settings(); err == nil || !strings.Contains(err.Error(), "Restarts -1") || !strings.Contains(err.Error(), "0..") {
		t.Errorf("restarts -1: %v", err)
	}
	_ = r.value.Set("5")
	s, err := f.Settings()
	if err != nil || s.Params().Extra["restarts"] != "5" {
		t.Fatalf("restarts 5: %+v, %v", s.Options, err)
	}
	_ = w.value.Set("1000")
	if _, err := f.Settings(); err == nil || !strings.Contains(err.Error(), "Workers 1000") || !strings.Contains(err.Error(), "200,000 cities") {
		t.Errorf("workers 1000 on 200000 cities: %v", err)
	}
	_ = w.value.Set("")

	test.Tap(f.picker.backendBtns[solver.BackendGPU])
	b := row(t, f, "blocks").entry
	if b.PlaceHolder != "4224" {
		t.Errorf("GPU blocks shows %q, want the device's 4224", b.PlaceHolder)
	}
	th := row(t, f, "threads")
	if !strings.Contains(th.help.Text, "range 1..512") || th.entry.PlaceHolder == "" {
		t.Errorf("GPU threads: %q, hint %q", th.entry.PlaceHolder, th.help.Text)
	}
	_ = th.value.Set("1024")
	if _, err := f.Settings(); err == nil || !strings.Contains(err.Error(), "Threads/block 1024") || !strings.Contains(err.Error(), "1..512") {
		t.Errorf("threads past the device's: %v", err)
	}
	_ = th.value.Set("")
	d := row(t, f, "dist").choice
	if d.Selected != "default (auto)" || !strings.Contains(strings.Join(d.Options, " "), "matrix") {
		t.Errorf("dist: %q of %v", d.Selected, d.Options)
	}
	d.SetSelected("matrix")
	if s, err := f.Settings(); err != nil || s.Params().Extra["dist"] != "matrix" {
		t.Errorf("dist matrix: %+v %v", s.Options, err)
	}
	// The CPU engine has no dist option: back on the CPU the field is gone
	// and the value saved for the GPU is not sent.
	test.Tap(f.picker.backendBtns[solver.BackendCPU])
	for _, r := range f.rows {
		if r.opt.Name == "dist" {
			t.Error("the CPU form shows the GPU's dist")
		}
	}
	if s, err := f.Settings(); err != nil || s.Options["dist"] != "" || s.Options["restarts"] != "5" {
		t.Errorf("CPU settings: %+v %v", s.Options, err)
	}
}

// The Time limit field and compare mode's budget take what tsp --time
// takes: seconds or a duration such as 1m or 1m30s.
func TestTimeFieldsTakeTheCLIsDurations(t *testing.T) {
	a := test.NewTempApp(t)
	f := newSettingsForm(a.Preferences(), "durations.", Settings{Algorithm: "swap-climb", Backend: solver.BackendCPU, Seed: 1})
	for text, want := range map[string]time.Duration{"1m": time.Minute, "1m30s": 90 * time.Second, "2": 2 * time.Second, "2.5": 2500 * time.Millisecond, "500ms": 500 * time.Millisecond} {
		f.timeItem.SetText(text)
		s, err := f.Settings()
		if err != nil || s.TimeLimit != want || f.timeErr.Visible() {
			t.Errorf("time limit %q: %v, %v (error shown %v); want %v", text, s.TimeLimit, err, f.timeErr.Visible(), want)
		}
		if d, err := parseBudget(text); err != nil || d != want {
			t.Errorf("budget %q: %v, %v; want %v", text, d, err, want)
		}
	}
	for _, text := range []string{"1 minute", "-1m", "9999h"} {
		f.timeItem.SetText(text)
		if _, err := f.Settings(); err == nil || !f.timeErr.Visible() {
			t.Errorf("time limit %q accepted", text)
		}
	}
}

// A field replaced by a change of engine no longer follows its option's
// value: each preference has one binding, which every field built on it
// would otherwise keep setting and checking (a leak at each change).
func TestReplacedFieldsLetGoOfTheirValues(t *testing.T) {
	a := test.NewTempApp(t)
	f := newSettingsForm(a.Preferences(), "rebuilt.", Settings{Algorithm: "swap-climb", Backend: solver.BackendCPU, Seed: 1})
	f.SetInstance(grid(1000))
	old := row(t, f, "restarts").entry
	test.Tap(f.picker.backendBtns[solver.BackendGPU])
	test.Tap(f.picker.backendBtns[solver.BackendCPU])
	r := row(t, f, "restarts")
	if r.entry == old {
		t.Fatal("the field was not built again")
	}
	r.entry.SetText("7")
	if v, _ := r.value.Get(); v != "7" {
		t.Fatalf("restarts saved %q, want 7", v)
	}
	if old.Text == "7" {
		t.Error("the replaced Restarts field still follows the option's value")
	}
}
