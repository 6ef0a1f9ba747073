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

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/data/binding"
	"fyne.io/fyne/v2/widget"

	"github.com/tsplab/tsplab/solver"
)

// Help texts of the settings every engine shares; the engines' own
// options take theirs from solver's option table.
const (
	HelpTime = "seconds; 0 = the schedule decides"
	HelpSeed = "the same seed repeats a run"
)

// Settings are one pane's solver choices, persisted in Preferences.
type Settings struct {
	Algorithm string
	Backend   string
	TimeLimit time.Duration
	Seed      uint64
	// Options are the engine options the user set, by the names of
	// solver's option table ("blocks", "alpha", "rkbi_k"); an absent name
	// runs the engine's default.
	Options map[string]string
}

// Params turns s into the engine parameters. An option that does not
// parse is left out (Validate reports it).
func (s Settings) Params() solver.Params {
	p := solver.Params{Algorithm: s.Algorithm, Backend: s.Backend, TimeLimit: s.TimeLimit, Seed: s.Seed}
	for _, name := range slices.Sorted(maps.Keys(s.Options)) {
		_ = p.Set(name + "=" + s.Options[name])
	}
	return p
}

// Validate returns a one-line error naming the first bad setting: its
// type and range as the option table gives them. The checks that depend
// on the engine and the instance are the form's (solver.Validate).
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
			return settingsError(err)
		}
	}
	return nil
}

// labels are the form's names of the Params field options.
var labels = map[string]string{
	"blocks": "Blocks", "threads": "Threads/block", "k": "Sync k", "workers": "Workers",
	"t0": "T0", "tend": "T end", "alpha": "Alpha", "sweeps": "Sweeps",
}

// primary are the options a pane shows first, above the fold; the others
// (the annealing schedule, the engines' own options) are in Advanced.
var primary = []string{"blocks", "threads", "k", "workers"}

func label(name string) string {
	if l, ok := labels[name]; ok {
		return l
	}
	return name
}

// settingsError names the field of a *solver.ParamError by its label.
func settingsError(err error) error {
	var pe *solver.ParamError
	if !errors.As(err, &pe) {
		return err
	}
	name := strings.TrimPrefix(strings.TrimPrefix(pe.Flag, "--opt "), "--")
	q := *pe
	q.Flag = label(name)
	return fmt.Errorf("settings: %s", q.Error())
}

// optionRow is one option's field in the form.
type optionRow struct {
	opt   solver.Option
	value binding.String // "" = the default
	item  *widget.FormItem
}

// settingsForm is the editable, persisted form of one pane's Settings.
// Every field is a data binding onto a Preferences key under prefix, so a
// change is saved the moment it is made. The engine's fields come from
// solver's option table, with the defaults and ranges for the chosen
// engine on the pane's instance and device (solver.EffectiveOptions);
// they are rebuilt when the algorithm, the backend or the instance changes.
type settingsForm struct {
	prefix string
	prefs  fyne.Preferences
	in     *solver.Instance

	algorithm binding.String
	backend   binding.String
	timeLimit binding.String
	seed      binding.String

	algoSelect  *widget.Select
	algoHelp    *secondaryLabel
	backendBtns map[string]*widget.Button
	backendRow  *fyne.Container
	gpuNote     *widget.Label

	rows     []optionRow
	entries  []*widget.Entry  // the option fields that are entries, then time limit and seed
	selects  []*widget.Select // the option fields that are choices
	main     *fyne.Container  // primary options and the time limit
	more     *fyne.Container  // the other options and the seed
	enabled  bool
	timeItem *widget.Entry
	seedItem *widget.Entry
}

// Backend choices in the order the buttons show them.
var backends = []string{solver.BackendCPU, solver.BackendGPU, solver.BackendAuto}

