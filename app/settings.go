package app

import (
	"cmp"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/data/binding"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/tsplab/tsplab/internal/seconds"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/report"
)

// optionRow is one option's field: label and input, help beneath, error while invalid.
type optionRow struct {
	opt    solver.Option
	value  binding.String // "" = the default
	entry  *widget.Entry  // nil for a choice
	choice *widget.Select // nil for an entry
	label  *widget.Label
	help   *widget.Label // wraps however many lines its width takes (see newHelpLabel)
	errMsg *widget.Label
	box    *fieldRow
}

// settingsForm is one pane's Settings form, each field saved under prefix; the engine's fields come from the option table.
type settingsForm struct {
	prefix string
	prefs  fyne.Preferences
	in     *solver.Instance

	algorithm binding.String
	backend   binding.String
	timeLimit binding.String
	seed      binding.String

	picker      *enginePicker     // the algorithm and the backend
	unavailable *widget.Label     // the algorithms that cannot run here, and why (its lines change in number)
	unavail     map[string]string // AvailableAlgorithms' reasons, by algorithm
	algoHelp    *widget.Label     // a Label: see secondaryLabel on texts whose lines change
	about       *widget.Accordion // the engine's description, folded: it runs to a dozen lines

	rows     []optionRow
	fields   *fyne.Container // the stable options (in compare mode with the budget note and the seed)
	advanced *widget.Accordion
	advBox   *fyne.Container // the experimental options
	enabled  bool

	timeField, seedField *savedField // saved only while valid (savedField)
	timeItem, seedItem   *widget.Entry
	timeHelp             *widget.Label // the time limit's help, with the seed's in the single view
	timeErr, seedErr     *widget.Label
	runRow               *fyne.Container // the single view's time limit and seed (RunRow)
	seedBox              *fieldRow       // compare mode's seed field, in the folded settings

	route  *routeForm // the Path field: a tour, an open path or a path between two ends
	shared bool       // the time limit hidden: compare mode's budget is the panes'
	// coreShare is a compare pane's cores beside the other (0: all), shown for an empty Workers field
	coreShare  int
	budgetNote *widget.Label
	shown      solver.Engine // the engine the fields were built for
	// gpuLine names a GPU run's GPUs (Host.gpuLine); gpuShare is compare mode's share of them.
	gpuLine  *widget.Label
	gpuShare gpuShare
	box      *fyne.Container // Fields' column, laid out again when gpuLine shows or hides

	OnEngineChanged func(solver.Engine)    // if set, called when the chosen engine changes
	OnValidity      func()                 // if set, called when the time limit's or the seed's text changes
	OnUserAlgorithm func(old, algo string) // if set, called when the user picks another algorithm
	OnGPUs          func()                 // if set, called when the engine or the GPUs field may have changed
}

// Backend choices in the order the buttons show them.
var backends = []string{solver.BackendCPU, solver.BackendGPU, solver.BackendAuto}

// labelWidth fits the longest OptionLabel uncut.
const labelWidth = 140

// newSettingsForm binds the form to prefs under prefix ("single.", "left.", "right."), def when unsaved.
func newSettingsForm(prefs fyne.Preferences, prefix string, def Settings) *settingsForm {
	f := &settingsForm{prefix: prefix, prefs: prefs, enabled: true}
	f.algorithm = f.bind("algorithm", def.Algorithm)
	f.backend = f.bind("backend", def.Backend)
	f.timeField = newSavedField(prefs, prefix+"time_limit_s", formatFloat(def.TimeLimit.Seconds()), f.checkTime)
	f.seedField = newSavedField(prefs, prefix+"seed", strconv.FormatUint(def.Seed, 10), checkSeed)
	f.timeLimit, f.seed = f.timeField.value, f.seedField.value
	for name, v := range def.Options {
		if prefs.String(prefix+name) == "" {
			prefs.SetString(prefix+name, v)
		}
	}
	f.build()
	return f
}

// bind returns the preference key under the form's prefix, set to d when it was never saved.
func (f *settingsForm) bind(key, d string) binding.String {
	if f.prefs.String(f.prefix+key) == "" && d != "" {
		f.prefs.SetString(f.prefix+key, d)
	}
	return binding.BindPreferenceString(f.prefix+key, f.prefs)
}

