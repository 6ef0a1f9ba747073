package solver

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Decl declares one option of an engine whose settings live in config struct C: how front ends show it and the field
// its value is parsed into. Build one with Int, Float, Choice, Enum, Bool, SharedInt, SharedFloat or Shared.
type Decl[C any] struct {
	opt Option
	set func(c *C, text string, v float64)
	// fixed: not an option of the engine (Spec.Fixed), its field at the default
	fixed bool
}

// Option returns the declared option.
func (d Decl[C]) Option() Option { return d.opt }

// Int declares an int option of C in [lo, hi] with default def.
func Int[C any](name string, field func(*C) *int, def int, lo, hi float64, doc string) Decl[C] {
	return Decl[C]{
		opt: Option{Name: name, Kind: KindInt, Default: strconv.Itoa(def), Min: lo, Max: hi, Doc: doc},
		set: func(c *C, _ string, v float64) { *field(c) = int(v) },
	}
}

// Float declares a float option of C in [lo, hi] with default def.
func Float[C any](name string, field func(*C) *float64, def float64, lo, hi float64, doc string) Decl[C] {
	return Decl[C]{
		opt: Option{Name: name, Kind: KindFloat, Default: fmtNum(def), Min: lo, Max: hi, Doc: doc},
		set: func(c *C, _ string, v float64) { *field(c) = v },
	}
}

// Choice declares an option of C whose value is one of choices.
func Choice[C any](name string, field func(*C) *string, def string, choices []string, doc string) Decl[C] {
	return Decl[C]{
		opt: Option{Name: name, Kind: KindChoice, Default: def, Choices: slices.Clone(choices), Doc: doc},
		set: func(c *C, text string, _ float64) { *field(c) = text },
	}
}

// Enum declares an option of C whose text choice is stored as the value of the same index in values.
func Enum[C, T any](name string, field func(*C) *T, def string, choices []string, values []T, doc string) Decl[C] {
	if len(values) != len(choices) {
		panic("solver.Enum " + name + ": one value per choice")
	}
	return Decl[C]{
		opt: Option{Name: name, Kind: KindChoice, Default: def, Choices: slices.Clone(choices), Doc: doc},
		set: func(c *C, text string, _ float64) { *field(c) = values[slices.Index(choices, text)] },
	}
}

// Bool declares an on/off option of C.
func Bool[C any](name string, field func(*C) *bool, def bool, doc string) Decl[C] {
	d := "off"
	if def {
		d = "on"
	}
	return Decl[C]{
		opt: Option{Name: name, Kind: KindBool, Default: d, Doc: doc},
		set: func(c *C, _ string, v float64) { *field(c) = v != 0 },
	}
}

// SharedInt declares that C takes the shared int option name with its widest range and default (field nil: read elsewhere).
func SharedInt[C any](name string, field func(*C) *int) Decl[C] {
	return Decl[C]{opt: sharedOption(name), set: func(c *C, _ string, v float64) {
		if field != nil {
			*field(c) = int(v)
		}
	}}
}

// SharedFloat declares that C takes the shared float option called name
// (t0, tend, alpha) like SharedInt.
func SharedFloat[C any](name string, field func(*C) *float64) Decl[C] {
	return Decl[C]{opt: sharedOption(name), set: func(c *C, _ string, v float64) { *field(c) = v }}
}

// Shared declares that C takes the shared option name, read elsewhere (AnnealOf).
func Shared[C any](name string) Decl[C] {
	return Decl[C]{opt: sharedOption(name), set: func(*C, string, float64) {}}
}

// sharedOption is the shared option name; any other name is a declaration mistake.
func sharedOption(name string) Option {
	o, ok := sharedOptions.Lookup(name)
	if !ok {
		panic(fmt.Sprintf("solver: %q is not a shared option (want one of %s)", name, strings.Join(sharedOptions.Names(), ", ")))
	}
	return o
}

