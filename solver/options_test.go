package solver

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// optEngine is a fake engine with the name of a real one, so the option
// table applies to it; tuned narrows threads as a device would.
type optEngine struct {
	name, backend string
	maxThreads    float64
}

func (f optEngine) Name() string     { return f.name }
func (f optEngine) Backend() string  { return f.backend }
func (f optEngine) Describe() string { return "test engine" }
func (f optEngine) Available() error { return nil }
func (f optEngine) Solve(ctx context.Context, in *Instance, p Params, _ chan Snapshot) (Result, error) {
	return Finish(in, f, p, Outcome{Tour: IdentityTour(in.N), Start: time.Now(), Device: "test"})
}

type tunedEngine struct{ optEngine }

// tunes counts tunedEngine's tunings: the device's, which Validate leaves
// out.
var tunes atomic.Int32

func (f tunedEngine) Tune(in *Instance, set OptionSet) OptionSet {
	tunes.Add(1)
	for i := range set {
		switch set[i].Name {
		case "threads":
			set[i].Max = f.maxThreads
		case "blocks":
			set[i].Default = "4224"
		}
	}
	return set
}

func square(n int) *Instance {
	x, y := make([]float64, n), make([]float64, n)
	for i := range x {
		x[i], y[i] = float64(i%100), float64(i/100)
	}
	return NewCoordInstance("grid", Euc2D, x, y, nil)
}

