package app

import (
	"fmt"
	"math"
	"runtime"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/tsplab/tsplab/canvas"
	"github.com/tsplab/tsplab/canvas/export"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/bound"
	"github.com/tsplab/tsplab/solver/session"
)

// Pane is one run's view: its canvas, numbers, progress bar, convergence
// plot, buttons and settings. The single view has one; compare mode two.
type Pane struct {
	Name     string // "single", "left", "right": the Preferences prefix
	Runner   *session.Runner
	View     *canvas.TourView
	Curve    *canvas.Curve
	settings *settingsForm
	win      fyne.Window

	mu sync.Mutex // serialises UI changes: the test driver runs them off the Fyne goroutine

	in      *solver.Instance
	optimal []int
	tour    []int
	best    []int

	numbers map[string]*widget.Label
	status  *widget.Label
	bar     *fractionBar

	runBtn, pauseBtn, stepBtn, stopBtn, resetBtn, fitBtn *widget.Button

	tempRow       []fyne.CanvasObject // the Temperature row: shown for an annealer only
	failed        bool                // the status line shows a refused run's error
	schedule      *secondaryLabel     // the schedule the last run ran, once it ended
	settingsPanel fyne.CanvasObject   // the settings as laid out in the pane

	budget func() (time.Duration, error) // when set, every run's time limit (compare mode)
	bound  paneBound                     // the lower bound when the optimum is unknown
	// OnUpdate, if set, is called on the Fyne goroutine after each update.
	OnUpdate func(*Pane, session.Progress)
}

// FrameInterval is the least time between two updates of a running pane,
// BusyFrameInterval while its engine takes every core: each update
// repaints the window, which under software OpenGL costs the engine's
// cores (docs/DECISIONS.md#frame-interval).
const (
	FrameInterval     = 250 * time.Millisecond
	BusyFrameInterval = time.Second
)

// frameInterval is the update interval of a run of engine e with params,
// the rate the pane reads a run at (the Runner's Rate): BusyFrameInterval
// when e runs a goroutine on every core.
func frameInterval(e solver.Engine, params solver.Params) time.Duration {
	if _, ok := solver.OptionsFor(e.Name(), e.Backend()).Lookup("workers"); ok && (params.Workers <= 0 || params.Workers >= runtime.NumCPU()) {
		return BusyFrameInterval
	}
	return FrameInterval
}

// uiDo runs f on the Fyne goroutine. Tests replace it with a queue that
// the test goroutine drains, as the real driver's event loop would.
var uiDo = fyne.Do

// The live numbers, in display order.
var numberKeys = []string{"Length", "Best", "Gap", "Temperature", "Moves", "Moves/s", "Elapsed"}

// NewPane builds a pane whose settings persist under name in prefs.
func NewPane(name string, prefs fyne.Preferences, def Settings, win fyne.Window) *Pane {
	p := &Pane{Name: name, Runner: session.NewRunner(), View: canvas.NewTourView(), Curve: canvas.NewCurve(), win: win}
	p.settings = newSettingsForm(prefs, name+".", def)
	p.settings.OnEngineChanged = p.engineChanged
	p.status = widget.NewLabel("no instance")
	p.status.Wrapping = fyne.TextWrapWord
	p.schedule = newSecondaryLabel("", true)
	p.schedule.Hide()
	p.bar = newFractionBar()
	p.numbers = map[string]*widget.Label{}
	for _, k := range numberKeys {
		p.numbers[k] = widget.NewLabel("–")
		p.numbers[k].Truncation = fyne.TextTruncateEllipsis
	}
	p.Runner.OnUpdate = func(pr session.Progress) { uiDo(func() { p.apply(pr) }) }
	p.Runner.Rate = frameInterval
	p.Runner.OnBound = func(in *solver.Instance, lb bound.Result) { uiDo(func() { p.setBound(in, lb.Bound) }) }
	p.runBtn = widget.NewButtonWithIcon("Run", theme.MediaPlayIcon(), p.Run)
	p.runBtn.Importance = widget.HighImportance
	p.pauseBtn = widget.NewButtonWithIcon("Pause", theme.MediaPauseIcon(), p.Pause)
	p.stepBtn = widget.NewButtonWithIcon("Step", theme.MediaSkipNextIcon(), p.Step)
	p.stopBtn = widget.NewButtonWithIcon("Stop", theme.MediaStopIcon(), p.Stop)
	p.resetBtn = widget.NewButtonWithIcon("Reset", theme.MediaReplayIcon(), p.Reset)
	p.fitBtn = widget.NewButtonWithIcon("Fit", theme.ZoomFitIcon(), p.View.Fit)
	p.refreshButtons()
	return p
}

