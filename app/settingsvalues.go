package app

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/tsplab/tsplab/solver"
)

// HelpSeed is the seed field's help text; the time limit's depends on the engine (timeHelp).
const HelpSeed = "seed fixes choices, not timing"

// Settings are one pane's solver choices, persisted in Preferences.
type Settings struct {
	Algorithm string
	Backend   string
	TimeLimit time.Duration
	Seed      uint64
	// Route is a run's route: RouteTour ("" too), RouteOpen or RouteEnds, between Ends ("A,B").
	Route, Ends string
	// Options are the options the user set, by option table name; an absent name runs the default.
	Options map[string]string
}

// Params turns s into engine parameters, leaving out an option that does not parse (Validate says).
func (s Settings) Params() solver.Params {
	p := solver.Params{Algorithm: s.Algorithm, Backend: s.Backend, TimeLimit: s.TimeLimit, Seed: s.Seed}
	for _, name := range slices.Sorted(maps.Keys(s.Options)) {
		_ = p.Set(name + "=" + s.Options[name])
	}
	return p
}

// Validate returns a one-line error naming the first bad setting and its range.
func (s Settings) Validate() error {
	switch {
	case s.Algorithm == "":
		return fmt.Errorf("settings: no algorithm chosen")
	case s.TimeLimit < 0:
		return fmt.Errorf("settings: time limit is negative")
	}
	var p solver.Params
	for _, name := range slices.Sorted(maps.Keys(s.Options)) {
		if err := p.Set(name + "=" + s.Options[name]); err != nil {
			return settingsError(err, solver.BackendCPU)
		}
	}
	return nil
}

// OptionLabel is the form's short plain-words label of option name on backend (unknown options: their name, capitalised).
func OptionLabel(name, backend string) string {
	gpu := backend == solver.BackendGPU
	switch name {
	case "blocks":
		if gpu {
			return "Blocks"
		}
		return "Searches"
	case "threads":
		if gpu {
			return "Threads/block"
		}
		return "Moves per step"
	}
	if l, ok := optionLabels[name]; ok {
		return l
	}
	r := []rune(strings.ReplaceAll(name, "_", " "))
	if len(r) > 0 {
		r[0] = unicode.ToUpper(r[0])
	}
	return string(r)
}

// optionLabels are the form's labels of the options by --opt name.
var optionLabels = map[string]string{
	"k": "Sync interval", "workers": "Workers", "t0": "Start temperature", "tend": "End temperature",
	"alpha": "Cooling factor", "sweeps": "Sweeps a step", "seg": "Longest move",
	"restarts": "Restarts", "start": "Start tours", "gpus": "GPUs", "kicks": "Kicks",
	"pivot": "Pivot rule", "rkbi_k": "Best of k", "sync": "Sync every", "share": "Sync shares",
	"stale": "Escape after", "threeopt": "3-opt moves", "or3opt": "Pure 3-opt", "bridge": "Bridge move",
	"depth": "Move depth", "move": "Deep move", "accept": "Accept",
	"segment": "Kick length", "neighbors": "Neighbours", "candidates": "Candidates",
	"partition": "Partition", "partseg": "Piece size", "partkicks": "Piece kicks",
	"partslice": "Piece time", "partshape": "Piece shape", "partdeep": "Shallow kicks",
	"dist": "Distances", "window": "Window size", "wsegment": "Window kick", "beside": "GPU share",
	"global": "Global descent", "pool": "Pool size", "rounds": "Rounds", "init": "First tours",
	"merge": "Merge", "ga": "EAX tours", "gpuround": "GPU round",
	"draw": "Move draw", "nnk": "Near cities", "nnfrom": "Near below",
	"island": "Island size", "tabu": "Tabu steps", "tenure": "Tabu tenure", "per": "Moves a thread",
}

// optionDocs replace the option table's help where it speaks of the program's insides.
var optionDocs = map[string]string{
	"workers": "how many CPU cores the search runs on; with a step budget, the same seed and cores give the same run",
}

