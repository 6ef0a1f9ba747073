package solver

import (
	"maps"
	"strings"
	"sync/atomic"
)

// Preparer is an engine that reads a run's settings into its typed config
// once: the run pipeline calls Prepare (through the package's Prepare)
// and hands the engine the config with the params, so that its Solve
// reads it (Configure) instead of parsing the params again. An engine
// that is no Preparer gets the config of its declared Spec.
type Preparer interface {
	// Prepare returns the engine's config for a run of p on in, or a
	// *ParamError.
	Prepare(in *Instance, p Params) (any, error)
}

// prepared is the config the pipeline prepared for one engine on one
// instance from the settings extra and workers (cfg nil for an engine
// without one: checked only).
type prepared struct {
	algorithm, backend string
	in                 *Instance
	extra              map[string]string
	workers            int
	cfg                any
}

// Prepare checks p for e on in (Validate, a *ParamError) and returns it
// carrying e's config (Preparer, else its declared Spec's), so that e's Solve on in takes that
// config (Configure) and checks nothing again: the run pipeline prepares a
// run once. Changing the settings (Set, Without, WithExtra) drops the
// config, and a run of them is checked and parsed again.
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

// preparedFor returns the config p carries for e on in, and whether it
// carries one (Prepare) made from p's settings as they are.
func (p Params) preparedFor(e Engine, in *Instance) (any, bool) {
	c := p.prepared
	if c == nil || c.in != in || c.algorithm != e.Name() || c.backend != e.Backend() ||
		c.workers != p.Workers || !maps.Equal(c.extra, p.Extra) {
		return nil, false
	}
	return c.cfg, true
}

// Check validates p for e on in (Validate) unless Prepare prepared it for
// e on in: the one check an engine's Solve makes, directly or through
// Configure.
func Check(e Engine, in *Instance, p Params) error {
	if _, ok := p.preparedFor(e, in); ok {
		return nil
	}
	return Validate(e, in, p)
}

// Configure returns e's config for a run of p on in: the one Prepare
// made, else p checked (Validate, unless Prepare did) and parsed with s. The one call an
// engine's Solve makes to read its settings.
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

// ConfigOf returns e's config for a run of p on in as Configure does, but
// without checking p (an engine's DefaultLimit, which the pipeline calls
// on checked params).
func ConfigOf[C any](s *Spec[C], e Engine, in *Instance, p Params) (C, error) {
	if cfg, ok := p.preparedFor(e, in); ok {
		if c, ok := cfg.(C); ok {
			return c, nil
		}
	}
	return s.Parse(in, p)
}

// reading is a run's settings read from their text (Params.Extra), by
// option name.
type reading map[string]value

// optionReads counts the readings of settings from their text.
var optionReads atomic.Int64

// OptionReads is how many times settings were read from their text
// (Params.Extra) since the program started: a run reads its settings
// once, when its front end checks them (Read, Prepare).
func OptionReads() int64 { return optionReads.Load() }

// reading returns p's settings read from their text as options of set or
// shared ones: the reading p carries (Read, Prepare) where it holds every
// one with the same text and kind, else a new one (OptionReads).
func (p Params) reading(set OptionSet) reading {
	if p.read.covers(p, set) {
		return p.read
	}
	r := make(reading, len(p.Extra))
	for k, text := range p.Extra {
		if o, ok := lookupOption(set, k); ok {
			r[k] = o.read(text)
		}
	}
	if len(p.Extra) > 0 {
		optionReads.Add(1)
	}
	return r
}

// covers reports whether r holds every setting of p that is an option of
// set or a shared one, with the same text and kind.
func (r reading) covers(p Params, set OptionSet) bool {
	if r == nil && len(p.Extra) > 0 {
		return false
	}
	for k, text := range p.Extra {
		o, ok := lookupOption(set, k)
		if x, read := r[k]; ok && (!read || x.text != strings.TrimSpace(text) || x.kind != o.Kind) {
			return false
		}
	}
	return true
}

// lookupOption is the option of set called name, else the shared one.
func lookupOption(set OptionSet, name string) (Option, bool) {
	if o, ok := set.Lookup(name); ok {
		return o, true
	}
	return sharedOptions.Lookup(name)
}

// Read checks p for e before the instance is known (Validate with no
// instance) and returns it carrying its settings as read, so that
// Prepare on an instance, given them (ReadFrom), reads no text again.
func Read(e Engine, p Params) (Params, error) {
	r, err := validate(e, nil, p)
	p.read = r
	return p, err
}

// ReadFrom returns p carrying the settings q carries as read (Read,
// Prepare) where p has none: used where they hold p's own.
func (p Params) ReadFrom(q Params) Params {
	if p.read == nil {
		p.read = q.read
	}
	return p
}
