package solver

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// OptionKind is the type of an option's value.
type OptionKind string

// The kinds of option values.
const (
	KindInt    OptionKind = "int"
	KindFloat  OptionKind = "float"
	KindChoice OptionKind = "choice"
	KindBool   OptionKind = "on/off"
	// KindText is free text the engine parses itself (GPU device lists).
	KindText OptionKind = "text"
)

// Option describes one engine setting: its name, type, default, allowed
// range and meaning. Its value is a key of Params.Extra (`tsp solve --opt
// name=value`; absent means the default), or Params.Workers for workers.
// Shared marks the options several engines share, each with a flag of its
// own (blocks, threads, k, t0, tend, alpha, sweeps, workers), where 0
// means the default.
type Option struct {
	Name   string
	Kind   OptionKind
	Shared bool
	// Default is the default as text; "" when it depends on the instance
	// or the device, and then Auto says how it is chosen ("all cores").
	Default string
	Auto    string
	// Min and Max bound an int or float value, inclusive unless MinOpen or
	// MaxOpen; Max is +Inf when there is no upper bound.
	Min, Max         float64
	MinOpen, MaxOpen bool
	// Choices are the values of a choice option.
	Choices []string
	Doc     string
	// Experimental marks an option kept for a suite or a paper's
	// reproduction, not one a user of the engine needs: front ends list it
	// only when asked (tsp engines --verbose --all, the app's "Advanced").
	Experimental bool
}

// Flag is how a front end names the option: "--blocks" for a shared
// option, "--opt rkbi_k" for an engine's own.
func (o Option) Flag() string {
	if o.Shared {
		return "--" + o.Name
	}
	return "--opt " + o.Name
}

// Range describes the allowed values: "1..1024", "0 < x < 1", "first|rkbi".
func (o Option) Range() string {
	switch o.Kind {
	case KindChoice:
		return strings.Join(o.Choices, "|")
	case KindBool:
		return "on|off"
	case KindText:
		return "text"
	}
	lo, hi := GroupDigits(fmtNum(o.Min)), GroupDigits(fmtNum(o.Max))
	switch {
	case math.IsInf(o.Max, 1) && o.MinOpen:
		return "> " + lo
	case math.IsInf(o.Max, 1):
		return ">= " + lo
	case o.MinOpen || o.MaxOpen:
		l, h := "<=", "<="
		if o.MinOpen {
			l = "<"
		}
		if o.MaxOpen {
			h = "<"
		}
		return fmt.Sprintf("%s %s x %s %s", lo, l, h, hi)
	}
	return lo + ".." + hi
}