// settingsError names the field of a *solver.ParamError by its label.
func settingsError(err error, backend string) error {
	var pe *solver.ParamError
	if !errors.As(err, &pe) {
		return err
	}
	return fmt.Errorf("settings: %w", fieldError(err, backend))
}

// fieldError is err with a *solver.ParamError's flag replaced by the field's label.
func fieldError(err error, backend string) error {
	var pe *solver.ParamError
	if !errors.As(err, &pe) {
		return err
	}
	q := *pe
	q.Flag = OptionLabel(strings.TrimPrefix(strings.TrimPrefix(pe.Flag, "--opt "), "--"), backend)
	return errors.New(q.Error())
}

func formatFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// AvailableAlgorithms are those that can run here; unavailable says why each other cannot.
func AvailableAlgorithms() (ok []string, unavailable map[string]string) {
	unavailable = map[string]string{}
	for _, a := range solver.Algorithms() {
		if _, _, err := solver.Resolve(a, solver.BackendAuto); err == nil {
			ok = append(ok, a)
			continue
		}
		why := "no engine can run here"
		if e, err := solver.Lookup(a, solver.BackendGPU); err == nil {
			if aerr := e.Available(); aerr != nil {
				why = gpuOnly + aerr.Error()
			}
		}
		unavailable[a] = why
	}
	return ok, unavailable
}

// gpuOnly starts the reason for an algorithm whose only engine is a GPU engine that cannot run here.
const gpuOnly = "GPU only: "

// unavailableText names the algorithms that cannot run here, grouped by reason ("" when all can).
func unavailableText(unavailable map[string]string, shown string) string {
	byWhy := map[string][]string{}
	for _, a := range slices.Sorted(maps.Keys(unavailable)) {
		byWhy[unavailable[a]] = append(byWhy[unavailable[a]], a)
	}
	var lines []string
	for _, why := range slices.Sorted(maps.Keys(byWhy)) {
		names := strings.Join(byWhy[why], ", ")
		reason, isGPU := strings.CutPrefix(why, gpuOnly)
		switch {
		case isGPU && reason == shown:
			lines = append(lines, "GPU only, so not available here: "+names+".")
		case isGPU:
			lines = append(lines, "GPU only, so not available here: "+names+". The GPU cannot run them: "+reason)
		default:
			lines = append(lines, "Not available here: "+names+": "+why)
		}
	}
	return strings.Join(lines, "\n")
}

// hasSchedule reports whether e anneals: its options include the start temperature.
func hasSchedule(set solver.OptionSet) bool {
	_, ok := set.Lookup("t0")
	return ok
}

// timeHelpFor is the time limit's help for an engine with options set.
func timeHelpFor(set solver.OptionSet) string {
	if hasSchedule(set) {
		return "0 or empty: the whole schedule"
	}
	return fmt.Sprintf("0 or empty: %v", solver.DefaultTimeLimit)
}

// checkSeed validates the seed's text.
func checkSeed(s string) error {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil
	}
	if _, err := strconv.ParseUint(s, 10, 64); err != nil {
		return fmt.Errorf("seed %q is not a whole number from 0 to %d", s, uint64(math.MaxUint64))
	}
	return nil
}

// GPUStatus is nil when algorithm can run on the GPU here, else why (backendStatus).
func GPUStatus(algorithm string) error { return backendStatus(algorithm, solver.BackendGPU) }

// backendStatus is nil when algorithm can run on backend here, else the engine's or registry's reason.
func backendStatus(algorithm, backend string) error {
	e, err := solver.Lookup(algorithm, backend)
	if err != nil {
		return fmt.Errorf("no %s engine for %s", strings.ToUpper(backend), algorithm)
	}
	return e.Available()
}

// gpuAbsentNote says plainly why algorithm cannot run on the GPU, and on gpu or auto that it runs on the CPU.
func gpuAbsentNote(algorithm, backend string, gerr error) string {
	if _, err := solver.Lookup(algorithm, solver.BackendGPU); err != nil {
		return "CPU only: " + algorithm + " has no GPU engine"
	}
	if backend == solver.BackendCPU {
		return "GPU unavailable: " + gerr.Error()
	}
	return "No GPU here, so this pane runs on the CPU: " + gerr.Error()
}