func TestValidate(t *testing.T) {
	small, big := square(100), square(200000)
	cpuILS := optEngine{name: "auto", backend: BackendCPU}
	cpuPSPM := optEngine{name: "pspm", backend: BackendCPU}
	gpuPSPM := tunedEngine{optEngine{name: "pspm", backend: BackendGPU, maxThreads: 512}}
	cases := []struct {
		name string
		e    Engine
		in   *Instance
		p    Params
		flag string // "" when p is fine
		want string // in the message
	}{
		{"defaults", cpuPSPM, small, Params{}, "", ""},
		{"all fields set", cpuPSPM, small, ext("blocks", 4, "threads", 64, "k", 10, "t0", 100, "tend", 1, "alpha", 0.9, "sweeps", 2, "workers", 2), "", ""},
		{"blocks near MaxInt64", cpuPSPM, small, ext("blocks", math.MaxInt64/2), "--blocks", "out of range: want 1..65,536"},
		{"negative blocks", cpuPSPM, small, ext("blocks", -1), "--blocks", "1..65,536"},
		{"blocks × n past the memory bound", cpuPSPM, big, ext("blocks", 1000), "--blocks", "for 200,000 cities"},
		{"workers × n past the memory bound", cpuILS, big, ext("workers", 1000), "--workers", "want 1..167"},
		{"workers past the most", cpuILS, small, ext("workers", 100000000), "--workers", "1..1,024"},
		{"threads near MaxInt64", cpuPSPM, small, ext("threads", math.MaxInt64), "--threads", "1..1,024"},
		{"threads past the device's", gpuPSPM, small, ext("threads", 1024), "--threads", "1..512"},
		{"sweeps near MaxInt64", cpuPSPM, small, ext("sweeps", math.MaxInt64-1), "--sweeps", "1..2^20"},
		{"k negative", cpuPSPM, small, ext("k", -5), "--k", "1..2^30"},
		{"t0 below tend", cpuPSPM, small, ext("t0", 1, "tend", 2), "--t0", "> tend = 2"},
		{"t0 below the default tend", gpuPSPM, small, ext("t0", 0.05), "--t0", "> tend = 0.1"},
		{"alpha 1", cpuPSPM, small, ext("alpha", 1), "--alpha", "0 < x < 1"},
		{"alpha 1 on the GPU", gpuPSPM, small, ext("alpha", 1), "--alpha", "0 < x < 1"},
		{"alpha too close to 1", cpuPSPM, small, ext("alpha", 0.9999999999), "--alpha", "temperature steps"},
		{"t0 infinite", cpuPSPM, small, ext("t0", math.Inf(1)), "--t0", "out of range"},
		{"t0 NaN", cpuPSPM, small, ext("t0", math.NaN()), "--t0", "is not a number"},
		{"stray blocks bounded too", cpuILS, small, ext("blocks", 1<<40), "--blocks", "1..65,536"},
		{"time negative", cpuILS, small, Params{TimeLimit: -time.Second}, "--time", ""},
		{"target negative", cpuILS, small, Params{Target: -1}, "--target", ""},
		{"known option", cpuILS, small, Params{Extra: map[string]string{"kicks": "10", "pivot": "rkbi", "threeopt": "off"}}, "", ""},
		{"unknown option", cpuILS, small, Params{Extra: map[string]string{"rkbi": "3"}}, "--opt", "kicks, pivot"},
		{"option of another engine", cpuILS, small, Params{Extra: map[string]string{"samples": "3"}}, "--opt", "unknown"},
		{"option bad int", cpuILS, small, Params{Extra: map[string]string{"kicks": "many"}}, "--opt kicks", "--opt kicks many is not an integer: want 0..2,147,483,647"},
		{"option int past int64", cpuILS, small, Params{Extra: map[string]string{"kicks": "99999999999999999999"}}, "--opt kicks", "out of range: want 0..2,147,483,647"},
		{"option bad on/off", cpuILS, small, Params{Extra: map[string]string{"threeopt": "maybe"}}, "--opt threeopt", "unknown: want one of on|off"},
		{"option negative", cpuILS, small, Params{Extra: map[string]string{"sync": "-1"}}, "--opt sync", "0.."},
		{"option bad choice", cpuILS, small, Params{Extra: map[string]string{"candidates": "farthest"}}, "--opt candidates", "nearest|quadrant|union|mixed"},
		{"rkbi_k 9 on the CPU", optEngine{name: "3opt-ils", backend: BackendCPU}, small, Params{Extra: map[string]string{"rkbi_k": "9"}}, "", ""},
		{"no instance yet", cpuPSPM, nil, ext("blocks", 1000), "", ""},
		{"draw on the CPU", cpuPSPM, small, Params{Extra: map[string]string{"draw": "nn"}}, "--opt", "pspm/cpu: blocks, threads, k, t0"},
		{"loop on the CPU", optEngine{name: "3opt-ils", backend: BackendCPU}, small, Params{Extra: map[string]string{"loop": "host"}}, "--opt", "unknown"},
		{"wsegment", optEngine{name: "auto", backend: BackendGPU}, small, Params{Extra: map[string]string{"wsegment": "512"}}, "", ""},
		{"wsegment 0", optEngine{name: "auto", backend: BackendGPU}, small, Params{Extra: map[string]string{"wsegment": "0"}}, "--opt wsegment", "1..512"},
		{"wsegment past the most", optEngine{name: "auto", backend: BackendGPU}, small, Params{Extra: map[string]string{"wsegment": "513"}}, "--opt wsegment", "1..512"},
		{"wsegment on CPU auto", cpuILS, small, Params{Extra: map[string]string{"wsegment": "30"}}, "--opt", "unknown"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// Validate, then the device's limits as a GPU run checks them
			err := Validate(c.e, c.in, c.p)
			if err == nil {
				err = CheckDevice(c.e, c.in, c.p)
			}
			if c.flag == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var pe *ParamError
			if !errors.As(err, &pe) {
				t.Fatalf("want a *ParamError for %s, got %v", c.flag, err)
			}
			if pe.Flag != c.flag || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("got %q (flag %q), want flag %s and %q", err, pe.Flag, c.flag, c.want)
			}
		})
	}
}