// newHelpLabel is the small text under a field: a wrapping Label, which follows the column's width under OpenGL.
func newHelpLabel(text string) *widget.Label {
	l := newWrapLabel(text)
	l.SizeName = theme.SizeNameCaptionText
	return l
}

// newWrapLabel is a label whose text wraps at word boundaries.
func newWrapLabel(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	return l
}

func newErrLabel() *widget.Label {
	l := newWrapLabel("")
	l.Importance = widget.DangerImportance
	l.Hide()
	return l
}

// build makes the form's widgets and shows the saved algorithm.
func (f *settingsForm) build() {
	algos, unavailable := AvailableAlgorithms()
	// The description's lines change in number with the engine (see secondaryLabel).
	f.algoHelp = newWrapLabel("")
	f.about = widget.NewAccordion(widget.NewAccordionItem("About the engine", f.algoHelp))
	f.unavailable = newHelpLabel("")
	f.unavail = unavailable
	f.unavailable.Hide()
	f.picker = newEnginePicker(algos, f.pickAlgorithm, func(b string) {
		_ = f.backend.Set(b)
		f.refreshBackend()
	})
	f.buildTimeAndSeed()
	f.route = newRouteForm(f)
	f.gpuLine = newWrapLabel("")
	f.gpuLine.Hide()
	f.budgetNote = newHelpLabel("Time limit: the compare budget above, the same for both panes")
	f.fields = container.NewVBox()
	f.advBox = container.NewVBox()
	f.advanced = widget.NewAccordion(widget.NewAccordionItem("Advanced", f.advBox))
	a, _ := f.algorithm.Get()
	if !slices.Contains(algos, a) && len(algos) > 0 {
		a = algos[0]
		if slices.Contains(algos, "auto") {
			a = "auto"
		}
	}
	if slices.Contains(f.picker.algoSelect.Options, a) {
		f.picker.algoSelect.SetSelected(a) // refreshes the backend and the fields (pickAlgorithm)
	} else {
		f.refreshBackend()
	}
}

// pickAlgorithm saves the menu's choice, refreshes backend and fields and tells OnUserAlgorithm.
func (f *settingsForm) pickAlgorithm(a string) {
	cur, _ := f.algorithm.Get()
	if cur != a {
		_ = f.algorithm.Set(a)
	}
	f.refreshBackend()
	if cur != a && f.OnUserAlgorithm != nil {
		f.OnUserAlgorithm(cur, a)
	}
}

// buildTimeAndSeed makes the time limit's and the seed's fields.
func (f *settingsForm) buildTimeAndSeed() {
	f.timeItem = f.timeField.entry
	f.timeItem.SetPlaceHolder("10")
	f.timeHelp = newHelpLabel("")
	f.timeErr = newErrLabel()
	f.timeField.OnChanged = func(_ string, err error) {
		f.showRunError(f.timeErr, err)
		f.validityChanged()
	}

	f.seedItem = f.seedField.entry
	f.seedItem.SetPlaceHolder("1")
	f.seedErr = newErrLabel()
	f.seedField.OnChanged = func(_ string, err error) {
		f.showRunError(f.seedErr, err)
		f.validityChanged()
	}
}

// showRunError shows err under the time limit or seed (l its error line) wherever it is.
func (f *settingsForm) showRunError(l *widget.Label, err error) {
	was := l.Visible()
	showFieldError(l, err)
	if was == l.Visible() {
		return
	}
	if f.runRow != nil {
		f.runRow.Refresh()
	}
	if f.seedBox != nil {
		f.seedBox.Refresh()
	}
}

// RunRow is the single view's line of time limit and seed, with their help and errors beneath.
func (f *settingsForm) RunRow() fyne.CanvasObject {
	if f.runRow == nil {
		seed := container.NewBorder(nil, nil, widget.NewLabel("Seed"), nil, f.seedItem)
		line := container.NewBorder(nil, nil, widget.NewLabel("Time limit (s)"), nil, container.NewGridWithColumns(2, f.timeItem, seed))
		f.runRow = container.NewVBox(line, f.timeHelp, f.timeErr, f.seedErr)
	}
	return f.runRow
}

func (f *settingsForm) validityChanged() {
	if f.OnValidity != nil {
		f.OnValidity()
	}
}

// Runnable reports whether the time limit, seed and path ends a run needs are valid.
func (f *settingsForm) Runnable() bool {
	return (f.shared || f.timeField.Valid()) && f.seedField.Valid() && f.route.Valid()
}