// Instance returns the instance the pane shows.
func (p *Pane) Instance() *solver.Instance { return p.in }

// SetInstance shows in (with its optimal tour, if known) and resets any run.
func (p *Pane) SetInstance(in *solver.Instance, optimal []int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.Runner.Reset()
	p.in, p.optimal = in, optimal
	p.settings.SetInstance(in)
	p.resetBound()
	p.clear()
	p.setStatus("ready")
	p.refreshButtons()
}

// clear forgets the run's tours, numbers and curve.
func (p *Pane) clear() {
	p.tour, p.best = nil, nil
	p.View.SetScene(export.SceneFor(p.in, nil, nil, p.optimal))
	p.Curve.Reset()
	if p.in != nil {
		p.Curve.SetOptimum(p.in.Optimum)
		if lb := p.bound.value; lb > 0 && !p.in.HasOptimum() {
			p.Curve.SetOptimum(lb) // the proven lower bound as the line
		}
	}
	p.bar.Set(0, false)
	for _, k := range numberKeys {
		p.setNumber(k, "–")
	}
	p.schedule.SetText("")
	p.schedule.Hide()
	if p.in != nil && p.in.HasOptimum() {
		p.setNumber("Gap", fmt.Sprintf("optimum %d", p.in.Optimum))
	} else if p.bound.value > 0 {
		p.setNumber("Gap", fmt.Sprintf("lower bound %d", p.bound.value))
	}
}

// choose sets the pane's algorithm and backend where they are not empty.
func (p *Pane) choose(algo, backend string) {
	if algo == "" && backend == "" {
		return
	}
	s, _ := p.Settings()
	if algo != "" {
		s.Algorithm = algo
	}
	if backend != "" {
		s.Backend = backend
	}
	p.SetSettings(s)
}

// Settings returns the pane's parsed settings.
func (p *Pane) Settings() (Settings, error) { return p.settings.Settings() }

// SetSettings replaces the pane's settings.
func (p *Pane) SetSettings(s Settings) { p.settings.Set(s) }

func (p *Pane) setStatus(s string) {
	if p.status.Text != s {
		p.status.SetText(s)
	}
}

func (p *Pane) showError(err error) {
	if p.win != nil {
		dialog.ShowError(err, p.win)
	}
	p.setStatus(err.Error())
	p.failed = true
}

// engineChanged follows the form's engine: the Temperature row shows for
// an annealer only, and a refused run's error goes.
func (p *Pane) engineChanged(e solver.Engine) {
	anneals := false
	if e != nil {
		anneals = hasSchedule(solver.OptionsFor(e.Name(), e.Backend()))
		if !solver.HasOptionTable(e.Name(), e.Backend()) {
			anneals = true // an engine the table does not list takes every field
		}
	}
	for _, o := range p.tempRow {
		showIf(o, anneals)
	}
	if st := p.Runner.State(); p.failed && st != session.Running && st != session.Paused {
		p.failed = false
		if p.in != nil {
			p.setStatus("ready")
		} else {
			p.setStatus("no instance")
		}
	}
}

