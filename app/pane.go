package app

import (
	"cmp"
	"fmt"
	"math"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/tsplab/tsplab/canvas"
	"github.com/tsplab/tsplab/canvas/export"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/bound"
	"github.com/tsplab/tsplab/solver/report"
	"github.com/tsplab/tsplab/solver/route"
	"github.com/tsplab/tsplab/solver/session"
)

// Pane is one run's view: canvas, numbers, progress, plot, buttons and settings.
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
	// shownPr is the update on screen, handed to OnUpdate by a later change of the screen.
	shownPr session.Progress
	tour    []int
	best    []int
	// route is the last run's route (nil before any), whose tours are shown as route.Orig's.
	route *route.Route
	start startTour // the tour the next run starts from (Open tour…)
	// sideScroll scrolls the single view's side column (Side)
	sideScroll *container.Scroll
	// hasStart is start.tour != nil, readable without p.mu
	hasStart atomic.Bool

	controls      *runControls      // the run buttons
	numbers       *runNumbers       // the live numbers and the schedule the last run ran
	status        *runStatus        // the progress bar and the status line
	details       *runDetails       // the run's account, a line a fact, folded
	settingsPanel fyne.CanvasObject // the settings as laid out in the pane
	settingsBtn   *widget.Button    // a compare pane's: opens its settings

	budget func() (time.Duration, error) // when set, every run's time limit (compare mode)
	limit  time.Duration                 // the time limit of the last run started (0: none)
	// coreShare, above 0, is compare mode's fair share of cores for an engine that takes workers.
	coreShare int
	// cores is the cores the last run was given (0: no workers).
	cores int
	// gpus names the last run's GPUs ("GPU 1"; "": none, or not known).
	gpus string
	// fallback is why the backend fell back to the CPU; the form says it, so the status line does not.
	fallback string
	bound    paneBound // the lower bound when the optimum is unknown
	// OnUpdate, if set, is called on the Fyne goroutine after each update.
	OnUpdate func(*Pane, session.Progress)
	// onState, if set, is called after each state change and update (Export follows it).
	onState func()
	// OnBound, if set, is called on the Fyne goroutine with each lower bound the pane's runs prove.
	OnBound func(in *solver.Instance, lb bound.Result)
}

// FrameInterval is the least time between two updates of a running pane, BusyFrameInterval while its engine takes
// every core: a repaint under software OpenGL costs the engine's cores (docs/DECISIONS.md#frame-interval).
const (
	FrameInterval     = 250 * time.Millisecond
	BusyFrameInterval = 400 * time.Millisecond
)

// takesWorkers reports whether engine e runs on as many cores as its workers option gives.
func takesWorkers(e solver.Engine) bool {
	if e == nil {
		return false
	}
	_, ok := solver.OptionsFor(e.Name(), e.Backend()).Lookup("workers")
	return ok
}

// frameInterval is the update interval of a run of e with params: BusyFrameInterval when it takes every core.
func frameInterval(e solver.Engine, params solver.Params) time.Duration {
	if takesWorkers(e) && (params.Workers <= 0 || params.Workers >= runtime.NumCPU()) {
		return BusyFrameInterval
	}
	return FrameInterval
}

// uiDo runs f on the Fyne goroutine; tests replace it with a queue they drain.
var uiDo = fyne.Do

// The live numbers, in display order.
var numberKeys = []string{"Length", "Best", "Gap", "Temperature", "Moves", "Moves/s", "Elapsed"}

// NewPane builds a pane whose settings persist under name in prefs.
func NewPane(name string, prefs fyne.Preferences, def Settings, win fyne.Window) *Pane {
	p := &Pane{Name: name, Runner: session.NewRunner(), View: canvas.NewTourView(), Curve: canvas.NewCurve(), win: win}
	p.settings = newSettingsForm(prefs, name+".", def)
	p.settings.OnEngineChanged = p.engineChanged
	p.status = newRunStatus("no instance")
	p.numbers = newRunNumbers()
	p.details = newRunDetails()
	p.Runner.OnUpdate = func(pr session.Progress) { uiDo(func() { p.apply(pr) }) }
	p.Runner.Rate = frameInterval
	p.Runner.OnBound = func(in *solver.Instance, lb bound.Result) {
		uiDo(func() {
			p.setBound(in, lb)
			if p.OnBound != nil {
				p.OnBound(in, lb)
			}
		})
	}
	p.controls = newRunControls(runActions{run: p.Run, pause: p.Pause, step: p.Step, stop: p.Stop, reset: p.Reset, fit: p.View.Fit})
	p.settings.OnValidity = p.refreshButtons
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
	p.route, p.start = nil, startTour{}
	p.hasStart.Store(false)
	p.settings.SetInstance(in)
	p.resetBound()
	p.clear()
	p.setStatus("ready")
	p.refreshButtons()
}

