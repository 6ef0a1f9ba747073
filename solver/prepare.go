package solver

import (
	"fmt"
	"maps"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
)

// Preparer is an engine that reads a run's settings into its typed config once, for Prepare; others get their Spec's config.
type Preparer interface {
	// Prepare returns the engine's config for a run of p on in, or a *ParamError.
	Prepare(in *Instance, p Params) (any, error)
}

// Prepare checks p for e on in and returns it carrying e's config, so e's Solve checks nothing again; changing the
// settings drops the config.
func Prepare(e Engine, in *Instance, p Params) (Params, error) {
	p.prepared = nil
	r, err := validate(e, in, p)
	if err != nil {
		return p, err
	}
	p.read = r
	var cfg any
	pr, ok := e.(Preparer)
	if d, spec := declaredFor(e.Name(), e.Backend()); !ok && spec {
		pr, ok = d.(Preparer)
	}
	if ok {
		if cfg, err = pr.Prepare(in, p); err != nil {
			return p, err
		}
	}
	p.prepared = &prepared{algorithm: e.Name(), backend: e.Backend(), in: in, extra: maps.Clone(p.Extra), workers: p.Workers, cfg: cfg}
	return p, nil
}

// preparedFor returns the config p carries for e on in, if any.
func (p Params) preparedFor(e Engine, in *Instance) (any, bool) {
	c := p.prepared
	if c == nil || c.in != in || c.algorithm != e.Name() || c.backend != e.Backend() ||
		c.workers != p.Workers || !maps.Equal(c.extra, p.Extra) {
		return nil, false
	}
	return c.cfg, true
}

// Check validates p for e on in unless Prepare prepared it: the one check an engine's Solve makes.
func Check(e Engine, in *Instance, p Params) error {
	if _, ok := p.preparedFor(e, in); ok {
		return nil
	}
	return Validate(e, in, p)
}

// Configure returns e's config for a run of p on in, Prepare's or parsed with s: the one read of an engine's settings.
func Configure[C any](s *Spec[C], e Engine, in *Instance, p Params) (C, error) {
	cfg, ok := p.preparedFor(e, in)
	if c, isC := cfg.(C); ok && isC {
		return c, nil
	}
	if !ok {
		r, err := validate(e, in, p)
		if err != nil {
			var zero C
			return zero, err
		}
		p.read = r
	}
	return s.Parse(in, p)
}

// ConfigOf returns e's config for a run of p on in as Configure does, without checking p (for DefaultLimit).
func ConfigOf[C any](s *Spec[C], e Engine, in *Instance, p Params) (C, error) {
	if cfg, ok := p.preparedFor(e, in); ok {
		if c, ok := cfg.(C); ok {
			return c, nil
		}
	}
	return s.Parse(in, p)
}

// Read checks p for e before the instance is known and returns it carrying its settings as read, for Prepare.
func Read(e Engine, p Params) (Params, error) {
	r, err := validate(e, nil, p)
	p.read = r
	return p, err
}

// ReadFrom returns p carrying q's read settings where p has none.
func (p Params) ReadFrom(q Params) Params {
	if p.read == nil {
		p.read = q.read
	}
	return p
}

// Tuner is an engine whose option defaults or limits depend on the instance or device: Tune returns opts with the
// Default that will run and Max narrowed, without a long computation.
type Tuner interface {
	Tune(in *Instance, opts OptionSet) OptionSet
}

// Planner is an engine that decides a run's strategy: Plan says in one line what a default run on in will do.
type Planner interface {
	Plan(in *Instance) string
}

// EffectiveOptions returns e's options with the defaults that will run on in (nil: none chosen) and the ranges allowed
// there: the table's, then the instance's bounds, then the engine's (Tuner).
func EffectiveOptions(e Engine, in *Instance) OptionSet {
	set := OptionsOn(e, in)
	if t, ok := e.(Tuner); ok && in != nil {
		set = t.Tune(in, set)
	}
	return set
}

// OptionsOn returns e's options on in as EffectiveOptions does, without Tuner.
func OptionsOn(e Engine, in *Instance) OptionSet {
	set := OptionsFor(e.Name(), e.Backend())
	if d, ok := declaredFor(e.Name(), e.Backend()); ok {
		set = d.Options(in)
	}
	cores := strconv.Itoa(runtime.NumCPU())
	for i := range set {
		o := &set[i]
		switch {
		case o.Name == "workers" && o.Default == "":
			o.Default = cores
		case o.Auto == "workers" && e.Backend() == BackendCPU:
			o.Default = cores
		}
		if in != nil && in.N > 0 && (o.Name == "blocks" || o.Name == "workers") {
			o.Max = math.Min(o.Max, math.Max(1, float64(MaxTourCells/in.N)))
		}
		if in != nil && (o.Name == "t0" || o.Name == "tend") {
			tempOption(o, in)
		}
	}
	return set
}