// Default returns d with another default, as text.
func (d Decl[C]) Default(text string) Decl[C] { d.opt.Default, d.opt.Auto = text, ""; return d }

// Auto returns d with a default computed per instance or device, how saying how ("all cores").
func (d Decl[C]) Auto(how string) Decl[C] { d.opt.Default, d.opt.Auto = "", how; return d }

// Open returns d with its lower and upper bounds exclusive where asked.
func (d Decl[C]) Open(lo, hi bool) Decl[C] { d.opt.MinOpen, d.opt.MaxOpen = lo, hi; return d }

// Doc returns d with another description.
func (d Decl[C]) Doc(doc string) Decl[C] { d.opt.Doc = doc; return d }

// Experimental marks d as kept for a suite or reproduction, listed only when asked.
func (d Decl[C]) Experimental() Decl[C] { d.opt.Experimental = true; return d }

// SizeRow is one row of an engine's defaults by size: for From up to To cities (0: no bound) Set's defaults and
// PerCity's multiples of the cities; other options keep theirs.
type SizeRow struct {
	From, To int
	Set      map[string]string
	PerCity  map[string]float64
}

// holds reports whether the row covers n cities.
func (r SizeRow) holds(n int) bool { return n >= r.From && (r.To == 0 || n < r.To) }

// SizeTable is an engine's defaults by size: the first row holding the size gives them.
type SizeTable []SizeRow

// BySize is what an option the table sets shows without an instance.
const BySize = "by size"

// Row returns the row for n cities, and whether there is one.
func (t SizeTable) Row(n int) (SizeRow, bool) {
	for _, r := range t {
		if r.holds(n) {
			return r, true
		}
	}
	return SizeRow{}, false
}

// sets reports whether some row sets the option called name.
func (t SizeTable) sets(name string) bool {
	for _, r := range t {
		if _, ok := r.Set[name]; ok {
			return true
		}
		if _, ok := r.PerCity[name]; ok {
			return true
		}
	}
	return false
}

// Apply returns set with the table's defaults for in's size (nil: the options some row sets show BySize).
func (t SizeTable) Apply(in *Instance, set OptionSet) OptionSet {
	set = slices.Clone(set)
	if len(t) == 0 {
		return set
	}
	if in == nil {
		for i := range set {
			if t.sets(set[i].Name) {
				set[i].Default, set[i].Auto = "", BySize
			}
		}
		return set
	}
	r, ok := t.Row(in.N)
	if !ok {
		return set
	}
	for i := range set {
		if v, ok := r.Set[set[i].Name]; ok {
			set[i].Default, set[i].Auto = v, ""
		}
		if f, ok := r.PerCity[set[i].Name]; ok {
			set[i].Default, set[i].Auto = strconv.Itoa(int(f*float64(in.N))), ""
		}
	}
	return set
}

// Spec is one engine's options: its config's declarations in display order and its defaults by size.
type Spec[C any] struct {
	decls []Decl[C]
	sizes SizeTable
}

// NewSpec returns the spec of decls in display order (a repeated name panics).
func NewSpec[C any](decls ...Decl[C]) *Spec[C] {
	seen := map[string]bool{}
	for _, d := range decls {
		if seen[d.opt.Name] {
			panic(fmt.Sprintf("solver: option %q declared twice", d.opt.Name))
		}
		seen[d.opt.Name] = true
	}
	return &Spec[C]{decls: slices.Clone(decls)}
}

// With returns a copy of s in which option name defaults to text.
func (s *Spec[C]) With(name, text string) *Spec[C] {
	return s.Modify(name, func(d Decl[C]) Decl[C] { return d.Default(text) })
}

// Modify returns a copy of s with option name replaced by edit's result.
func (s *Spec[C]) Modify(name string, edit func(Decl[C]) Decl[C]) *Spec[C] {
	c := &Spec[C]{decls: slices.Clone(s.decls), sizes: s.sizes}
	for i := range c.decls {
		if c.decls[i].opt.Name == name {
			c.decls[i] = edit(c.decls[i])
			return c
		}
	}
	panic(fmt.Sprintf("solver: Modify(%q): no such option", name))
}