// Run starts a run, or resumes a paused one.
func (p *Pane) Run() {
	if err := p.run(false, 0); err != nil {
		p.showError(err)
	}
}

// RunFor starts a run with the time limit budget (0: the settings' own), which the form then shows.
func (p *Pane) RunFor(budget time.Duration) error {
	if budget > 0 && p.budget == nil {
		_ = p.settings.timeLimit.Set(formatFloat(budget.Seconds()))
	}
	return p.run(false, budget)
}

func (p *Pane) run(step bool, budget time.Duration) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch p.Runner.State() {
	case session.Running:
		return nil
	case session.Paused:
		var err error
		if step {
			err = p.Runner.Step()
		} else {
			err = p.Runner.Resume()
		}
		p.refreshButtons()
		return err
	}
	s, err := p.settings.Settings()
	if err != nil {
		return err
	}
	if budget > 0 {
		s.TimeLimit = budget
	}
	if p.in == nil {
		return fmt.Errorf("no instance loaded: pick one in the list or open a file")
	}
	if budget <= 0 && p.budget != nil {
		if budget, err = p.budget(); err != nil {
			return err
		}
		s.TimeLimit = budget
	}
	params := s.Params()
	// The pipeline refuses a bad run before it starts; its updates reach
	// the screen after this call, so the previous run's result is
	// cleared only for a run that started.
	if step {
		err = p.Runner.StepFrom(p.in, params)
	} else {
		err = p.Runner.Start(p.in, params)
	}
	if err != nil {
		if e, _, rerr := solver.Resolve(params.Algorithm, params.Backend); rerr == nil {
			return settingsError(err, e.Backend())
		}
		return err
	}
	p.failed = false
	p.clear()
	p.Curve.SetTimeSpan(s.TimeLimit)
	p.setStatus("running " + p.Runner.Last().Engine)
	p.refreshButtons()
	return nil
}

// Pause pauses the run.
func (p *Pane) Pause() { p.Runner.Pause() }

// Step runs one sync interval (from the start when idle), then pauses.
func (p *Pane) Step() {
	if err := p.run(true, 0); err != nil {
		p.showError(err)
	}
}

// Stop ends the run; the best tour stays on the canvas.
func (p *Pane) Stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.Runner.Stop()
	p.refreshButtons()
}

// Reset forgets the run and shows the bare instance.
func (p *Pane) Reset() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.Runner.Reset()
	p.clear()
	p.setStatus("ready")
	p.refreshButtons()
}

// apply shows an update; it runs on the Fyne goroutine.
func (p *Pane) apply(pr session.Progress) {
	// OnUpdate runs unlocked: it may look at the other pane.
	if p.show(pr) && p.OnUpdate != nil {
		p.OnUpdate(p, pr)
	}
}

// show puts an update on screen; false when the run was reset meanwhile.
func (p *Pane) show(pr session.Progress) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.in == nil || p.Runner.State() == session.Idle && pr.State != session.Idle {
		return false
	}
	if pr.Tour != nil {
		p.tour = pr.Tour
	}
	if pr.Best != nil {
		p.best = pr.Best
	}
	// The title takes the update's length: recomputing it from the tour
	// would cost a pass over every city per update.
	sc := export.Scene{Instance: p.in, Tour: p.tour, Best: p.best, Optimal: p.optimal, Title: export.TitleOf(p.in, pr.BestLength)}
	if pr.State != session.Running {
		// A paused or finished run shows its best tour as the tour, with no tint of recent changes.
		sc.Tour, sc.Best, sc.Done = p.best, nil, true
	} else if sc.Tour == nil {
		sc.Tour = p.best // the first tour is drawn as soon as the engine has one
	}
	p.View.SetScene(sc)
	if pr.BestLength > 0 {
		p.Curve.Add(export.CurvePoint{Elapsed: pr.Elapsed, Best: pr.BestLength})
	}
	p.setNumbers(pr)
	p.showSchedule(pr)
	p.bar.Set(BarFraction(pr))
	p.setStatus(StatusLine(pr))
	p.refreshButtons()
	return true
}