// ShowTimeLimit shows d as the time limit without saving it (a command line's one run).
func (f *settingsForm) ShowTimeLimit(d time.Duration) {
	f.timeField.Show(formatFloat(d.Seconds()))
}

// showFieldError shows err under its field, or hides the line.
func showFieldError(l *widget.Label, err error) {
	if err == nil {
		if l.Visible() {
			l.SetText("")
			l.Hide()
		}
		return
	}
	l.SetText(Drawable(err.Error()))
	l.Show()
}

// checkTime validates the time limit's text.
func (f *settingsForm) checkTime(s string) error {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil
	}
	d, err := seconds.Parse(s)
	switch {
	case err != nil:
		return fmt.Errorf("time limit %q: %v", s, err)
	case d < 0:
		return fmt.Errorf("time limit %s is negative: want 0 up to %s", s, solver.MaxTimeLimitText)
	case d > solver.MaxTimeLimit:
		return fmt.Errorf("time limit %s is too long: at most %s", s, solver.MaxTimeLimitText)
	}
	return nil
}

// engine is the engine the form's algorithm and backend choose (nil: none), as solver.Resolve picks.
func (f *settingsForm) engine() solver.Engine {
	algo, _ := f.algorithm.Get()
	b, _ := f.backend.Get()
	e, _, err := solver.Resolve(algo, b)
	if err != nil {
		return nil
	}
	return e
}

// options are the engine's options on the instance (the shared ones for an engine the table lacks).
func (f *settingsForm) options() solver.OptionSet {
	e := f.engine()
	if e == nil {
		return nil
	}
	set := solver.EffectiveOptions(e, f.in)
	if set == nil && !solver.HasOptionTable(e.Name(), e.Backend()) {
		set = solver.SharedOptions()
	}
	return set
}

// rangeWhy says why an option's range here is narrower than the table's, or "".
func (f *settingsForm) rangeWhy(o solver.Option) string {
	if f.in != nil && f.in.N > 0 && (o.Name == "blocks" || o.Name == "workers") {
		// Each search or worker holds a tour: their memory bound sets the range on large instances.
		if o.Max == math.Max(1, float64(solver.MaxTourCells/f.in.N)) {
			return fmt.Sprintf("on %s: %s × cities at most %s", solver.Plural(int64(f.in.N), "city", "cities"), o.Name, solver.GroupDigits(strconv.Itoa(solver.MaxTourCells)))
		}
		return fmt.Sprintf("narrower on larger instances: %s × cities at most %s", o.Name, solver.GroupDigits(strconv.Itoa(solver.MaxTourCells)))
	}
	if e := f.engine(); e != nil {
		if base, ok := solver.OptionsFor(e.Name(), e.Backend()).Lookup(o.Name); ok && o.Max < base.Max {
			return "this device's limit"
		}
	}
	return ""
}

// helpText is the line under an option's field: what it does, default and range here.
func (f *settingsForm) helpText(o solver.Option) string {
	def := cmp.Or(o.Default, o.Auto)
	if o.Name == "workers" && f.coreShare > 0 {
		def = fmt.Sprintf("%d, this pane's share of the %s beside the other pane", f.coreShare, report.Plural(runtime.NumCPU(), "core"))
	}
	r := o.Range()
	if why := f.rangeWhy(o); why != "" {
		r += " (" + why + ")"
	}
	s := fmt.Sprintf("empty: %s; range %s", def, r)
	if doc := cmp.Or(optionDocs[o.Name], o.Doc); doc != "" {
		s = doc + ". " + s
	}
	return Drawable(s)
}

// check validates text as option o's value for the engine on the instance (shared: empty is the default).
func (f *settingsForm) check(o solver.Option, text string) error {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil
	}
	e := f.engine()
	backend := solver.BackendCPU
	if e != nil {
		backend = e.Backend()
	}
	var p solver.Params
	if o.Shared && text == "0" && o.Min > 0 {
		return fieldError(&solver.ParamError{Flag: o.Flag(), Value: text, Range: o.Range() + ", or empty for the default", Why: f.rangeWhy(o)}, backend)
	}
	if err := p.Set(o.Name + "=" + text); err != nil || e == nil {
		return fieldError(err, backend)
	}
	if c := OptionChecks[o.Name]; c != nil && o.Kind == solver.KindText {
		if err := c(text); err != nil {
			return fieldError(err, backend)
		}
	}
	if o.Name == optGPUs && backend == solver.BackendGPU && Host.known() {
		if _, err := Host.devices(e, text); err != nil {
			return fieldError(err, backend)
		}
	}
	// the form checks the device's limits too
	if err := solver.Validate(e, f.in, p); err != nil {
		return fieldError(err, backend)
	}
	return fieldError(solver.CheckDevice(e, f.in, p), backend)
}

