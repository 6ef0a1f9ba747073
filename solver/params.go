package solver

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// Params are one run's user settings; zero means the engine's default.
type Params struct {
	Algorithm string `json:"algorithm"`
	Backend   string `json:"backend"`

	// TimeLimit is the limit asked for (0: the engine's schedule, or its DefaultLimiter); the front end turns it into the
	// context's deadline once, and engines read the context.
	TimeLimit time.Duration `json:"time_limit_ns"`
	Seed      uint64        `json:"seed"`
	// Workers is the number of CPU goroutines; 0 means all cores.
	Workers int `json:"workers"`
	// Target stops the run at a tour of at most this length (0: none).
	Target int64 `json:"target"`
	// Start is an optional starting tour (0-based).
	Start []int `json:"-"`
	// Extra carries the engine's options by name ("blocks": "4224").
	Extra map[string]string `json:"extra,omitempty"`
	// Config, when set, is a func(*C) for the engine's config C, applied after the defaults and text are read.
	Config any `json:"-"`

	// prepared is Prepare's config (nil: none); read, the settings as read
	prepared *prepared
	read     reading
}

// prepared is the config the pipeline prepared for one engine on one instance (cfg nil: checked only).
type prepared struct {
	algorithm, backend string
	in                 *Instance
	extra              map[string]string
	workers            int
	cfg                any
}

// sharedText is p's text of shared option name ("" when unset or 0).
func (p Params) sharedText(name string) string {
	v := strings.TrimSpace(p.Extra[name])
	if name == "workers" {
		v = strconv.Itoa(p.Workers)
	}
	if v == "0" {
		return ""
	}
	return v
}

// Given reports whether p sets option name (a shared 0 is the default).
func (p Params) Given(name string) bool {
	if _, ok := sharedOptions.Lookup(name); ok {
		return p.sharedText(name) != ""
	}
	return strings.TrimSpace(p.Extra[name]) != ""
}

// Text returns p's trimmed text of engine option name ("" when unset).
func (p Params) Text(name string) string { return strings.TrimSpace(p.Extra[name]) }

// Without returns p without option name, on a copy of Extra, dropping the prepared config.
func (p Params) Without(name string) Params {
	if _, ok := p.Extra[name]; !ok {
		return p
	}
	p.Extra = maps.Clone(p.Extra)
	delete(p.Extra, name)
	p.prepared = nil
	return p
}

// Split returns p with only the options names (in) and without them (out), each on its own map.
func (p Params) Split(names []string) (in, out Params) {
	in, out = p, p
	for name := range p.Extra {
		if slices.Contains(names, name) {
			out = out.Without(name)
		} else {
			in = in.Without(name)
		}
	}
	return in, out
}

// Set parses a "name=value" setting (`tsp solve --opt`) into p on a copy of Extra: workers into Workers, shared options
// checked against their widest range; "name=" (shared: "name=0") restores the default.
func (p *Params) Set(setting string) error {
	p.prepared = nil
	name, value, ok := strings.Cut(setting, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return &ParamError{Flag: "--opt", Value: setting, Range: "name=value"}
	}
	if o, ok := sharedOptions.Lookup(name); ok {
		text, v := "", 0.0
		if strings.TrimSpace(value) != "0" && strings.TrimSpace(value) != "" {
			var err error
			if text, v, err = o.parse(value); err != nil {
				return err
			}
		}
		switch {
		case name == "workers":
			p.Workers = int(v)
		case text == "":
			p.Extra = maps.Clone(p.Extra)
			delete(p.Extra, name)
		default:
			p.setExtra(name, text)
		}
		return nil
	}
	if value == "" {
		// A name no engine has is a typo, refused here.
		if !anyEngineOption(name) {
			return &ParamError{Flag: "--opt", Value: name, Range: "the name of an engine option ('tsp engines --verbose')"}
		}
		p.Extra = maps.Clone(p.Extra)
		delete(p.Extra, name)
		return nil
	}
	p.setExtra(name, strings.TrimSpace(value))
	return nil
}

// setExtra sets the Extra key name to value on a copy of the map.
func (p *Params) setExtra(name, value string) {
	p.Extra = maps.Clone(p.Extra)
	if p.Extra == nil {
		p.Extra = map[string]string{}
	}
	p.Extra[name] = value
}

// outputKeys are Extra keys a report's parameters carry from the engine's choices, accepted back and ignored.
var outputKeys = []string{"launch_waves"}

// checkExtraKeys returns a *ParamError for p's first unknown key, listing set's stable options.
func checkExtraKeys(set OptionSet, engine string, p Params) error {
	for _, k := range slices.Sorted(maps.Keys(p.Extra)) {
		if _, ok := set.Lookup(k); ok && k != "workers" {
			continue
		}
		if slices.Contains(outputKeys, k) {
			continue
		}
		if _, ok := sharedOptions.Lookup(k); ok {
			return &ParamError{Flag: "--" + k, Value: p.Extra[k], Why: engine + " does not take it"}
		}
		return &ParamError{Flag: "--opt", Value: k, Range: "one of the options of " + engine + ": " + optionNames(set), Why: didYouMean(set, k)}
	}
	return nil
}

// didYouMean names set's options sharing a prefix with the unknown key k.
func didYouMean(set OptionSet, k string) string {
	var near []string
	key := strings.ToLower(k)
	for _, o := range set {
		if o.Name != "workers" && key != "" && (strings.HasPrefix(o.Name, key) || strings.HasPrefix(key, o.Name)) {
			near = append(near, o.Name)
		}
	}
	if len(near) == 0 {
		return ""
	}
	return "did you mean " + strings.Join(near, " or ") + "?"
}

// optionNames lists set's stable options by name, the experimental ones only counted.
func optionNames(set OptionSet) string {
	var stable []string
	experimental := 0
	for _, o := range set {
		switch {
		case o.Name == "workers":
		case o.Experimental:
			experimental++
		default:
			stable = append(stable, o.Name)
		}
	}
	have := "none"
	if len(stable) > 0 {
		have = strings.Join(stable, ", ")
	}
	switch experimental {
	case 0:
		return have
	case 1:
		return have + " (and 1 experimental one, listed by tsp engines --verbose --all)"
	}
	return fmt.Sprintf("%s (and %d experimental ones, listed by tsp engines --verbose --all)", have, experimental)
}

// WithExtra returns p with Extra key name set to value, on a copy, dropping the prepared config.
func (p Params) WithExtra(name, value string) Params {
	p.prepared = nil
	p.setExtra(name, value)
	return p
}

// optionReads counts the readings of settings from their text.
var optionReads atomic.Int64

// OptionReads is how many times settings were read from their text: once a run.
func OptionReads() int64 { return optionReads.Load() }

// reading returns p's settings read as options of set, reusing the reading p carries where it covers them.
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

// covers reports whether r read every setting of p that set or the shared options have.
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
