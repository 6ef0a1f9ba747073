package solver

import (
	"errors"
	"strings"
	"testing"
)

// demoConfig is an engine's config struct for the tests of the spec.
type demoConfig struct {
	Workers int
	T0      float64
	Kicks   int
	Rate    float64
	Pivot   string
	Deep    bool
	Stale   int
	Sync    int
}

var demoSpec = NewSpec(
	SharedInt("workers", func(c *demoConfig) *int { return &c.Workers }).Auto("all cores"),
	SharedFloat("t0", func(c *demoConfig) *float64 { return &c.T0 }),
	Int("kicks", func(c *demoConfig) *int { return &c.Kicks }, 0, 0, 1000, "kicks per worker"),
	Float("rate", func(c *demoConfig) *float64 { return &c.Rate }, 0.5, 0, 1, "a rate").Open(true, false),
	Choice("pivot", func(c *demoConfig) *string { return &c.Pivot }, "first", []string{"first", "rkbi"}, "pivoting"),
	Bool("deep", func(c *demoConfig) *bool { return &c.Deep }, false, "deeper moves").Experimental(),
	Int("stale", func(c *demoConfig) *int { return &c.Stale }, 20, 0, 100, "escape threshold"),
	Int("sync", func(c *demoConfig) *int { return &c.Sync }, 0, 0, 1<<30, "exchange interval").Experimental(),
).BySize(SizeTable{
	{To: 1000, Set: map[string]string{"stale": "3", "deep": "on"}},
	{From: 1000, PerCity: map[string]float64{"sync": 2}},
})

func TestSpecParse(t *testing.T) {
	small, large := square(100), square(5000)
	c, err := demoSpec.Parse(small, Params{})
	if err != nil {
		t.Fatal(err)
	}
	want := demoConfig{T0: DefaultT0, Rate: 0.5, Pivot: "first", Deep: true, Stale: 3}
	if c != want {
		t.Errorf("defaults on 100 cities: got %+v, want %+v", c, want)
	}
	c, err = demoSpec.Parse(large, Params{})
	if err != nil {
		t.Fatal(err)
	}
	want = demoConfig{T0: DefaultT0, Rate: 0.5, Pivot: "first", Stale: 20, Sync: 10000}
	if c != want {
		t.Errorf("defaults on 5000 cities: got %+v, want %+v", c, want)
	}
	p := Params{Workers: 3, Extra: map[string]string{"t0": "50", "kicks": "7", "rate": "1", "pivot": "rkbi", "deep": "off", "stale": " 9 "}}
	c, err = demoSpec.Parse(small, p)
	if err != nil {
		t.Fatal(err)
	}
	want = demoConfig{Workers: 3, T0: 50, Kicks: 7, Rate: 1, Pivot: "rkbi", Stale: 9}
	if c != want {
		t.Errorf("set: got %+v, want %+v", c, want)
	}
	// No instance: the declared defaults.
	if c, err = demoSpec.Parse(nil, Params{}); err != nil || c.Stale != 20 || c.Deep {
		t.Errorf("without an instance: %+v, %v", c, err)
	}
}

func TestSpecParseErrors(t *testing.T) {
	cases := []struct {
		p    Params
		want string
	}{
		{Params{Extra: map[string]string{"kicks": "1001"}}, "--opt kicks 1001 is out of range: want 0..1000"},
		{Params{Extra: map[string]string{"kicks": "many"}}, "--opt kicks many is not an integer: want 0..1000"},
		{Params{Extra: map[string]string{"rate": "0"}}, "--opt rate 0 is out of range: want 0 < x <= 1"},
		{Params{Extra: map[string]string{"pivot": "best"}}, "--opt pivot best is unknown: want one of first|rkbi"},
		{Params{Extra: map[string]string{"deep": "maybe"}}, "--opt deep maybe is unknown: want one of on|off"},
		{Params{Extra: map[string]string{"nosuch": "1"}}, "--opt nosuch is unknown: want one of the options of this engine: t0, kicks, rate, pivot, stale (and experimental ones: tsp engines --verbose --all)"},
		{Params{Workers: 5000}, "--workers 5000 is out of range: want 1..1024 (0: default)"},
	}
	for _, tc := range cases {
		_, err := demoSpec.Parse(square(10), tc.p)
		var pe *ParamError
		if !errors.As(err, &pe) {
			t.Errorf("%+v: got %v, want a *ParamError", tc.p, err)
			continue
		}
		if err.Error() != tc.want {
			t.Errorf("%+v:\n got %q\nwant %q", tc.p, err, tc.want)
		}
	}
}

func TestSpecOptions(t *testing.T) {
	set := demoSpec.Options(nil)
	if got := strings.Join(set.Names(), ","); got != "workers,t0,kicks,rate,pivot,deep,stale,sync" {
		t.Errorf("names in declaration order: %s", got)
	}
	for _, name := range []string{"stale", "deep", "sync"} {
		if o, _ := set.Lookup(name); o.Default != "" || o.Auto != BySize {
			t.Errorf("%s without an instance: default %q auto %q, want %q", name, o.Default, o.Auto, BySize)
		}
	}
	if o, _ := set.Lookup("workers"); !o.Shared || o.Flag() != "--workers" || o.Auto != "all cores" {
		t.Errorf("workers: %+v", o)
	}
	if o, _ := demoSpec.Options(square(5000)).Lookup("sync"); o.Default != "10000" {
		t.Errorf("sync on 5000 cities: %q, want 10000", o.Default)
	}
	if got := strings.Join(set.Stable().Names(), ","); got != "workers,t0,kicks,rate,pivot,stale" {
		t.Errorf("stable: %s", got)
	}
	w := demoSpec.With("kicks", "5").Modify("pivot", func(d Decl[demoConfig]) Decl[demoConfig] { return d.Experimental() })
	if o, _ := w.Options(nil).Lookup("kicks"); o.Default != "5" {
		t.Errorf("With: kicks default %q", o.Default)
	}
	if o, _ := w.Options(nil).Lookup("pivot"); !o.Experimental {
		t.Errorf("Modify: pivot not experimental")
	}
	if o, _ := demoSpec.Options(nil).Lookup("kicks"); o.Default != "0" {
		t.Errorf("With changed the original spec: kicks default %q", o.Default)
	}
}