// OptionChecks check free-text options by name as their engine will; the front end that links the engines sets them.
var OptionChecks = map[string]func(text string) error{}

// newOptionRow makes option o's field on backend, bound to its preference.
func (f *settingsForm) newOptionRow(o solver.Option, backend string) optionRow {
	v := f.bind(o.Name, "")
	if o.Shared {
		// "0" is how earlier versions saved "the default".
		if s, _ := v.Get(); strings.TrimSpace(s) == "0" {
			_ = v.Set("")
		}
	}
	r := optionRow{opt: o, value: v, label: widget.NewLabel(OptionLabel(o.Name, backend)),
		help: newHelpLabel(f.helpText(o)), errMsg: newErrLabel()}
	r.label.Truncation = fyne.TextTruncateEllipsis
	if o.Kind == solver.KindChoice || o.Kind == solver.KindBool {
		r.choice = newChoiceInput(o, v)
		r.box = newFieldRow(r.label, r.choice, r.help, r.errMsg)
		return r
	}
	r.entry = widget.NewEntryWithData(v)
	r.entry.SetPlaceHolder(f.placeHolder(o))
	r.box = newFieldRow(r.label, r.entry, r.help, r.errMsg)
	box := r.box
	r.entry.Validator = func(s string) error { return f.check(o, s) }
	r.entry.OnChanged = func(s string) {
		box.ShowError(f.check(o, s))
		if o.Name == optGPUs {
			f.gpusChanged()
		}
	}
	cur, _ := v.Get()
	showFieldError(r.errMsg, f.check(o, cur))
	return r
}

// placeHolder is what an empty field of o stands for.
func (f *settingsForm) placeHolder(o solver.Option) string {
	if o.Name == "workers" && f.coreShare > 0 {
		return strconv.Itoa(f.coreShare)
	}
	return cmp.Or(o.Default, o.Auto)
}

// setCoreShare shows n as the cores an empty Workers field gives (0: every core).
func (f *settingsForm) setCoreShare(n int) {
	if n == f.coreShare {
		return
	}
	f.coreShare = n
	for _, r := range f.rows {
		if r.opt.Name == "workers" && r.entry != nil {
			r.entry.SetPlaceHolder(f.placeHolder(r.opt))
			r.help.SetText(f.helpText(r.opt))
		}
	}
}

// newChoiceInput is a choice or on/off option's menu, the default first; v gets the choice ("": default).
func newChoiceInput(o solver.Option, v binding.String) *widget.Select {
	choices := o.Choices
	if o.Kind == solver.KindBool {
		choices = []string{"on", "off"}
	}
	dflt := Drawable("default (" + cmp.Or(o.Default, o.Auto) + ")")
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
	return sel
}

// unbindFields unbinds the option fields: a preference's binding is shared by every field built on it.
func (f *settingsForm) unbindFields() {
	for _, r := range f.rows {
		if r.entry != nil {
			r.entry.Unbind()
		}
	}
}

// rebuildFields makes a field per option of the engine, experimental ones under Advanced.
func (f *settingsForm) rebuildFields() {
	f.unbindFields()
	f.rows = nil
	var stable, experimental []fyne.CanvasObject
	backend := solver.BackendCPU
	if e := f.engine(); e != nil {
		backend = e.Backend()
	}
	set := f.options()
	for _, o := range set {
		r := f.newOptionRow(o, backend)
		f.rows = append(f.rows, r)
		if o.Experimental {
			experimental = append(experimental, r.box)
		} else {
			stable = append(stable, r.box)
		}
	}
	f.timeHelp.SetText(Drawable(timeHelpFor(set) + "; " + HelpSeed))
	cur, _ := f.timeLimit.Get()
	f.showRunError(f.timeErr, f.checkTime(cur))
	f.fields.Objects = stable
	if f.shared {
		// Compare mode: the budget stands for the time limit; the seed stays in the pane's settings.
		if f.seedBox == nil {
			f.seedBox = newFieldRow(widget.NewLabel("Seed"), f.seedItem, newHelpLabel(HelpSeed), f.seedErr)
		}
		f.fields.Objects = append(stable, f.budgetNote, f.seedBox)
	}
	f.advBox.Objects = experimental
	showIf(f.advanced, len(experimental) > 0)
	f.refreshGPULine()
	f.fields.Refresh()
	f.advBox.Refresh()
	f.advanced.Refresh()
	f.applyEnabled()
	if f.OnGPUs != nil {
		f.OnGPUs()
	}
}

