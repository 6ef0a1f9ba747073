package solver

import (
	"errors"
	"fmt"
	"math"
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

// Option describes one engine setting, a key of Params.Extra (`--opt name=value`) or Params.Workers; Shared marks
// the options several engines share, each with its flag, 0 meaning the default.
type Option struct {
	Name   string
	Kind   OptionKind
	Shared bool
	// Default is the default as text ("" when Auto computes it).
	Default string
	Auto    string
	// Min and Max bound a number, inclusive unless MinOpen or MaxOpen (Max +Inf: none).
	Min, Max         float64
	MinOpen, MaxOpen bool
	// Choices are the values of a choice option.
	Choices []string
	Doc     string
	// Experimental marks an option for a suite or a paper's reproduction, listed only when asked.
	Experimental bool
}

// Flag is the option's name on a front end ("--blocks", "--opt rkbi_k").
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

// fmtNum formats a bound: integers whole, powers of two above 2^20 as 2^k.
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

// parse turns text into the option's canonical text and value, checked.
func (o Option) parse(s string) (string, float64, error) { return o.check(o.read(s)) }

// value is one setting read from its text: canonical text and number, or why not.
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

// reading is a run's settings read from their text, by option name.
type reading map[string]value

// read reads text as a value of o's kind, unchecked against range and choices.
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

// check returns x's canonical text and number if x is a value of o, else an error.
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

// ParamError is a setting the engine cannot take (the CLI exits 2): the flag, the value, the range and why.
type ParamError struct {
	Flag  string
	Value string
	Range string
	Why   string
	// Not, when set, is what the value failed to be ("an integer"), said instead of "out of range".
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

// Every engine's limits: what the engines and memory can take.
const (
	// MaxBlocks bounds the parallel searches (Lam et al. use at most 4224): more take seconds to set up.
	MaxBlocks = 1 << 16
	// MaxThreads bounds a search's moves per iteration (a CUDA block's threads).
	MaxThreads = 1024
	// MaxWorkers bounds the CPU goroutines.
	MaxWorkers = 1024
	// MaxK bounds the temperature steps between global-best exchanges.
	MaxK = 1 << 30
	// MaxSweeps bounds the iterations per temperature step, in multiples of n.
	MaxSweeps = 1 << 20
	// MaxTourCells bounds blocks × n and workers × n, the tours held at once.
	MaxTourCells = 1 << 25
	// MaxScheduleSteps bounds an annealing schedule's temperature steps.
	MaxScheduleSteps = 1 << 20
	// MaxTimeLimit bounds Params.TimeLimit.
	MaxTimeLimit = 366 * 24 * time.Hour
	// MaxTimeLimitText is MaxTimeLimit for people.
	MaxTimeLimitText = "366 days"
)

// The annealers' defaults on both backends: Lam et al., Table 1.
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
	// DefaultThreads is PSPM's moves per iteration a search: a warp of 32.
	DefaultThreads = 32
	// DefaultSegment is PSPM's longest segment on both backends: 1 is Lam et al.'s relocation
	// (docs/BENCHMARKS.md#pspm-on-lams-20).
	DefaultSegment = 1
)

// DefaultTimeLimit is the budget of engines without a natural end when Params.TimeLimit is 0.
const DefaultTimeLimit = 10 * time.Second

// inf is +Inf: an option without an upper bound.
var inf = math.Inf(1)

// Inf is the upper bound of an option without one.
var Inf = inf

// The shared options at their widest ranges.
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

// TabuTenure is the swap tabu search's tenure for n cities (asked when > 0).
func TabuTenure(n, asked int) int {
	if asked > 0 {
		return asked
	}
	return max(10, n/10)
}

// OptionSet is one engine's options.
type OptionSet []Option

// OptionsFor returns engine (algorithm, backend)'s options in display order (nil: none declared).
func OptionsFor(algorithm, backend string) OptionSet {
	return optionsOn(algorithm, backend, nil)
}

// HasOptionTable reports whether engine (algorithm, backend) declares its options.
func HasOptionTable(algorithm, backend string) bool {
	_, ok := declaredFor(algorithm, backend)
	return ok
}

// SharedOptions are the shared options at their widest ranges, for an engine that declares none.
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

// anyEngineOption reports whether some engine declares option name.
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

// Declarer is an engine's option declarations as the registry keeps them.
type Declarer interface {
	// Options returns the options with their defaults on in (nil: declared, BySize).
	Options(in *Instance) OptionSet
}

var (
	declMu   sync.RWMutex
	declared = map[[2]string]Declarer{}
)

// Declare registers the options of engine (algorithm, backend), replacing an earlier declaration; it is called in
// files every build compiles, so a build without the backend still lists them.
func Declare(algorithm, backend string, d Declarer) {
	declMu.Lock()
	defer declMu.Unlock()
	declared[[2]string{algorithm, backend}] = d
}

// optionsOn returns (algorithm, backend)'s options with defaults on in (nil: none).
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

// Stable returns s's options that are not experimental.
func (s OptionSet) Stable() OptionSet {
	var out OptionSet
	for _, o := range s {
		if !o.Experimental {
			out = append(out, o)
		}
	}
	return out
}

// Options implements Declarer for a fixed set of options.
func (s OptionSet) Options(*Instance) OptionSet { return slices.Clone(s) }
