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
		{Params{Extra: map[string]string{"kicks": "1001"}}, "--opt kicks 1001 is out of range: want 0..1,000"},
		{Params{Extra: map[string]string{"kicks": "many"}}, "--opt kicks many is not an integer: want 0..1,000"},
		{Params{Extra: map[string]string{"rate": "0"}}, "--opt rate 0 is out of range: want 0 < x <= 1"},
		{Params{Extra: map[string]string{"pivot": "best"}}, "--opt pivot best is unknown: want one of first|rkbi"},
		{Params{Extra: map[string]string{"deep": "maybe"}}, "--opt deep maybe is unknown: want one of on|off"},
		{Params{Extra: map[string]string{"nosuch": "1"}}, "--opt nosuch is unknown: want one of the options of this engine: t0, kicks, rate, pivot, stale (and 2 experimental ones, listed by tsp engines --verbose --all)"},
		{Params{Extra: map[string]string{"syn": "1"}}, "--opt syn is unknown: want one of the options of this engine: t0, kicks, rate, pivot, stale (and 2 experimental ones, listed by tsp engines --verbose --all) (did you mean sync?)"},
		{Params{Workers: 5000}, "--workers 5000 is out of range: want 1..1,024 (0: default)"},
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
	if err == nil || !strings.Contains(err.Error(), "for 200,000 cities") {
		t.Errorf("Configure: %v", err)
	}
	c, err := Configure(demoSpec, e, square(10), Params{Workers: 2})
	if err != nil || c.Workers != 2 {
		t.Errorf("Configure: %+v, %v", c, err)
	}
}

// TestFixed: an option a spec fixes is no option of the engine (not
// listed, refused when given) and its field takes the default, by size
// where the table sets one.
func TestFixed(t *testing.T) {
	s := demoSpec.Fixed("stale", "sync")
	if got := strings.Join(s.Options(nil).Names(), ","); got != "workers,t0,kicks,rate,pivot,deep" {
		t.Errorf("listed: %s", got)
	}
	if _, err := s.Parse(nil, Params{Extra: map[string]string{"stale": "4"}}); err == nil || !strings.Contains(err.Error(), "--opt stale is unknown") {
		t.Errorf("a fixed option given: %v", err)
	}
	for _, c := range []struct{ n, stale, sync int }{{10, 3, 0}, {5000, 20, 10000}} {
		got, err := s.Parse(square(c.n), Params{})
		if err != nil || got.Stale != c.stale || got.Sync != c.sync {
			t.Errorf("%d cities: %+v, %v", c.n, got, err)
		}
	}
}

// preparedEngine is a fake engine that reads its config once
// (Preparer) and counts its parses.
type preparedEngine struct {
	fakeEngine
	parses *int
}

func (f preparedEngine) Prepare(in *Instance, p Params) (any, error) {
	*f.parses++
	return demoSpec.Parse(in, p)
}

// TestPrepareOnce: Prepare checks the params and hands the engine's config
// with them, which Configure takes without parsing again; changed settings
// (Set, Without, WithExtra), another instance or another engine drop it,
// and Configure checks and parses them again.
func TestPrepareOnce(t *testing.T) {
	Declare("demo-prepared", BackendCPU, demoSpec)
	parses := 0
	e := preparedEngine{fakeEngine{name: "demo-prepared", backend: BackendCPU}, &parses}
	in := square(10)
	p, err := Prepare(e, in, Params{Extra: map[string]string{"kicks": "7"}})
	if err != nil || parses != 1 {
		t.Fatalf("prepare: %v, %d parses", err, parses)
	}
	if c, err := Configure(demoSpec, e, in, p); err != nil || c.Kicks != 7 || parses != 1 {
		t.Errorf("configure: %+v, %v, %d parses", c, err, parses)
	}
	if _, err := Prepare(e, in, Params{Extra: map[string]string{"kicks": "-1"}}); err == nil {
		t.Error("prepare took kicks -1")
	}
	q := p
	if err := q.Set("kicks=9"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		in    *Instance
		p     Params
		kicks int
	}{
		{"set", in, q, 9}, {"without", in, p.Without("kicks"), 0}, {"with", in, p.WithExtra("kicks", "3"), 3}, {"another instance", square(10), p, 7},
	} {
		if _, ok := c.p.preparedFor(e, c.in); ok {
			t.Errorf("%s: the config prepared before stayed", c.name)
		}
		if cfg, err := Configure(demoSpec, e, c.in, c.p); err != nil || cfg.Kicks != c.kicks {
			t.Errorf("%s: %+v, %v", c.name, cfg, err)
		}
	}
	if _, ok := p.preparedFor(fakeEngine{name: "other", backend: BackendCPU}, in); ok {
		t.Error("another engine took the prepared config")
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