// TestBackendsRefuseAlike: for every algorithm on both backends, a value
// out of the widest range is refused with the same message.
func TestBackendsRefuseAlike(t *testing.T) {
	in := square(100)
	for _, algo := range []string{"pspm", "sspm", "pssm", "3opt-ils", "2opt-climb", "swap-climb", "auto"} {
		for _, p := range []Params{
			ext("blocks", 1<<21), ext("threads", 1<<40), ext("alpha", 1.5), ext("t0", 1, "tend", 5), ext("sweeps", -2), ext("k", -1),
			{TimeLimit: -1}, {Workers: 5000},
		} {
			ec := Validate(optEngine{name: algo, backend: BackendCPU}, in, p)
			eg := Validate(optEngine{name: algo, backend: BackendGPU}, in, p)
			if ec == nil || eg == nil {
				t.Errorf("%s %+v: cpu %v, gpu %v: both must refuse", algo, p, ec, eg)
				continue
			}
			var pc, pg *ParamError
			if !errors.As(ec, &pc) || !errors.As(eg, &pg) || pc.Flag != pg.Flag || pc.Range != pg.Range {
				t.Errorf("%s %+v: cpu %q, gpu %q", algo, p, ec, eg)
			}
		}
	}
}

func TestParamsSet(t *testing.T) {
	cases := []struct {
		in      string
		ok      bool
		check   func(p Params) bool
		comment string
	}{
		{"blocks=64", true, func(p Params) bool { return p.Extra["blocks"] == "64" }, "a shared option by its flag name"},
		{"alpha=0.95", true, func(p Params) bool { return p.Extra["alpha"] == "0.95" }, ""},
		{"blocks=0", true, func(p Params) bool { return !p.Given("blocks") }, "0: the default"},
		{"workers=3", true, func(p Params) bool { return p.Workers == 3 }, "workers is a field"},
		{"blocks=-3", false, nil, ""},
		{"blocks=1e99", false, nil, ""},
		{"alpha=1", false, nil, ""},
		{"threads=x", false, nil, ""},
		{"rkbi_k=5", true, func(p Params) bool { return p.Extra["rkbi_k"] == "5" }, "an Extra key"},
		{" pivot = rkbi ", true, func(p Params) bool { return p.Extra["pivot"] == "rkbi" }, "spaces trimmed"},
		{"kicks", false, nil, "no ="},
		{"=3", false, nil, "no name"},
	}
	for _, c := range cases {
		var p Params
		err := p.Set(c.in)
		if (err == nil) != c.ok {
			t.Errorf("Set(%q): %v", c.in, err)
			continue
		}
		if c.ok && !c.check(p) {
			t.Errorf("Set(%q) gave %+v", c.in, p)
		}
		var pe *ParamError
		if !c.ok && !errors.As(err, &pe) {
			t.Errorf("Set(%q): %v is not a *ParamError", c.in, err)
		}
	}
	p := Params{Extra: map[string]string{"kicks": "5"}}
	if err := p.Set("kicks="); err != nil || len(p.Extra) != 0 {
		t.Errorf("kicks= should remove the key: %v %v", p.Extra, err)
	}
	// A name no engine has is refused even with no value to check.
	var pe *ParamError
	if err := p.Set("kciks="); !errors.As(err, &pe) || pe.Value != "kciks" {
		t.Errorf("Set(\"kciks=\"): %v, want a *ParamError naming kciks", err)
	}
}