func TestDeclaredOptionsReachTheFrontEnds(t *testing.T) {
	Declare("demo-declared", BackendCPU, demoSpec)
	e := optEngine{name: "demo-declared", backend: BackendCPU}
	if !HasOptionTable(e.name, e.backend) || len(OptionsFor(e.name, e.backend)) != 8 {
		t.Fatalf("OptionsFor: %v", OptionsFor(e.name, e.backend).Names())
	}
	if o, _ := EffectiveOptions(e, square(100)).Lookup("stale"); o.Default != "3" {
		t.Errorf("EffectiveOptions on 100 cities: stale %q, want 3", o.Default)
	}
	err := Validate(e, square(10), Params{Extra: map[string]string{"pivot": "x"}})
	if err == nil || !strings.Contains(err.Error(), "--opt pivot x is unknown") {
		t.Errorf("Validate: %v", err)
	}
	err = Validate(e, square(10), Params{Extra: map[string]string{"segment": "3"}})
	if err == nil || !strings.Contains(err.Error(), "options of demo-declared/cpu: t0, kicks, rate") {
		t.Errorf("Validate, a key of another engine: %v", err)
	}
	var p Params
	if err := p.Set("rate=0.25"); err != nil {
		t.Fatal(err)
	}
	if err := p.Set("deep="); err != nil {
		t.Errorf("Set removes a declared option's key: %v", err)
	}
}

func TestConfigureValidatesFirst(t *testing.T) {
	Declare("demo-configure", BackendCPU, demoSpec)
	e := optEngine{name: "demo-configure", backend: BackendCPU}
	// 200,000 cities: at most 167 workers (MaxTourCells), tighter than
	// the declared range.
	_, err := Configure(demoSpec, e, square(200000), Params{Workers: 1000})
	if err == nil || !strings.Contains(err.Error(), "for 200000 cities") {
		t.Errorf("Configure: %v", err)
	}
	c, err := Configure(demoSpec, e, square(10), Params{Workers: 2})
	if err != nil || c.Workers != 2 {
		t.Errorf("Configure: %+v, %v", c, err)
	}
}

type innerConfig struct{ Window int }

func TestInheritAndParseKnown(t *testing.T) {
	Declare("demo-inner", BackendCPU, demoSpec)
	own := NewSpec(Int("window", func(c *innerConfig) *int { return &c.Window }, 1024, 32, 2048, "window"),
		Int("stale", func(c *innerConfig) *int { return new(int) }, 5, 0, 9, "replaces the inherited stale"))
	h := Inherit("demo-inner", BackendCPU, own)
	got := strings.Join(h.Options(nil).Names(), ",")
	if got != "workers,t0,kicks,rate,pivot,deep,sync,window,stale" {
		t.Errorf("inherited names: %s", got)
	}
	if o, _ := h.Options(square(5000)).Lookup("sync"); o.Default != "10000" {
		t.Errorf("inherited size default: sync %q", o.Default)
	}
	p := Params{Extra: map[string]string{"window": "64", "kicks": "3"}}
	if _, err := own.Parse(nil, p); err == nil {
		t.Errorf("Parse took an undeclared key")
	}
	c, err := own.ParseKnown(nil, p)
	if err != nil || c.Window != 64 {
		t.Errorf("ParseKnown: %+v, %v", c, err)
	}
	if _, err := own.ParseKnown(nil, Params{Extra: map[string]string{"window": "4"}}); err == nil {
		t.Errorf("ParseKnown: window 4 accepted")
	}
}

func TestWithExtraCopies(t *testing.T) {
	p := Params{Extra: map[string]string{"a": "1"}}
	q := p.WithExtra("b", "2")
	if len(p.Extra) != 1 || q.Extra["a"] != "1" || q.Extra["b"] != "2" {
		t.Errorf("p %v, q %v", p.Extra, q.Extra)
	}
	if r := (Params{}).WithExtra("c", "3"); r.Extra["c"] != "3" {
		t.Errorf("from nil: %v", r.Extra)
	}
}

// TestEnumParse checks that an Enum option stores the value of its
// choice, the default included, and refuses a word outside its choices.
func TestEnumParse(t *testing.T) {
	type level int8
	type cfg struct{ L level }
	spec := NewSpec(Enum("level", func(c *cfg) *level { return &c.L }, "mid", []string{"low", "mid", "high"}, []level{1, 2, 3}, "a level"))
	for text, want := range map[string]level{"": 2, "low": 1, "high": 3} {
		c, err := spec.Parse(nil, Params{Extra: map[string]string{"level": text}})
		if err != nil || c.L != want {
			t.Errorf("level=%q: got %d (%v), want %d", text, c.L, err, want)
		}
	}
	if _, err := spec.Parse(nil, Params{Extra: map[string]string{"level": "top"}}); err == nil {
		t.Error("level=top: no error")
	}
}