// newSettingsForm binds the form to prefs under prefix ("single.",
// "left.", "right.") with def for keys never saved.
func newSettingsForm(prefs fyne.Preferences, prefix string, def Settings) *settingsForm {
	f := &settingsForm{prefix: prefix, prefs: prefs, enabled: true}
	f.algorithm = f.bind("algorithm", def.Algorithm)
	f.backend = f.bind("backend", def.Backend)
	f.timeLimit = f.bind("time_limit_s", formatFloat(def.TimeLimit.Seconds()))
	f.seed = f.bind("seed", strconv.FormatUint(def.Seed, 10))
	for name, v := range def.Options {
		if prefs.String(prefix+name) == "" {
			prefs.SetString(prefix+name, v)
		}
	}
	f.build()
	return f
}

// bind returns the preference key under the form's prefix, set to d when
// it was never saved.
func (f *settingsForm) bind(key, d string) binding.String {
	if f.prefs.String(f.prefix+key) == "" && d != "" {
		f.prefs.SetString(f.prefix+key, d)
	}
	return binding.BindPreferenceString(f.prefix+key, f.prefs)
}

func formatFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func (f *settingsForm) build() {
	algos := solver.Algorithms()
	// The engine's description in the readable secondary colour: Fyne's
	// low-importance grey is too faint on the dark theme.
	f.algoHelp = newSecondaryLabel("", true)
	f.algoSelect = widget.NewSelect(algos, func(a string) {
		_ = f.algorithm.Set(a)
		f.refreshBackend()
	})
	f.backendBtns = map[string]*widget.Button{}
	var btns []fyne.CanvasObject
	for _, b := range backends {
		btn := widget.NewButton(strings.ToUpper(b[:1])+b[1:], func() {
			_ = f.backend.Set(b)
			f.refreshBackend()
		})
		f.backendBtns[b] = btn
		btns = append(btns, btn)
	}
	f.gpuNote = widget.NewLabel("")
	f.gpuNote.Wrapping = fyne.TextWrapWord
	f.gpuNote.Importance = widget.WarningImportance
	f.timeItem = widget.NewEntryWithData(f.timeLimit)
	f.timeItem.SetPlaceHolder("10")
	f.seedItem = widget.NewEntryWithData(f.seed)
	f.seedItem.SetPlaceHolder("1")
	f.main = container.NewVBox()
	f.more = container.NewVBox()
	f.backendRow = container.NewGridWithColumns(3, btns...)
	a, _ := f.algorithm.Get()
	if !slices.Contains(algos, a) && len(algos) > 0 {
		a = algos[0]
	}
	if a != "" {
		f.algoSelect.SetSelected(a) // refreshes the backend and the fields
	}
	f.refreshBackend()
}

// engine is the engine the form's algorithm and backend choose (nil if
// none), as solver.Resolve picks it.
func (f *settingsForm) engine() solver.Engine {
	algo, _ := f.algorithm.Get()
	b, _ := f.backend.Get()
	e, _, err := solver.Resolve(algo, b)
	if err != nil && b == solver.BackendGPU {
		e, _ = solver.Lookup(algo, b) // unavailable here, but its options still show
	}
	return e
}

// options are the chosen engine's options on the pane's instance: the
// table's, or the Params fields for an engine the table does not list.
func (f *settingsForm) options() solver.OptionSet {
	e := f.engine()
	if e == nil {
		return nil
	}
	set := solver.EffectiveOptions(e, f.in)
	if set == nil && !solver.HasOptionTable(e.Name(), e.Backend()) {
		set = solver.FieldOptions()
	}
	return set
}

