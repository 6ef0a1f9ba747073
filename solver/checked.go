package solver

import "maps"

// checkMark records that Prepare checked a Params for one engine on one
// instance: the engine, the instance and every field Validate reads, so
// that a Params changed since (a continuation with other settings) or
// handed to another engine is checked again.
type checkMark struct {
	algorithm, backend string
	in                 *Instance
	params             Params
}

// Prepare checks p for e on in (Validate, a *ParamError) and returns it
// marked as checked, so that e's Solve on in (Check, Configure) does not
// check it again: the run pipeline validates once and hands the engine
// the mark with its params.
func Prepare(e Engine, in *Instance, p Params) (Params, error) {
	p.checked = nil
	if err := Validate(e, in, p); err != nil {
		return p, err
	}
	q := p
	q.Extra = maps.Clone(p.Extra)
	q.Start = nil
	p.checked = &checkMark{algorithm: e.Name(), backend: e.Backend(), in: in, params: q}
	return p, nil
}

// Check validates p for e on in (Validate) unless Prepare marked it as
// checked for e on in and the settings Validate reads are unchanged: the
// one check an engine's Solve makes, directly or through Configure.
func Check(e Engine, in *Instance, p Params) error {
	if p.checked.covers(e, in, p) {
		return nil
	}
	return Validate(e, in, p)
}

// covers reports whether m is a mark for e on in with the settings of p.
func (m *checkMark) covers(e Engine, in *Instance, p Params) bool {
	if m == nil || m.in != in || m.algorithm != e.Name() || m.backend != e.Backend() {
		return false
	}
	q := m.params
	return q.TimeLimit == p.TimeLimit && q.Target == p.Target && q.Workers == p.Workers &&
		q.Seed == p.Seed && maps.Equal(q.Extra, p.Extra)
}