// fmtNum formats a bound: integers without a fraction, powers of two
// above 2^20 as 2^k.
func fmtNum(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
		if v >= 1<<20 {
			if e := math.Log2(v); e == math.Trunc(e) {
				return fmt.Sprintf("2^%d", int(e))
			}
		}
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// parse turns text into the option's canonical text and numeric value,
// checking its type and range.
func (o Option) parse(s string) (string, float64, error) { return o.check(o.read(s)) }

// value is one setting read from its text as an option of kind: its
// canonical text and number, or why the text is not of the kind (fail).
type value struct {
	kind        OptionKind
	text, canon string
	v           float64
	fail        readFail
}

// readFail is why a setting's text does not read as its option's kind.
type readFail int

const (
	readOK      readFail = iota
	notNumber            // not an integer or a number
	unknownWord          // a word that is not on or off
	outOfRange           // past what an int64 or a float64 holds
)

// read reads text as a value of o's kind, without its range or choices
// (check).
func (o Option) read(s string) value {
	s = strings.TrimSpace(s)
	x := value{kind: o.Kind, text: s, canon: s}
	switch o.Kind {
	case KindBool:
		switch strings.ToLower(s) {
		case "on", "true", "1", "yes":
			x.canon, x.v = "on", 1
		case "off", "false", "0", "no":
			x.canon = "off"
		default:
			x.fail = unknownWord
		}
	case KindInt:
		v, err := strconv.ParseInt(s, 10, 64)
		switch {
		case errors.Is(err, strconv.ErrRange):
			x.fail = outOfRange
		case err != nil:
			x.fail = notNumber
		}
		x.canon, x.v = strconv.FormatInt(v, 10), float64(v)
	case KindFloat:
		v, err := strconv.ParseFloat(s, 64)
		switch {
		case (err != nil && !errors.Is(err, strconv.ErrRange)) || math.IsNaN(v):
			x.fail = notNumber
		case err != nil:
			x.fail = outOfRange
		}
		x.canon, x.v = strconv.FormatFloat(v, 'g', -1, 64), v
	}
	return x
}

// check returns x's canonical text and number if x is a value of o (its
// kind, range and choices), else a *ParamError naming o's flag and range.
func (o Option) check(x value) (string, float64, error) {
	if x.kind != o.Kind {
		x = o.read(x.text)
	}
	s := x.text
	bad := &ParamError{Flag: o.Flag(), Value: s, Range: o.Range()}
	switch {
	case x.fail == notNumber && o.Kind == KindInt:
		bad.Not = "an integer"
	case x.fail == notNumber:
		bad.Not = "a number"
	case x.fail == unknownWord || o.Kind == KindChoice && !slices.Contains(o.Choices, s):
		// a word outside a choice is "unknown: want one of a|b"
		bad.Range = "one of " + o.Range()
	case x.fail == outOfRange || (o.Kind == KindInt || o.Kind == KindFloat) && !o.inRange(x.v):
	default:
		return x.canon, x.v, nil
	}
	return "", 0, bad
}

func (o Option) inRange(v float64) bool {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return false
	}
	if v < o.Min || (o.MinOpen && v == o.Min) {
		return false
	}
	if v > o.Max || (o.MaxOpen && v == o.Max) {
		return false
	}
	return true
}

// ParamError is a setting outside what the engine can take: a usage error
// (the CLI exits 2 on it). Flag names the flag ("--blocks", "--opt rkbi_k"),
// Value the value given, Range what is allowed; Why adds the reason when
// the range depends on the instance or the device.
type ParamError struct {
	Flag  string
	Value string
	Range string
	Why   string
	// Not, when set, is what the value failed to be ("an integer", "a
	// number"): the message says so instead of "out of range".
	Not string
	// Err is an underlying sentinel (ErrUnknownEngine), if any.
	Err error
}

// Error is one line: "--blocks 100000000 is out of range: want 0..167 (…)".
func (e *ParamError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", e.Flag, e.Value)
	switch {
	case e.Range == "":
		b.WriteString(" is not allowed")
	case strings.HasPrefix(e.Range, "one of"):
		fmt.Fprintf(&b, " is unknown: want %s", e.Range)
	case e.Not != "":
		fmt.Fprintf(&b, " is not %s: want %s", e.Not, e.Range)
	default:
		fmt.Fprintf(&b, " is out of range: want %s", e.Range)
	}
	if e.Why != "" {
		fmt.Fprintf(&b, " (%s)", e.Why)
	}
	return b.String()
}

// Unwrap returns the underlying sentinel error.
func (e *ParamError) Unwrap() error { return e.Err }

// Limits of every engine, whatever the backend: what the engines and the
// memory can take. A value past one is refused by Validate.
const (
	// MaxBlocks bounds the parallel searches (each holds a tour; Lam et al.
	// use at most 4224): more take seconds to set up, past a short time
	// limit.
	MaxBlocks = 1 << 16
	// MaxThreads bounds the moves per search per iteration (a CUDA
	// block's most threads).
	MaxThreads = 1024
	// MaxWorkers bounds the CPU goroutines.
	MaxWorkers = 1024
	// MaxK bounds the temperature steps between global-best exchanges.
	MaxK = 1 << 30
	// MaxSweeps bounds the iterations per temperature step, in multiples of n.
	MaxSweeps = 1 << 20
	// MaxTourCells bounds blocks × n and workers × n: the tours the
	// parallel searches hold at once, a few hundred MB at the bound.
	MaxTourCells = 1 << 25
	// MaxScheduleSteps bounds the temperature steps of an annealing
	// schedule (log(tend/t0) / log(alpha)).
	MaxScheduleSteps = 1 << 20
	// MaxTimeLimit bounds Params.TimeLimit.
	MaxTimeLimit = 366 * 24 * time.Hour
	// MaxTimeLimitText is MaxTimeLimit for people.
	MaxTimeLimitText = "366 days"
)