// setNumber shows v as the number k; an unchanged text is not redrawn.
func (p *Pane) setNumber(k, v string) {
	if l := p.numbers[k]; l.Text != v {
		l.SetText(v)
	}
}

func (p *Pane) setNumbers(pr session.Progress) {
	set := p.setNumber
	if pr.Length > 0 {
		set("Length", fmt.Sprint(pr.Length))
	}
	if pr.BestLength > 0 {
		set("Best", fmt.Sprint(pr.BestLength))
		if g, ok := solver.GapPercent(pr.BestLength, p.in.Optimum); ok {
			set("Gap", fmt.Sprintf("%.2f %%", g))
		} else if lb := p.bound.value; lb > 0 {
			set("Gap", boundGap(pr.BestLength, lb))
		} else {
			set("Gap", "optimum unknown")
		}
	}
	if pr.Temperature > 0 {
		set("Temperature", fmt.Sprintf("%.4g (step %d)", pr.Temperature, pr.Steps))
	} else {
		set("Temperature", fmt.Sprintf("– (step %d)", pr.Steps))
	}
	set("Moves", FormatCount(float64(pr.Moves)))
	set("Moves/s", FormatCount(pr.MovesPerSecond()))
	set("Elapsed", fmt.Sprintf("%.1f s", pr.Elapsed.Seconds()))
}

// showSchedule shows the schedule the run ran once it has ended or
// paused (the runner's result), and hides the line otherwise.
func (p *Pane) showSchedule(pr session.Progress) {
	text := ""
	if pr.State != session.Running {
		if res, ok := p.Runner.Result(); ok && res.Schedule != nil {
			text = "Schedule: " + res.Schedule.String()
		}
	}
	p.schedule.SetText(text)
	showIf(p.schedule, text != "")
}

// StatusLine is a pane's status: the state, the engine, the phase while
// running (with its progress when known) and any note, joined by " · ".
func StatusLine(pr session.Progress) string {
	st := pr.State.String()
	if pr.Engine != "" {
		st += " · " + pr.Engine
	}
	if pr.State == session.Running && pr.Phase != "" {
		ph := string(pr.Phase)
		if pr.PhaseProgress >= 0 {
			ph += fmt.Sprintf(" %.0f %%", 100*min(pr.PhaseProgress, 1))
		} else if pr.Phase != solver.PhaseSearch {
			ph += "…"
		}
		st += " · " + ph
	}
	if pr.Note != "" {
		st += " · " + pr.Note
	}
	return st
}

// BarFraction is what a pane's progress bar shows: in a set-up phase its
// progress, or busy when unknown; otherwise the share of the run done.
func BarFraction(pr session.Progress) (fraction float64, busy bool) {
	setup := pr.State == session.Running && pr.Phase != "" && pr.Phase != solver.PhaseSearch
	if !setup {
		return pr.Fraction, false
	}
	if pr.PhaseProgress < 0 {
		return pr.Fraction, true
	}
	return min(pr.PhaseProgress, 1), false
}

// FormatCount writes n with a k, M, G or T suffix.
func FormatCount(n float64) string {
	switch a := math.Abs(n); {
	case a >= 1e12:
		return fmt.Sprintf("%.2f T", n/1e12)
	case a >= 1e9:
		return fmt.Sprintf("%.2f G", n/1e9)
	case a >= 1e6:
		return fmt.Sprintf("%.2f M", n/1e6)
	case a >= 1e4:
		return fmt.Sprintf("%.1f k", n/1e3)
	}
	return fmt.Sprintf("%.0f", n)
}