// The declared defaults read as their options' values, and a setting is
// read against the engine it is given to.
func TestOptionSetReads(t *testing.T) {
	auto := OptionsFor("auto", BackendCPU)
	ils := OptionsFor("2opt-ils", BackendCPU)
	read := func(set OptionSet, name, text string) (string, float64, error) {
		o, ok := set.Lookup(name)
		if !ok {
			return "", 0, errors.New("no option " + name)
		}
		if text == "" {
			text = o.Default
		}
		return o.parse(text)
	}
	if _, v, err := read(auto, "neighbors", "12"); err != nil || v != 12 {
		t.Errorf("neighbors: %v %v", v, err)
	}
	if _, v, err := read(auto, "stale", ""); err != nil || v != 20 {
		t.Errorf("auto's stale default: %v %v", v, err)
	}
	if _, v, err := read(ils, "stale", ""); err != nil || v != 0 {
		t.Errorf("2opt-ils's stale default: %v %v", v, err)
	}
	if c, v, err := read(auto, "threeopt", "no"); err != nil || v != 0 || c != "off" {
		t.Errorf("threeopt no: %q %v %v", c, v, err)
	}
	if c, _, err := read(auto, "threeopt", ""); err != nil || c != "on" {
		t.Errorf("auto's threeopt default: %q %v", c, err)
	}
	if c, _, err := read(auto, "accept", ""); err != nil || c != "equal" {
		t.Errorf("auto's accept default: %q %v", c, err)
	}
	if _, _, err := read(auto, "segment", "0"); err == nil {
		t.Error("segment 0 accepted")
	}
	if _, _, err := read(auto, "samples", "1"); err == nil {
		t.Error("an option of another engine read")
	}
}

func TestEveryOptionIsWellFormed(t *testing.T) {
	declMu.RLock()
	ds := maps.Clone(declared)
	declMu.RUnlock()
	for key, d := range ds {
		for _, o := range d.Options(nil) {
			if o.Doc == "" || (o.Default == "") == (o.Auto == "") {
				t.Errorf("%v %s: doc and exactly one of Default, Auto needed: %+v", key, o.Name, o)
			}
			if o.Default != "" {
				if _, _, err := o.parse(o.Default); err != nil {
					t.Errorf("%v %s: default %q outside its own range: %v", key, o.Name, o.Default, err)
				}
			}
		}
	}
}

func TestScheduleSameForBothBackends(t *testing.T) {
	p, err := AnnealOf(nil, Params{})
	if err != nil || p.T0 != DefaultT0 || p.TEnd != DefaultTEnd || p.Alpha != DefaultAlpha || p.Sweeps != DefaultSweeps || p.K != DefaultK {
		t.Fatalf("%+v %v", p, err)
	}
	if s := ScheduleSteps(p); s != 1146 {
		t.Fatalf("steps %d, want 1146 (log(1e-5)/log(0.99))", s)
	}
}

// Validate opens no device: it reads no tuned option, and CheckDevice
// tunes only when blocks or threads are given.
func TestValidateOpensNoDevice(t *testing.T) {
	e := tunedEngine{optEngine{name: "pspm", backend: BackendGPU, maxThreads: 512}}
	tunes.Store(0)
	if err := Validate(e, square(100), ext("threads", 1024, "k", 3)); err != nil {
		t.Fatal(err)
	}
	if err := CheckDevice(e, square(100), ext("k", 3)); err != nil {
		t.Fatal(err)
	}
	if n := tunes.Load(); n != 0 {
		t.Fatalf("Validate and CheckDevice without blocks or threads tuned %d times, want 0", n)
	}
	if err := CheckDevice(e, square(100), ext("threads", 1024)); err == nil || tunes.Load() != 1 {
		t.Fatalf("CheckDevice of 1,024 threads on a 512-thread device: %v after %d tunings, want a refusal after 1", err, tunes.Load())
	}
}

func TestEffectiveOptions(t *testing.T) {
	in := square(200000)
	set := EffectiveOptions(optEngine{name: "pspm", backend: BackendCPU}, in)
	b, _ := set.Lookup("blocks")
	w, _ := set.Lookup("workers")
	if b.Default == "" || b.Default != w.Default || b.Max != MaxTourCells/200000 {
		t.Errorf("cpu pspm on 200k: blocks %+v, workers %+v", b, w)
	}
	set = EffectiveOptions(tunedEngine{optEngine{name: "pspm", backend: BackendGPU, maxThreads: 1024}}, square(10))
	if b, _ := set.Lookup("blocks"); b.Default != "4224" {
		t.Errorf("gpu pspm: the engine's default not taken: %+v", b)
	}
}