// Defaults of the simulated annealing engines on both backends: Lam et
// al., Table 1.
const (
	// DefaultT0 is the initial temperature.
	DefaultT0 = 10000.0
	// DefaultTEnd is the final temperature.
	DefaultTEnd = 0.1
	// DefaultAlpha is the cooling factor per temperature step.
	DefaultAlpha = 0.99
	// DefaultSweeps is Sp: N·Sp iterations per temperature step.
	DefaultSweeps = 10
	// DefaultK is Se: temperature steps between global-best exchanges.
	DefaultK = 100
	// DefaultThreads is PSPM's moves per iteration of one search: a warp
	// of 32, the GPU's unit, on both backends.
	DefaultThreads = 32
	// DefaultSegment is PSPM's longest segment of one move on both
	// backends: 1 is Lam et al.'s relocation; 2 and 3 add Or-opt moves of
	// two and three consecutive cities, in either orientation, which halve
	// the GPU's moves per second (docs/BENCHMARKS.md#pspm-on-lams-20).
	DefaultSegment = 1
)

// DefaultTimeLimit is the time budget of the engines without a natural end
// (climbers, iterated local searches, auto) when Params.TimeLimit is 0, on
// both backends: their DefaultLimit, which RunAided applies.
const DefaultTimeLimit = 10 * time.Second

// The shared options with their widest ranges (SharedInt and SharedFloat
// start from these).
var (
	optBlocks = Option{Name: "blocks", Kind: KindInt, Shared: true, Min: 1, Max: MaxBlocks,
		Doc: "parallel searches (PSPM's thread blocks TB; climbers per launch)"}
	optThreads = Option{Name: "threads", Kind: KindInt, Shared: true, Min: 1, Max: MaxThreads, Default: strconv.Itoa(DefaultThreads),
		Doc: "moves tried in parallel per search per iteration (PSPM's threads per block TPB)"}
	optK = Option{Name: "k", Kind: KindInt, Shared: true, Min: 1, Max: MaxK, Default: strconv.Itoa(DefaultK),
		Doc: "sync interval: every search restarts from the global best every k temperature steps (Lam et al.'s Se)"}
	optT0 = Option{Name: "t0", Kind: KindFloat, Shared: true, Min: 0, MinOpen: true, Max: inf, Default: fmtNum(DefaultT0),
		Doc: "initial temperature of the annealing schedule, in the file's units of length"}
	optTEnd = Option{Name: "tend", Kind: KindFloat, Shared: true, Min: 0, MinOpen: true, Max: inf, Default: fmtNum(DefaultTEnd),
		Doc: "final temperature (below t0), in the file's units of length"}
	optAlpha = Option{Name: "alpha", Kind: KindFloat, Shared: true, Min: 0, MinOpen: true, Max: 1, MaxOpen: true, Default: fmtNum(DefaultAlpha),
		Doc: "cooling factor: T is multiplied by alpha every temperature step"}
	optSweeps = Option{Name: "sweeps", Kind: KindInt, Shared: true, Min: 1, Max: MaxSweeps, Default: strconv.Itoa(DefaultSweeps),
		Doc: "iterations per temperature step, in multiples of n (Lam et al.'s Sp)"}
	optWorkers = Option{Name: "workers", Kind: KindInt, Shared: true, Min: 1, Max: MaxWorkers, Auto: "all cores",
		Doc: "CPU goroutines; with a step budget, the same seed and workers give the same run"}
)

// TabuTenure is the swap tabu search's tenure for n cities: asked when it
// is set (> 0), else the default n/10, at least 10.
func TabuTenure(n, asked int) int {
	if asked > 0 {
		return asked
	}
	return max(10, n/10)
}