// clear forgets the run's tours, numbers and curve.
func (p *Pane) clear() {
	p.tour, p.best, p.shownPr = nil, nil, session.Progress{}
	p.View.SetScene(p.idleScene())
	p.Curve.Reset()
	if p.in != nil {
		p.Curve.SetFormat(p.in.HumanLength)
		p.Curve.SetOptimum(p.shown().Optimum)
		if lb := p.bound.value; lb > 0 && !p.in.HasOptimum() && !p.isPath() {
			p.Curve.SetBound(lb) // the proven lower bound as the line
		}
	}
	p.status.bar.Set(0, false)
	p.status.bar.SetText("")
	p.details.SetLines(nil)
	p.numbers.Clear()
	if p.isPath() {
		p.setNumber("Gap", "optimum unknown (a path's)")
	} else if p.in != nil && p.in.HasOptimum() {
		p.setNumber("Gap", "optimum "+p.in.HumanLength(p.in.Optimum))
	} else if p.bound.value > 0 {
		p.setNumber("Gap", p.boundLine())
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

func (p *Pane) setStatus(s string) { p.status.SetText(s) }

func (p *Pane) showError(err error) {
	if p.win != nil {
		showErrorDialog(err, p.win)
	}
	p.status.Fail(err)
}

// engineChanged follows the form's engine: Temperature shows for an annealer, a refusal's error goes.
func (p *Pane) engineChanged(e solver.Engine) {
	anneals := false
	if e != nil {
		anneals = hasSchedule(solver.OptionsFor(e.Name(), e.Backend()))
		if !solver.HasOptionTable(e.Name(), e.Backend()) {
			anneals = true // an engine the table does not list takes every field
		}
	}
	p.numbers.SetAnneals(anneals)
	if p.onState != nil {
		p.onState() // the compare summary names the engine
	}
	if st := p.Runner.State(); p.status.failed && st != session.Running && st != session.Paused {
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

// RunFor starts a run with time limit budget (0: the settings'), shown in the form but not saved.
func (p *Pane) RunFor(budget time.Duration) error {
	if budget > 0 && p.budget == nil {
		p.settings.ShowTimeLimit(budget)
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
	s, err := p.runSettings(budget)
	if err != nil {
		return err
	}
	params := s.Params()
	// The runner's engine, for the route: a path between fixed ends needs one that keeps them.
	choice, _ := p.Runner.Choose(params)
	params, cores := p.withCores(choice.Engine, params)
	params, gpus := p.withGPUs(choice.Engine, params)
	rt, err := s.NewRoute(p.in, choice.Engine)
	if err != nil {
		return err
	}
	params.Start = rt.Start(p.start.tour)
	// The previous run's result is cleared only once the pipeline has accepted the run.
	if step {
		err = p.Runner.StepFrom(rt.In, params)
	} else {
		err = p.Runner.Start(rt.In, params)
	}
	if err != nil {
		if choice.Engine != nil {
			return settingsError(err, choice.Engine.Backend())
		}
		return err
	}
	p.status.failed = false
	p.cores, p.gpus = cores, gpus
	_, p.fallback = p.Runner.Engine()
	p.route = rt
	p.clear()
	p.Curve.SetTimeSpan(s.TimeLimit)
	p.limit = s.TimeLimit
	p.setStatus("running " + p.Runner.Last().Engine)
	p.refreshButtons()
	return nil
}

// withCores is params with compare mode's core share for engine e, and the cores the run has (0: no workers).
func (p *Pane) withCores(e solver.Engine, params solver.Params) (solver.Params, int) {
	if !takesWorkers(e) {
		return params, 0
	}
	cores := runtime.NumCPU()
	if params.Workers > 0 {
		cores = params.Workers
	}
	if p.coreShare > 0 && cores > p.coreShare {
		cores = p.coreShare
	}
	if cores < runtime.NumCPU() {
		params.Workers = cores
	}
	return params, cores
}

// withGPUs is params with compare mode's GPU share for GPU engine e, and the GPUs the run uses ("" where not known).
func (p *Pane) withGPUs(e solver.Engine, params solver.Params) (solver.Params, string) {
	if e == nil || e.Backend() != solver.BackendGPU {
		return params, ""
	}
	if sel := p.settings.gpuShare.sel; sel != nil && !params.Given(optGPUs) {
		params = params.WithExtra(optGPUs, gpusText(sel))
	}
	if !Host.known() || Host.None != nil {
		return params, ""
	}
	sel, err := Host.devices(e, params.Text(optGPUs))
	if err != nil || len(sel) == 0 {
		return params, ""
	}
	return params, gpuNumbers(sel)
}

// runSettings is a new run's settings with its limit: budget, else compare mode's, else the form's.
func (p *Pane) runSettings(budget time.Duration) (Settings, error) {
	s, err := p.settings.Settings()
	if err != nil {
		return s, err
	}
	if p.in == nil {
		return s, fmt.Errorf("no instance loaded: pick one in the list or open a file")
	}
	if budget <= 0 && p.budget != nil {
		if budget, err = p.budget(); err != nil {
			return s, err
		}
	}
	if budget > 0 {
		s.TimeLimit = budget
	}
	return s, nil
}

// Pause pauses the run.
func (p *Pane) Pause() { p.Runner.Pause() }

// Step runs one sync interval (from the start when idle), then pauses.
func (p *Pane) Step() {
	if err := p.run(true, 0); err != nil {
		p.showError(err)
	}
}

// Stop ends the run, the best tour kept on the canvas; a paused run ends without an update.
func (p *Pane) Stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	paused := p.Runner.State() == session.Paused
	p.Runner.Stop()
	if paused {
		p.setStatus(StatusLine(p.Runner.Last(), solver.StopInterrupt))
	}
	p.refreshButtons()
}

// Reset forgets the run and shows the bare instance.
func (p *Pane) Reset() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.Runner.Reset()
	p.route = nil
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
	p.shownPr = pr
	pr = p.onRoute(pr)
	if pr.Tour != nil {
		p.tour = pr.Tour
	}
	if pr.Best != nil {
		p.best = pr.Best
	}
	// The title comes from the update's best length: recomputing it from the tour costs a pass over every city.
	best := solver.Result{Length: pr.BestLength}
	if p.route != nil {
		best.Account.Route = p.route.Account()
	}
	title := report.New(p.shown(), best).Title(p.shown())
	var rec *report.Report
	var recIn *solver.Instance
	if pr.State != session.Running {
		// what the pane says of a paused or finished run is its record's
		if r, in, err := p.recordLocked(true); err == nil {
			rec, recIn, title = &r, in, r.Title(in)
		}
	}
	p.View.SetScene(p.sceneOf(pr, title))
	p.addToCurve(pr)
	p.setNumbers(pr)
	if rec != nil {
		p.showRecord(*rec, recIn)
	}
	p.showSchedule(pr)
	why := p.stopReason(pr.State)
	// The bar never goes back within a run (p.limit: the run's own).
	f, text := BarFraction(pr, why, p.limit)
	p.status.bar.Set(max(f, p.status.bar.Value()), false)
	p.status.bar.SetText(text)
	if pr.Note == p.fallback {
		pr.Note = ""
	}
	if rec != nil {
		// the record's account: a path's, without the closing edge
		acc := rec.Account
		pr.Account = &acc
	}
	p.setStatus(StatusLine(pr, why))
	p.details.SetLines(DetailLines(p.in, pr))
	p.refreshButtons()
	return true
}

// DetailLines are the details expander's lines of a run on in: its note, then its account a fact a line.
func DetailLines(in *solver.Instance, pr session.Progress) []string {
	var out []string
	if n := strings.TrimSpace(pr.Note); n != "" {
		out = append(out, n)
	}
	if pr.Account != nil && in != nil {
		out = append(out, report.Lines(in, *pr.Account)...)
	}
	return out
}

// setNumber shows v as the number k.
func (p *Pane) setNumber(k, v string) { p.numbers.Set(k, v) }

func (p *Pane) setNumbers(pr session.Progress) {
	set := p.setNumber
	length := pr.Length
	if pr.State != session.Running && pr.BestLength > 0 {
		// A paused or finished run draws its best tour.
		length = pr.BestLength
	}
	p.setLengths(length, pr.BestLength)
	if pr.Temperature > 0 {
		// in the file's units, as t0, tend and tsp solve's schedule
		t := solver.TempInFileUnits(p.runInstance(), pr.Temperature)
		set("Temperature", fmt.Sprintf("%.4g (step %d)", t, pr.Steps))
	} else {
		set("Temperature", fmt.Sprintf("– (step %d)", pr.Steps))
	}
	set("Moves", FormatCount(float64(pr.Moves)))
	set("Moves/s", FormatCount(pr.MovesPerSecond()))
	set("Elapsed", fmt.Sprintf("%.1f s", pr.Elapsed.Seconds()))
}

// runInstance is the instance the engine runs on: the route's, else the one shown.
func (p *Pane) runInstance() *solver.Instance {
	if p.route != nil {
		return p.route.In
	}
	return p.in
}

// otherOptimal reports whether the best (or start) tour, of length best, is optimal but not the pane's optimal tour.
func (p *Pane) otherOptimal(best int64) bool {
	in, t := p.shown(), p.best
	if t == nil && !p.start.path {
		t = p.start.tour
	}
	if best <= 0 || !in.HasOptimum() || best != in.Optimum || t == nil || len(p.optimal) != len(t) {
		return false
	}
	return !solver.SameCycle(t, p.optimal)
}

// setLengths shows the drawn and best tours' lengths (0: unknown) and the gap while a run goes on or before one.
func (p *Pane) setLengths(length, best int64) {
	set := p.setNumber
	if length > 0 {
		set("Length", p.in.HumanLength(length))
	}
	if best <= 0 {
		return
	}
	set("Best", p.in.HumanLength(best))
	lb := p.bound.value
	if p.isPath() {
		lb = 0 // a tour's bound is no path's
	}
	// the run record's rule (report.GapOf)
	g, above := report.GapOf(p.shown(), best, lb)
	set("Gap", p.gapWords(best, g, above, lb))
}

// sceneOf is what the canvas draws of pr under title; p.mu is held.
func (p *Pane) sceneOf(pr session.Progress, title string) export.Scene {
	sc := export.Scene{Instance: p.in, Tour: p.tour, Best: p.best, Optimal: p.optimal, Title: title}
	if p.isPath() {
		sc.Optimal, sc.Path = nil, true
	}
	if in := p.shown(); in.HasOptimum() && pr.BestLength > 0 && pr.BestLength == in.Optimum {
		// as short as the optimal tour: nothing to draw as a difference
		sc.Optimal = nil
	}
	if pr.State != session.Running {
		// A paused or finished run shows its best tour as the tour, with no tint of recent changes.
		sc.Tour, sc.Best, sc.Done = p.best, nil, true
	} else if sc.Tour == nil {
		sc.Tour = p.best // the first tour is drawn as soon as the engine has one
	}
	return sc
}

// addToCurve adds pr's best length to the plot when found, then at now.
func (p *Pane) addToCurve(pr session.Progress) {
	if pr.BestLength <= 0 {
		return
	}
	if pr.Best != nil && pr.BestElapsed < pr.Elapsed {
		p.Curve.Add(export.CurvePoint{Elapsed: pr.BestElapsed, Best: pr.BestLength})
	}
	p.Curve.Add(export.CurvePoint{Elapsed: pr.Elapsed, Best: pr.BestLength})
}

// showRecord shows rep, the record of a paused or finished run on in, as the CLI's summary says it (p.mu held).
func (p *Pane) showRecord(rep report.Report, in *solver.Instance) {
	set := p.setNumber
	set("Length", in.HumanLength(rep.LengthScaled))
	set("Best", in.HumanLength(rep.LengthScaled))
	g, lb := 0.0, int64(0)
	if rep.GapPercent != nil {
		g = *rep.GapPercent
	}
	if rep.LowerBoundScaled != nil {
		lb = *rep.LowerBoundScaled
	}
	set("Gap", p.gapWords(rep.LengthScaled, g, rep.GapAbove, lb))
	set("Moves", FormatCount(float64(rep.MovesEvaluated)))
	set("Moves/s", FormatCount(rep.MovesPerSecond))
	set("Elapsed", fmt.Sprintf("%.1f s", rep.ElapsedSeconds))
}

// gapWords is the Gap field of a best tour of length best, g above what above names (lb the lower bound).
func (p *Pane) gapWords(best int64, g float64, above string, lb int64) string {
	switch above {
	case "optimum":
		v := fmt.Sprintf("%.2f %%", g)
		if p.otherOptimal(best) {
			v += " (another optimal tour)"
		}
		return v
	case "lower_bound":
		return p.gapOverBound(best, lb)
	}
	return "optimum unknown"
}

// showSchedule shows the schedule a paused or ended run ran, else hides the line.
func (p *Pane) showSchedule(pr session.Progress) {
	text := ""
	if pr.State != session.Running {
		if res, ok := p.Runner.Result(); ok && res.Schedule != nil {
			text = "Schedule: " + res.Schedule.InFileUnits(p.runInstance()).String()
		}
	}
	p.numbers.SetSchedule(text)
}

// stopReason is why the pane's run ended when st is session.Done ("" otherwise or when unknown).
func (p *Pane) stopReason(st session.RunState) solver.StopReason {
	if st != session.Done {
		return ""
	}
	if res, ok := p.Runner.Result(); ok {
		return res.StopReason
	}
	return ""
}

// StatusLine is a pane's status: the state or why the run ended, the engine, what it
// is doing or did, and any note, joined by " · ".
func StatusLine(pr session.Progress, why solver.StopReason) string {
	st := pr.State.String()
	if pr.State == session.Done {
		st = endWord(why)
	}
	if pr.Engine != "" {
		st += " · " + pr.Engine
	}
	if pr.State == session.Running && pr.Phase != "" {
		ph := cmp.Or(report.Status(pr.Phase, pr.Account), "searching")
		if pr.PhaseProgress >= 0 {
			ph += fmt.Sprintf(" %.0f %%", 100*min(pr.PhaseProgress, 1))
		} else if pr.Phase != solver.PhaseSearch {
			ph += "…"
		}
		st += " · " + ph
	}
	if pr.State != session.Running && pr.Account != nil {
		if s := report.Summary(*pr.Account); s != "" {
			st += " · " + s
		}
	}
	if pr.Note != "" {
		st += " · " + pr.Note
	}
	return st
}

// endWord is the status's first word for a run that ended for why.
func endWord(why solver.StopReason) string {
	switch why {
	case solver.StopOptimum:
		return "optimum found"
	case solver.StopTarget:
		return "target reached"
	case solver.StopInterrupt:
		return "stopped"
	case solver.StopError:
		return "failed"
	}
	return "done"
}

// BarFraction is the progress bar's fraction and text: the share of the time limit elapsed, or without one of the schedule done;
// a run that ended by itself shows it full. A phase's progress stays out of the bar, which would go back.
func BarFraction(pr session.Progress, why solver.StopReason, limit time.Duration) (fraction float64, text string) {
	fraction = pr.Fraction
	if limit > 0 {
		fraction = float64(pr.Elapsed) / float64(limit)
	}
	if pr.State == session.Done && why != solver.StopInterrupt && why != solver.StopError {
		fraction = 1
	}
	fraction = min(max(fraction, 0), 1)
	if limit <= 0 {
		return fraction, fmt.Sprintf("%.0f %% of the schedule", 100*fraction)
	}
	el := min(pr.Elapsed, limit)
	if pr.State == session.Done && fraction == 1 {
		el = max(el, pr.Elapsed)
	}
	return fraction, fmt.Sprintf("%s of %s", formatSeconds(el), formatSeconds(limit))
}

// formatSeconds writes d in seconds, a tenth shown below 100 s when not whole ("3.1 s", "90 s").
func formatSeconds(d time.Duration) string {
	s := d.Seconds()
	if s == math.Trunc(s) || s >= 100 {
		return fmt.Sprintf("%.0f s", s)
	}
	return fmt.Sprintf("%.1f s", s)
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
	p.controls.SetState(st, p.in != nil, p.settings.Runnable())
	p.settings.SetEnabled(st != session.Running && st != session.Paused)
	if p.onState != nil {
		p.onState()
	}
}

// Buttons is the block of run controls.
func (p *Pane) Buttons() fyne.CanvasObject { return p.controls }

// Numbers is the form of live numbers and the schedule beneath.
func (p *Pane) Numbers() fyne.CanvasObject {
	p.engineChanged(p.settings.shown)
	return p.numbers
}

// Progress is the progress bar and the status line.
func (p *Pane) Progress() fyne.CanvasObject { return p.status }

// settingsWidth is the most width the settings form asks for.
const settingsWidth = 400

// Side is the single view's right-hand column: run controls, time limit and seed, numbers and plot, then the settings.
func (p *Pane) Side() fyne.CanvasObject {
	curve := container.NewGridWrap(fyne.NewSize(330, 150), p.Curve)
	p.settingsPanel = container.NewVBox(p.settings.Picker(), p.settings.Fields())
	p.sideScroll = container.NewVScroll(clearOfScrollBar(container.NewVBox(
		p.Buttons(), narrow(p.settings.RunRow(), settingsWidth), p.Progress(), p.details, p.Numbers(), curve, widget.NewSeparator(),
		narrow(p.settingsPanel, settingsWidth))))
	return p.sideScroll
}

// numbersShare is the share of a compare pane's width its numbers take, the plot the rest.
const numbersShare = 0.56

// splitLayout puts two objects side by side, share of the width to the first, each at least its least.
type splitLayout struct{ share float32 }

func (l splitLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	pad := theme.Padding()
	w0 := max(objs[0].MinSize().Width, (size.Width-pad)*l.share)
	objs[0].Move(fyne.NewPos(0, 0))
	objs[0].Resize(fyne.NewSize(w0, size.Height))
	objs[1].Move(fyne.NewPos(w0+pad, 0))
	objs[1].Resize(fyne.NewSize(max(size.Width-w0-pad, 0), size.Height))
}

func (l splitLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	a, b := objs[0].MinSize(), objs[1].MinSize()
	return fyne.NewSize(a.Width+theme.Padding()+b.Width, max(a.Height, b.Height))
}

// Compact is a compare-mode pane: the engine choice and a settings button (a dialog),
// the canvas, then every figure without scrolling.
func (p *Pane) Compact(title string) fyne.CanvasObject {
	head := widget.NewLabel(title)
	head.TextStyle = fyne.TextStyle{Bold: true}
	p.settingsPanel = p.settings.Fields()
	fields := container.NewVScroll(clearOfScrollBar(narrow(p.settingsPanel, settingsWidth)))
	p.settingsBtn = widget.NewButtonWithIcon("", theme.SettingsIcon(), func() {
		d := dialog.NewCustom("Settings of pane "+title, "Close", fields, p.win)
		d.Resize(fyne.NewSize(settingsWidth+80, 560))
		d.Show()
	})
	p.status.lines, p.status.fixed = compactStatusLines, true
	p.numbers.compact = true
	p.settings.picker.oneLine = true
	p.settings.picker.Refresh()
	choice := container.NewBorder(nil, nil, head, p.settingsBtn, p.settings.Picker())
	run := container.NewBorder(nil, nil, p.Buttons(), nil, p.Progress())
	figures := container.New(splitLayout{share: numbersShare}, p.Numbers(), p.Curve)
	return container.NewBorder(choice, container.NewVBox(run, figures), nil, nil, p.View)
}

// Reference is what the pane's gaps are against: the optimum, else the computed bound (0: neither).
func (p *Pane) Reference() (ref int64, isBound bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.in == nil || p.isPath() {
		return 0, false // the optimum and the bound are a tour's
	}
	if p.in.HasOptimum() {
		return p.in.Optimum, false
	}
	return p.bound.value, p.bound.value > 0
}