func TestRunValidates(t *testing.T) {
	in := square(10)
	_, err := Run(context.Background(), optEngine{name: "pspm", backend: BackendCPU}, in, ext("alpha", 2), nil)
	var pe *ParamError
	if !errors.As(err, &pe) || pe.Flag != "--alpha" {
		t.Fatalf("Run: %v", err)
	}
}

func TestUnknownAlgorithmIsAUsageError(t *testing.T) {
	_, _, err := Resolve("no-such-algo", BackendCPU)
	var pe *ParamError
	if !errors.As(err, &pe) || pe.Flag != "--algo" || !errors.Is(err, ErrUnknownEngine) {
		t.Fatalf("got %v", err)
	}
	if _, _, err := Resolve("auto", "tpu"); !errors.As(err, &pe) || pe.Flag != "--backend" {
		t.Fatalf("backend: got %v", err)
	}
}

// TestParamErrorShowsTheValueGiven: an integer far past its range is
// shown as typed, not in floating point.
func TestParamErrorShowsTheValueGiven(t *testing.T) {
	e := optEngine{name: "pspm", backend: BackendCPU}
	for _, c := range []struct {
		p    Params
		want string
	}{
		{ext("blocks", 4611686018427387904), "--blocks 4611686018427387904 "},
		{ext("sweeps", math.MaxInt64-1), "--sweeps 9223372036854775806 "},
		{ext("workers", 100000000), "--workers 100000000 "},
	} {
		if err := Validate(e, square(100), c.p); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("got %v, want it to start %q", err, c.want)
		}
	}
}

// ext returns Params with the options given as name, value pairs, as
// `--opt name=value` sets them (workers into Params.Workers).
func ext(kv ...any) Params {
	p := Params{Extra: map[string]string{}}
	for i := 0; i+1 < len(kv); i += 2 {
		name, v := kv[i].(string), fmt.Sprint(kv[i+1])
		if name == "workers" {
			p.Workers, _ = strconv.Atoi(v)
			continue
		}
		p.Extra[name] = v
	}
	return p
}

// TestParamsTextWithout: Text reads an option's trimmed value and Without
// drops it from a copy, leaving the caller's map as it was.
func TestParamsTextWithout(t *testing.T) {
	p := Params{Extra: map[string]string{"gpus": " 0,1 ", "kicks": "5"}}
	if p.Text("gpus") != "0,1" || p.Text("none") != "" {
		t.Fatalf("Text: %q %q", p.Text("gpus"), p.Text("none"))
	}
	q := p.Without("gpus")
	if q.Given("gpus") || !q.Given("kicks") || !p.Given("gpus") || len(p.Extra) != 2 {
		t.Fatalf("Without: %v from %v", q.Extra, p.Extra)
	}
	if r := q.Without("gpus"); len(r.Extra) != 1 {
		t.Fatalf("Without of an absent option: %v", r.Extra)
	}
}

// TestParamsSetCopies: Set writes into a copy of Extra whether it sets,
// replaces or removes a setting, shared or the engine's own, so that a
// Params copied before keeps its settings.
func TestParamsSetCopies(t *testing.T) {
	for _, setting := range []string{"blocks=8", "blocks=", "kicks=5", "kicks=", "blocks=0"} {
		p := Params{Extra: map[string]string{"blocks": "4", "kicks": "3"}}
		q := p
		if err := q.Set(setting); err != nil {
			t.Fatalf("Set(%q): %v", setting, err)
		}
		if p.Extra["blocks"] != "4" || p.Extra["kicks"] != "3" || len(p.Extra) != 2 {
			t.Errorf("Set(%q) changed the copy before it: %v", setting, p.Extra)
		}
	}
}