// tempOption gives temperature option o its default on in, in the file's units.
func tempOption(o *Option, in *Instance) {
	t0, tend := DefaultTemps(in)
	if o.Name == "t0" {
		o.Default = fmtNum(t0)
	} else {
		o.Default = fmtNum(tend)
	}
	if in.LengthUnit() == "m" {
		o.Doc = strings.Replace(o.Doc, "the file's units of length", "metres", 1)
	}
}

// Validate checks p against what e can take on in (nil: what does not depend on it): options, Extra keys, limits,
// the schedule and the searches' memory, returning a *ParamError with the flag and range.
func Validate(e Engine, in *Instance, p Params) error {
	_, err := validate(e, in, p)
	return err
}

// validate is Validate, returning p's settings as it read them.
func validate(e Engine, in *Instance, p Params) (reading, error) {
	if p.TimeLimit < 0 || p.TimeLimit > MaxTimeLimit {
		return nil, &ParamError{Flag: "--time", Value: p.TimeLimit.String(), Range: "0 (none).." + MaxTimeLimitText}
	}
	if p.Target < 0 {
		return nil, &ParamError{Flag: "--target", Value: strconv.FormatInt(p.Target, 10), Range: ">= 0 (0: none)"}
	}
	set := OptionsOn(e, in)
	r := p.reading(set)
	if err := checkShared(e, in, set, p, r, sharedOptions...); err != nil {
		return r, err
	}
	if err := checkExtraKeys(set, e.Name()+"/"+e.Backend(), p); err != nil {
		return r, err
	}
	keys := slices.Sorted(maps.Keys(p.Extra))
	for _, k := range keys {
		o, ok := set.Lookup(k)
		if !ok || o.Shared || p.Extra[k] == "" {
			continue
		}
		if _, _, err := o.check(r[k]); err != nil {
			return r, err
		}
	}
	if _, ok := set.Lookup("t0"); ok {
		if _, err := fillSchedule(in, readAnneal(p, r)); err != nil {
			return r, err
		}
	}
	return r, nil
}

// CheckDevice checks p's blocks and threads against e's device on in (Tuner), which Validate leaves out; GPU runs call it.
func CheckDevice(e Engine, in *Instance, p Params) error {
	t, ok := e.(Tuner)
	if !ok || in == nil || !p.Given("blocks") && !p.Given("threads") {
		return nil
	}
	set := t.Tune(in, OptionsOn(e, in))
	return checkShared(e, in, set, p, p.reading(set), optBlocks, optThreads)
}

// checkShared checks p's values of the shared options wides against e's ranges on in, saying why one is narrower.
func checkShared(e Engine, in *Instance, set OptionSet, p Params, r reading, wides ...Option) error {
	for _, wide := range wides {
		text := p.sharedText(wide.Name)
		if text == "" {
			continue
		}
		x, ok := r[wide.Name]
		if !ok || x.text != text {
			x = wide.read(text) // workers: Params.Workers
		}
		_, v, err := wide.check(x)
		if pe, ok := err.(*ParamError); ok {
			pe.Range += " (0: default)"
			return pe
		}
		o, ok := set.Lookup(wide.Name)
		if !ok {
			o = wide
		}
		cells := 0.0
		if in != nil && in.N > 0 && (o.Name == "blocks" || o.Name == "workers") {
			cells = math.Max(1, float64(MaxTourCells/in.N))
			o.Max = math.Min(o.Max, cells)
		}
		if o.inRange(v) {
			continue
		}
		pe := &ParamError{Flag: o.Flag(), Value: text, Range: o.Range() + " (0: default)"}
		switch {
		case o.Max == cells:
			pe.Why = fmt.Sprintf("for %s: %s × cities at most %s", Plural(int64(in.N), "city", "cities"), o.Name, fmtNum(MaxTourCells))
		case ok && o.Max < wide.Max:
			pe.Why = fmt.Sprintf("for %s/%s", e.Name(), e.Backend())
		}
		return pe
	}
	return nil
}

// Prepare is Parse as a run's config (Preparer).
func (s *Spec[C]) Prepare(in *Instance, p Params) (any, error) { return s.Parse(in, p) }