// refreshButtons enables the buttons that make sense in the run's state.
func (p *Pane) refreshButtons() {
	st := p.Runner.State()
	has := p.in != nil
	enable(p.runBtn, has && st != session.Running)
	text := "Run"
	if st == session.Paused {
		text = "Resume"
	}
	if p.runBtn.Text != text {
		p.runBtn.SetText(text)
	}
	enable(p.pauseBtn, st == session.Running)
	enable(p.stepBtn, has && st != session.Running)
	enable(p.stopBtn, st == session.Running || st == session.Paused)
	enable(p.resetBtn, has)
	p.settings.SetEnabled(st != session.Running && st != session.Paused)
}

// Buttons is the row of run controls.
func (p *Pane) Buttons() fyne.CanvasObject {
	return container.NewGridWithColumns(3, p.runBtn, p.pauseBtn, p.stepBtn, p.stopBtn, p.resetBtn, p.fitBtn)
}

// Numbers is the grid of live numbers.
func (p *Pane) Numbers() fyne.CanvasObject {
	var cells []fyne.CanvasObject
	for _, k := range numberKeys {
		name := widget.NewLabel(k)
		name.TextStyle = fyne.TextStyle{Bold: true}
		val := p.numbers[k]
		cells = append(cells, name, val)
		if k == "Temperature" {
			p.tempRow = []fyne.CanvasObject{name, val}
		}
	}
	p.engineChanged(p.settings.shown)
	return container.NewVBox(container.New(layout.NewFormLayout(), cells...), p.schedule)
}

// statusLines is how many lines the status line keeps room for, so that
// the controls below it stay in place as its text changes.
const statusLines = 3

// Progress is the progress bar and the status line, which wraps in room kept for statusLines lines.
func (p *Pane) Progress() fyne.CanvasObject {
	line := fyne.MeasureText("Mg", theme.TextSize(), fyne.TextStyle{}).Height + theme.LineSpacing()
	h := statusLines*line + 2*theme.InnerPadding()
	return container.NewVBox(p.bar, container.New(sizeLayout{minH: h}, p.status))
}

// settingsWidth is the most width the settings form asks for.
const settingsWidth = 400

// Side is the single view's right-hand column: the run controls, numbers
// and plot (on screen down to a 1024×700 window), then the settings.
func (p *Pane) Side() fyne.CanvasObject {
	curve := container.NewGridWrap(fyne.NewSize(330, 150), p.Curve)
	p.settingsPanel = container.NewVBox(p.settings.Picker(), p.settings.Fields())
	return container.NewVScroll(container.NewVBox(
		p.Buttons(), p.Progress(), p.Numbers(), curve, widget.NewSeparator(),
		narrow(p.settingsPanel, settingsWidth)))
}

// Compact is a compare-mode pane: the engine choice and the canvas, then
// the run controls, numbers, plot and the settings folded away.
func (p *Pane) Compact(title string) fyne.CanvasObject {
	head := widget.NewLabel(title)
	head.TextStyle = fyne.TextStyle{Bold: true}
	curve := container.NewGridWrap(fyne.NewSize(300, 120), p.Curve)
	p.settingsPanel = p.settings.Fields()
	settings := widget.NewAccordion(widget.NewAccordionItem("Settings", narrow(p.settingsPanel, settingsWidth)))
	bottom := container.NewVBox(p.Buttons(), p.Progress(), p.Numbers(), curve, settings)
	top := container.NewBorder(container.NewVBox(head, narrow(p.settings.Picker(), settingsWidth)), nil, nil, nil, p.View)
	split := container.NewVSplit(top, container.NewVScroll(bottom))
	split.Offset = 0.62
	return split
}

// Reference is what the pane's gaps are measured against: the known
// optimum, else the lower bound once computed (0: neither).
func (p *Pane) Reference() (ref int64, isBound bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.in == nil {
		return 0, false
	}
	if p.in.HasOptimum() {
		return p.in.Optimum, false
	}
	return p.bound.value, p.bound.value > 0
}