// OptionSet is one engine's options.
type OptionSet []Option

// OptionsFor returns the options of the engine (algorithm, backend), in
// display order; nil for an engine without any.
func OptionsFor(algorithm, backend string) OptionSet {
	return optionsOn(algorithm, backend, nil)
}

// HasOptionTable reports whether the engine (algorithm, backend) declares
// its options (Declare), with or without any.
func HasOptionTable(algorithm, backend string) bool {
	_, ok := declaredFor(algorithm, backend)
	return ok
}

// SharedOptions are the shared options (blocks, threads, k, t0, tend,
// alpha, sweeps, workers) with their widest ranges: what a front end
// offers for an engine that declares no options.
func SharedOptions() OptionSet { return slices.Clone(sharedOptions) }

// Lookup returns the option called name.
func (s OptionSet) Lookup(name string) (Option, bool) {
	for _, o := range s {
		if o.Name == name {
			return o, true
		}
	}
	return Option{}, false
}

// Names lists the options' names.
func (s OptionSet) Names() []string {
	out := make([]string, len(s))
	for i, o := range s {
		out[i] = o.Name
	}
	return out
}

// sharedOptions are the shared options with their widest ranges.
var sharedOptions = OptionSet{optBlocks, optThreads, optK, optT0, optTEnd, optAlpha, optSweeps, optWorkers}

// sharedText is the value of the shared option called name as given in p
// ("" when unset: absent, or 0 as on the flags).
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

// Given reports whether p sets the option called name (a shared option's 0
// is its default, as on the flags).
func (p Params) Given(name string) bool {
	if _, ok := sharedOptions.Lookup(name); ok {
		return p.sharedText(name) != ""
	}
	return strings.TrimSpace(p.Extra[name]) != ""
}

// Text returns the value p gives the engine option called name, trimmed
// ("" when unset).
func (p Params) Text(name string) string { return strings.TrimSpace(p.Extra[name]) }

// Without returns p without the engine option called name, on a copy of
// its Extra map, so that the caller's map is left as it was, and without
// the config Prepare made for the settings before.
func (p Params) Without(name string) Params {
	if _, ok := p.Extra[name]; !ok {
		return p
	}
	p.Extra = maps.Clone(p.Extra)
	delete(p.Extra, name)
	p.prepared = nil
	return p
}

// Split returns p with only the options called names (in) and p without
// them (out), each on a map of its own: the settings of an engine that
// runs another split between them.
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

// Set parses one "name=value" setting, as `tsp solve --opt` takes it, into
// p: workers into Params.Workers, any other name into Params.Extra. A
// shared option's value is checked here against its widest range; the
// others by Validate, against the engine that will run. "name=" (and
// "name=0" for a shared option) removes the setting (back to the default).
// Set writes into a copy of Extra, so that a Params copied before keeps
// its settings.
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
		// Nothing is left for Validate to check the name against: a
		// name no engine has is a typo, refused here.
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

// anyEngineOption reports whether some engine's declarations have an
// option (not a shared one) called name.
func anyEngineOption(name string) bool {
	declMu.RLock()
	ds := make([]Declarer, 0, len(declared))
	for _, d := range declared {
		ds = append(ds, d)
	}
	declMu.RUnlock()
	for _, d := range ds {
		if o, ok := d.Options(nil).Lookup(name); ok && !o.Shared {
			return true
		}
	}
	return false
}

// Tuner is implemented by engines whose option defaults or limits depend
// on the instance or the device (the GPU engines: blocks from the
// occupancy API, threads per block from the device). Tune returns opts
// with Default set to the value that will run and Max narrowed to what the
// device takes; it must not start a long computation.
type Tuner interface {
	Tune(in *Instance, opts OptionSet) OptionSet
}

// Planner is implemented by engines that decide a strategy for a run
// (auto, pop): Plan says in one line what a run on in with the default
// workers and time limit will do (`tsp engines FILE` shows it).
type Planner interface {
	Plan(in *Instance) string
}