// rebuildFields makes a field per option of the chosen engine: an entry
// whose placeholder is the value that will run, or a choice; the hint
// says the range and what the option does.
func (f *settingsForm) rebuildFields() {
	f.rows, f.entries, f.selects = nil, nil, nil
	var mainItems, moreItems []*widget.FormItem
	for _, o := range f.options() {
		v := f.bind(o.Name, "")
		if o.Field {
			// "0" is how earlier versions saved "the default".
			if s, _ := v.Get(); strings.TrimSpace(s) == "0" {
				_ = v.Set("")
			}
		}
		def := o.Default
		if def == "" {
			def = o.Auto
		}
		var w fyne.CanvasObject
		switch o.Kind {
		case solver.KindChoice, solver.KindBool:
			choices := o.Choices
			if o.Kind == solver.KindBool {
				choices = []string{"on", "off"}
			}
			dflt := "default (" + def + ")"
			sel := widget.NewSelect(append([]string{dflt}, choices...), nil)
			cur, _ := v.Get()
			if slices.Contains(choices, cur) {
				sel.SetSelected(cur)
			} else {
				sel.SetSelected(dflt)
			}
			sel.OnChanged = func(s string) {
				if s == dflt {
					s = ""
				}
				_ = v.Set(s)
			}
			f.selects = append(f.selects, sel)
			w = sel
		default:
			e := widget.NewEntryWithData(v)
			e.SetPlaceHolder(def)
			f.entries = append(f.entries, e)
			w = e
		}
		it := widget.NewFormItem(label(o.Name), w)
		// The hint is one line of canvas text that sets the form's least
		// width: the value that will run and the range fit a side column,
		// the option's doc does not (tsp engines --verbose has it).
		it.HintText = fmt.Sprintf("default %s; range %s", def, o.Range())
		f.rows = append(f.rows, optionRow{opt: o, value: v, item: it})
		if slices.Contains(primary, o.Name) {
			mainItems = append(mainItems, it)
		} else {
			moreItems = append(moreItems, it)
		}
	}
	ti := widget.NewFormItem("Time limit (s)", f.timeItem)
	ti.HintText = HelpTime
	si := widget.NewFormItem("Seed", f.seedItem)
	si.HintText = HelpSeed
	f.entries = append(f.entries, f.timeItem, f.seedItem)
	f.main.Objects = []fyne.CanvasObject{widget.NewForm(append(mainItems, ti)...)}
	f.more.Objects = []fyne.CanvasObject{widget.NewForm(append(moreItems, si)...)}
	f.main.Refresh()
	f.more.Refresh()
	f.applyEnabled()
}

// SetInstance recomputes the fields' defaults and ranges for in (the
// pane's instance; nil: none).
func (f *settingsForm) SetInstance(in *solver.Instance) {
	f.in = in
	f.rebuildFields()
}

// GPUStatus says whether algorithm can run on the GPU here: nil when it
// can, else the reason (the engine's Available error, or that there is
// no GPU engine for it).
func GPUStatus(algorithm string) error {
	e, err := solver.Lookup(algorithm, solver.BackendGPU)
	if err != nil {
		return fmt.Errorf("no GPU engine for %s", algorithm)
	}
	return e.Available()
}

// refreshBackend enables the GPU button only when the chosen algorithm
// has an available GPU engine, shows why not otherwise, and rebuilds the
// fields for the engine now chosen.
func (f *settingsForm) refreshBackend() {
	algo, _ := f.algorithm.Get()
	cur, _ := f.backend.Get()
	gerr := GPUStatus(algo)
	_, cpuErr := solver.Lookup(algo, solver.BackendCPU)
	if gerr != nil && cur == solver.BackendGPU {
		cur = solver.BackendAuto
		_ = f.backend.Set(cur)
	}
	for b, btn := range f.backendBtns {
		switch {
		case !f.enabled:
			btn.Disable()
		case b == solver.BackendGPU && gerr != nil:
			btn.Disable()
		case b == solver.BackendCPU && cpuErr != nil:
			btn.Disable()
		default:
			btn.Enable()
		}
		if b == cur {
			btn.Importance = widget.HighImportance
		} else {
			btn.Importance = widget.MediumImportance
		}
		btn.Refresh()
	}
	if gerr != nil {
		f.gpuNote.SetText("GPU disabled: " + gerr.Error())
		f.gpuNote.Show()
	} else {
		f.gpuNote.SetText("")
		f.gpuNote.Hide()
	}
	desc := ""
	if e := f.engine(); e != nil {
		desc = e.Describe()
	}
	f.algoHelp.SetText(desc)
	f.rebuildFields()
}

