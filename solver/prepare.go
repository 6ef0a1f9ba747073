package solver

import "maps"

// Preparer is an engine that reads a run's settings into its typed config
// once: the run pipeline calls Prepare (through the package's Prepare)
// and hands the engine the config with the params, so that its Solve
// reads it (Configure) instead of parsing the params again.
type Preparer interface {
	// Prepare returns the engine's config for a run of p on in, or a
	// *ParamError.
	Prepare(in *Instance, p Params) (any, error)
}

// prepared is the config the pipeline prepared for one engine on one
// instance from the settings extra and workers (cfg nil for an engine that
// is no Preparer: checked only).
type prepared struct {
	algorithm, backend string
	in                 *Instance
	extra              map[string]string
	workers            int
	cfg                any
}

// Prepare checks p for e on in (Validate, a *ParamError) and returns it
// carrying e's config (Preparer), so that e's Solve on in takes that
// config (Configure) and checks nothing again: the run pipeline prepares a
// run once. Changing the settings (Set, Without, WithExtra) drops the
// config, and a run of them is checked and parsed again.
func Prepare(e Engine, in *Instance, p Params) (Params, error) {
	p.prepared = nil
	if err := Validate(e, in, p); err != nil {
		return p, err
	}
	var cfg any
	if pr, ok := e.(Preparer); ok {
		var err error
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
	if ok {
		// checked, but no Preparer
		return s.Parse(in, p)
	}
	if err := Validate(e, in, p); err != nil {
		var zero C
		return zero, err
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