// EffectiveOptions returns e's options with the defaults that will run on
// in and the ranges allowed there: the table's values, then what depends
// on the instance (workers: all cores; blocks and workers: at most
// MaxTourCells / n), then the engine's own (Tuner). in may be nil (no
// instance chosen yet).
func EffectiveOptions(e Engine, in *Instance) OptionSet {
	set := OptionsOn(e, in)
	if t, ok := e.(Tuner); ok && in != nil {
		set = t.Tune(in, set)
	}
	return set
}

// OptionsOn returns e's options on in as EffectiveOptions does, without
// the engine's own (Tuner), which may open its device.
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

// tempOption gives the temperature option o its default on in, in the
// file's units (metres on the sphere), which t0 and tend are given in.
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

// Validate checks p against what engine e can take on instance in (nil:
// only what does not depend on it): every field option the engine uses,
// every Params.Extra key (which must be one of e's options), the time limit
// and target, the annealing schedule's t0 > tend and its length, and the
// memory of the parallel searches. It returns a *ParamError naming the
// flag and the allowed range. Run calls it; front ends may call it
// earlier to refuse a run before it starts.
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
		if _, err := Schedule(in, readAnneal(p, r)); err != nil {
			return r, err
		}
	}
	return r, nil
}

// CheckDevice checks the blocks and threads p gives against what e's
// device takes on in (Tuner), which Validate leaves out so that it opens
// no device: a GPU engine calls it as its run starts.
func CheckDevice(e Engine, in *Instance, p Params) error {
	t, ok := e.(Tuner)
	if !ok || in == nil || !p.Given("blocks") && !p.Given("threads") {
		return nil
	}
	set := t.Tune(in, OptionsOn(e, in))
	return checkShared(e, in, set, p, p.reading(set), optBlocks, optThreads)
}

// checkShared checks the values p gives the shared options wides (read
// in r) against e's ranges for them on in (the widest range where e does
// not take one), saying why a range is narrower where it is.
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

// outputKeys are Params.Extra keys that the parameters of a report may
// carry from what an engine chose (launch_waves, which the run's account
// tells); they are accepted back (a report's parameters rerun as they are)
// and ignored.
var outputKeys = []string{"launch_waves"}

// checkExtraKeys returns a *ParamError for the first (in name order) key
// of p.Extra that is not an option of set nor an output key; engine names
// the engine in the message, which lists set's stable options (what a
// user of the engine needs) and says where the others are.
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

// didYouMean names the options of set whose name begins with the unknown
// key k or begins k, experimental ones included ("" when none does).
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

// optionNames lists the stable options of set by name, for a message about
// an unknown one; the experimental ones, which a user of the engine does
// not need, are only counted.
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

// Declarer is an engine's option declarations as the registry keeps them:
// a *Spec of any config struct.
type Declarer interface {
	// Options returns the options with their defaults on in (nil: the
	// declared defaults, BySize where they depend on the instance's size).
	Options(in *Instance) OptionSet
}

var (
	declMu   sync.RWMutex
	declared = map[[2]string]Declarer{}
)

// Declare registers the options of the engine (algorithm, backend), most
// often a *Spec, for OptionsFor, EffectiveOptions, Validate, Params.Set
// and the front ends. A later declaration replaces an earlier one. An
// engine's package declares its options where it registers the engine,
// in files every build compiles (so a build without the engine's backend
// still lists them).
func Declare(algorithm, backend string, d Declarer) {
	declMu.Lock()
	defer declMu.Unlock()
	declared[[2]string{algorithm, backend}] = d
}

// optionsOn returns the declared options of (algorithm, backend) with
// their defaults on in; nil for an engine that declares none.
func optionsOn(algorithm, backend string, in *Instance) OptionSet {
	if d, ok := declaredFor(algorithm, backend); ok {
		return d.Options(in)
	}
	return nil
}

// declaredFor returns the declarations of (algorithm, backend), if any.
func declaredFor(algorithm, backend string) (Declarer, bool) {
	declMu.RLock()
	defer declMu.RUnlock()
	d, ok := declared[[2]string{algorithm, backend}]
	return d, ok
}