// BySize returns a copy of s with defaults by instance size.
func (s *Spec[C]) BySize(t SizeTable) *Spec[C] {
	for _, r := range t {
		for name := range r.Set {
			s.mustHave(name)
		}
		for name := range r.PerCity {
			s.mustHave(name)
		}
	}
	return &Spec[C]{decls: slices.Clone(s.decls), sizes: slices.Clone(t)}
}

func (s *Spec[C]) mustHave(name string) {
	for _, d := range s.decls {
		if d.opt.Name == name {
			return
		}
	}
	panic(fmt.Sprintf("solver: size table sets %q, which is not an option of the spec", name))
}

// Sizes returns the spec's defaults by instance size.
func (s *Spec[C]) Sizes() SizeTable { return s.sizes }

// Options returns the declared options with their defaults on in (nil: BySize where the table decides), fixed ones aside.
func (s *Spec[C]) Options(in *Instance) OptionSet {
	return s.visible(s.sizes.Apply(in, s.declared()))
}

// visible returns the spec's options in order, without the fixed ones.
func (s *Spec[C]) visible(set OptionSet) OptionSet {
	out := make(OptionSet, 0, len(set))
	for i, d := range s.decls {
		if !d.fixed {
			out = append(out, set[i])
		}
	}
	return out
}

// Fixed returns a copy of s without the options names (refused when given, their fields at the default).
func (s *Spec[C]) Fixed(names ...string) *Spec[C] {
	c := &Spec[C]{decls: slices.Clone(s.decls), sizes: s.sizes}
	for _, name := range names {
		c.mustHave(name)
		for i := range c.decls {
			if c.decls[i].opt.Name == name {
				c.decls[i].fixed = true
			}
		}
	}
	return c
}

// declared returns the declared options, as declared.
func (s *Spec[C]) declared() OptionSet {
	set := make(OptionSet, len(s.decls))
	for i, d := range s.decls {
		set[i] = d.opt
	}
	return set
}

// Parse reads p's settings into a C, each checked against its kind and range, else its default on in; an Auto option
// not given stays zero. A bad value or unknown key is a *ParamError; a func(*C) Params.Config then changes C.
func (s *Spec[C]) Parse(in *Instance, p Params) (C, error) {
	var c C
	set := s.declared()
	if in != nil {
		set = s.sizes.Apply(in, set)
	}
	if err := checkExtraKeys(s.visible(set), "this engine", p); err != nil {
		return c, err
	}
	r := p.reading(set)
	for i, d := range s.decls {
		o := set[i]
		x, given := r[o.Name], ""
		switch {
		case d.fixed:
		case o.Name == "workers" && p.Workers != 0:
			x, given = o.read(p.sharedText(o.Name)), "workers"
		case o.Shared && p.sharedText(o.Name) == "":
		case strings.TrimSpace(p.Extra[o.Name]) != "":
			given = x.text
		}
		if given == "" && o.Default == "" {
			continue
		}
		if given == "" {
			x = o.read(o.Default)
		}
		canon, v, err := o.check(x)
		if err != nil {
			if given == "" {
				// A declared default that does not parse is the declaration's mistake.
				return c, fmt.Errorf("option %s: default %q: %v", o.Name, o.Default, err)
			}
			if pe, ok := err.(*ParamError); ok && o.Shared {
				pe.Range += " (0: default)"
			}
			return c, err
		}
		d.set(&c, canon, v)
	}
	if set, ok := p.Config.(func(*C)); ok && set != nil {
		set(&c)
	}
	return c, nil
}

// Stable returns d without the experimental mark.
func (d Decl[C]) Stable() Decl[C] { d.opt.Experimental = false; return d }