// optionText is the engine's option name's text ("": the default, or no such option).
func (f *settingsForm) optionText(name string) string {
	for _, r := range f.rows {
		if r.opt.Name == name {
			v, _ := r.value.Get()
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// gpuDemand is what a run of the form's engine asks of the GPUs.
func (f *settingsForm) gpuDemand() gpuDemand {
	e := f.engine()
	if e == nil || e.Backend() != solver.BackendGPU {
		return gpuDemand{}
	}
	return gpuDemand{e: e, text: f.optionText(optGPUs)}
}

// gpusChanged follows the GPUs field: its line, and OnGPUs.
func (f *settingsForm) gpusChanged() {
	f.refreshGPULine()
	if f.OnGPUs != nil {
		f.OnGPUs()
	}
}

// setGPUShare takes compare mode's share of the GPUs and says it.
func (f *settingsForm) setGPUShare(sh gpuShare) {
	f.gpuShare = sh
	f.refreshGPULine()
}

// refreshGPULine names the GPUs a GPU run uses (hidden for CPU engines or no known GPU).
func (f *settingsForm) refreshGPULine() {
	d := f.gpuDemand()
	text := Drawable(Host.gpuLine(d.e, d.text, f.gpuShare))
	was := f.gpuLine.Visible()
	if f.gpuLine.Text != text {
		f.gpuLine.SetText(text)
	}
	showIf(f.gpuLine, text != "")
	if was != f.gpuLine.Visible() && f.box != nil {
		f.box.Refresh()
	}
}

// SetSharedBudget hides the time limit while a budget set elsewhere stands for it.
func (f *settingsForm) SetSharedBudget(on bool) {
	f.shared = on
	f.rebuildFields()
}

// SetInstance recomputes the fields' defaults and ranges for in (the pane's instance; nil: none).
func (f *settingsForm) SetInstance(in *solver.Instance) {
	f.in = in
	f.rebuildFields()
	f.route.refresh()
}

// refreshBackend moves to a backend that runs here, says why the GPU cannot, rebuilds the fields.
func (f *settingsForm) refreshBackend() {
	algo, _ := f.algorithm.Get()
	cur, _ := f.backend.Get()
	gerr, cerr := GPUStatus(algo), backendStatus(algo, solver.BackendCPU)
	switch {
	case gerr != nil && cur == solver.BackendGPU:
		cur = solver.BackendAuto
	case cerr != nil && cur == solver.BackendCPU && gerr == nil:
		cur = solver.BackendGPU
	case !slices.Contains(backends, cur):
		cur = solver.BackendAuto
	}
	if b, _ := f.backend.Get(); b != cur {
		_ = f.backend.Set(cur)
	}
	f.refreshBackendButtons()
	note := ""
	switch {
	case gerr != nil && cerr == nil:
		note = gpuAbsentNote(algo, cur, gerr)
	case cerr != nil && gerr == nil:
		note = "GPU only: " + cerr.Error()
	}
	f.picker.SetNote(note)
	shown := ""
	if gerr != nil && strings.Contains(note, gerr.Error()) {
		shown = gerr.Error()
	}
	text := Drawable(unavailableText(f.unavail, shown))
	if f.unavailable.Text != text {
		f.unavailable.SetText(text)
	}
	showIf(f.unavailable, text != "")
	e := f.engine()
	desc := engineHelp(e)
	f.algoHelp.SetText(Drawable(desc))
	f.about.Items[0].Title = "About " + cmp.Or(algoName(e), "the engine")
	f.about.Refresh()
	showIf(f.about, desc != "")
	f.rebuildFields()
	if e != f.shown {
		f.shown = e
		if f.OnEngineChanged != nil {
			f.OnEngineChanged(e)
		}
	}
}

// algoName is e's algorithm ("" for none).
func algoName(e solver.Engine) string {
	if e == nil {
		return ""
	}
	return e.Name()
}

// Picker is the engine choice: algorithm, backend and why the GPU cannot run it.
func (f *settingsForm) Picker() fyne.CanvasObject {
	return f.picker
}

// Fields are the GPU line, the engine's description, its options and the algorithms that cannot run here.
func (f *settingsForm) Fields() fyne.CanvasObject {
	f.box = container.NewVBox(f.gpuLine, f.about, f.route.box, f.fields, f.advanced, f.unavailable)
	return f.box
}

// Settings parses the form; a bad field gives a one-line error with its name and range.
func (f *settingsForm) Settings() (Settings, error) {
	var s Settings
	s.Algorithm, _ = f.algorithm.Get()
	s.Backend, _ = f.backend.Get()
	s.Options = map[string]string{}
	for _, r := range f.rows {
		v, _ := r.value.Get()
		if strings.TrimSpace(v) == "" {
			continue
		}
		if r.entry != nil {
			if err := f.check(r.opt, v); err != nil {
				return s, fmt.Errorf("settings: %w", err)
			}
		}
		s.Options[r.opt.Name] = strings.TrimSpace(v)
	}
	if v, _ := f.timeLimit.Get(); strings.TrimSpace(v) != "" && !f.shared {
		if err := f.checkTime(v); err != nil {
			return s, fmt.Errorf("settings: %w", err)
		}
		s.TimeLimit, _ = seconds.Parse(v)
	}
	if v, _ := f.seed.Get(); strings.TrimSpace(v) != "" {
		if err := checkSeed(v); err != nil {
			return s, fmt.Errorf("settings: %w", err)
		}
		s.Seed, _ = strconv.ParseUint(strings.TrimSpace(v), 10, 64)
	}
	s.Route, s.Ends = f.route.Route(), f.route.Ends()
	if err := f.route.checkEnds(s.Ends); err != nil {
		return s, fmt.Errorf("settings: %w", err)
	}
	// the whole run is checked once, by the pipeline when it starts
	return s, s.Validate()
}

// Set writes s into the form (and so into Preferences).
func (f *settingsForm) Set(s Settings) {
	_ = f.algorithm.Set(s.Algorithm)
	_ = f.backend.Set(s.Backend)
	f.timeField.Set(formatFloat(s.TimeLimit.Seconds()))
	f.seedField.Set(strconv.FormatUint(s.Seed, 10))
	f.route.set(s.Route, s.Ends)
	// Every option the form may show: those of s, the rest back to the default.
	for _, r := range f.rows {
		_ = r.value.Set("")
	}
	for name, v := range s.Options {
		_ = f.bind(name, "").Set(v)
	}
	if slices.Contains(f.picker.algoSelect.Options, s.Algorithm) {
		f.picker.algoSelect.SetSelected(s.Algorithm) // refreshes the backend and the fields (pickAlgorithm)
	} else {
		f.refreshBackend()
	}
}

// SetEnabled enables or disables editing (disabled while running).
func (f *settingsForm) SetEnabled(on bool) {
	if f.enabled == on {
		return
	}
	f.enabled = on
	f.applyEnabled()
	f.refreshBackendButtons()
}

// applyEnabled enables or disables the fields.
func (f *settingsForm) applyEnabled() {
	for _, r := range f.rows {
		if r.entry != nil {
			enable(r.entry, f.enabled)
		} else {
			enable(r.choice, f.enabled)
		}
	}
	enable(f.timeItem, f.enabled)
	enable(f.seedItem, f.enabled)
	f.route.enable(f.enabled)
}

// refreshBackendButtons enables the backends that run here while enabled and marks the chosen.
func (f *settingsForm) refreshBackendButtons() {
	algo, _ := f.algorithm.Get()
	cur, _ := f.backend.Get()
	f.picker.SetChoice(algo, cur, f.enabled)
}

// showIf shows o when on, else hides it.
func showIf(o fyne.CanvasObject, on bool) {
	if on {
		o.Show()
	} else {
		o.Hide()
	}
}

// enable enables w when on, else disables it.
func enable(w fyne.Disableable, on bool) {
	if on {
		w.Enable()
	} else {
		w.Disable()
	}
}