// Primary is the part of the form a pane shows first: algorithm,
// backend, the engine's main options (blocks, threads per block, sync k,
// workers) and the time limit.
func (f *settingsForm) Primary() fyne.CanvasObject {
	return container.NewVBox(
		widget.NewForm(widget.NewFormItem("Algorithm", f.algoSelect), widget.NewFormItem("Backend", f.backendRow)),
		f.algoHelp, f.gpuNote, f.main,
	)
}

// Advanced is the rest of the form: the annealing schedule, the engine's
// own options and the seed.
func (f *settingsForm) Advanced() fyne.CanvasObject { return f.more }

// Settings parses the form; a bad field gives a one-line error naming it
// and the range allowed for the chosen engine on the pane's instance.
func (f *settingsForm) Settings() (Settings, error) {
	var s Settings
	s.Algorithm, _ = f.algorithm.Get()
	s.Backend, _ = f.backend.Get()
	s.Options = map[string]string{}
	for _, r := range f.rows {
		if v, _ := r.value.Get(); strings.TrimSpace(v) != "" {
			s.Options[r.opt.Name] = strings.TrimSpace(v)
		}
	}
	if v, _ := f.timeLimit.Get(); strings.TrimSpace(v) != "" {
		secs, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		switch {
		case err != nil || math.IsNaN(secs) || math.IsInf(secs, 0):
			return s, fmt.Errorf("settings: time limit %q is not a number", v)
		case secs > solver.MaxTimeLimit.Seconds():
			return s, fmt.Errorf("settings: time limit %g s is too long (at most %v)", secs, solver.MaxTimeLimit)
		}
		s.TimeLimit = time.Duration(secs * float64(time.Second))
	}
	if v, _ := f.seed.Get(); strings.TrimSpace(v) != "" {
		n, err := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
		if err != nil {
			return s, fmt.Errorf("settings: seed %q is not a non-negative whole number", v)
		}
		s.Seed = n
	}
	if err := s.Validate(); err != nil {
		return s, err
	}
	if e := f.engine(); e != nil {
		if err := solver.Validate(e, f.in, s.Params()); err != nil {
			return s, settingsError(err)
		}
	}
	return s, nil
}

// Set writes s into the form (and so into Preferences).
func (f *settingsForm) Set(s Settings) {
	_ = f.algorithm.Set(s.Algorithm)
	_ = f.backend.Set(s.Backend)
	_ = f.timeLimit.Set(formatFloat(s.TimeLimit.Seconds()))
	_ = f.seed.Set(strconv.FormatUint(s.Seed, 10))
	// Every option the form may show: those of s, the rest back to the
	// default.
	for _, r := range f.rows {
		_ = r.value.Set("")
	}
	for name, v := range s.Options {
		_ = f.bind(name, "").Set(v)
	}
	f.algoSelect.SetSelected(s.Algorithm)
	f.refreshBackend()
}

// SetEnabled enables or disables editing (disabled while running).
func (f *settingsForm) SetEnabled(on bool) {
	f.enabled = on
	if on {
		f.algoSelect.Enable()
	} else {
		f.algoSelect.Disable()
	}
	f.applyEnabled()
	f.refreshBackendButtons()
}

// applyEnabled enables or disables the fields.
func (f *settingsForm) applyEnabled() {
	for _, e := range f.entries {
		if f.enabled {
			e.Enable()
		} else {
			e.Disable()
		}
	}
	for _, s := range f.selects {
		if f.enabled {
			s.Enable()
		} else {
			s.Disable()
		}
	}
}

// refreshBackendButtons disables the backend buttons while the form is
// disabled and restores them after.
func (f *settingsForm) refreshBackendButtons() {
	if f.enabled {
		f.refreshBackend()
		return
	}
	for _, b := range f.backendBtns {
		b.Disable()
	}
}
