package app

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/tsplab/tsplab/canvas"
	"github.com/tsplab/tsplab/canvas/export"
	"github.com/tsplab/tsplab/internal/seconds"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/bound"
	"github.com/tsplab/tsplab/solver/report"
	"github.com/tsplab/tsplab/solver/session"
)

// GapThresholds are the gaps (percent) whose first crossing the compare summary times.
var GapThresholds = []float64{10, 5, 2, 1, 0.5}

// RunCompare starts both compare panes together with the shared budget.
func (a *App) RunCompare() error {
	d, err := a.compareBudget()
	if err != nil {
		return err
	}
	return a.RunCompareFor(d)
}

// compareBudget is the budget control's value: the time limit of both compare panes.
func (a *App) compareBudget() (time.Duration, error) {
	s, _ := a.budget.Get()
	return parseBudget(s)
}

// parseBudget reads compare mode's budget: seconds above 0, at most solver.MaxTimeLimit.
func parseBudget(s string) (time.Duration, error) {
	d, err := seconds.Parse(s)
	if err != nil || d <= 0 || d > solver.MaxTimeLimit {
		return 0, fmt.Errorf("compare: budget %q: want seconds (10) or a duration (1m30s) above 0, at most %s", s, solver.MaxTimeLimitText)
	}
	return d, nil
}

// RunCompareFor starts both compare panes with budget d, the cores shared out (shareCores).
func (a *App) RunCompareFor(d time.Duration) error {
	for _, p := range []*Pane{a.Left, a.Right} {
		p.Runner.Reset()
	}
	a.shareCores(d)
	a.shareGPUs()
	a.compareRun++
	var errs []error
	for _, p := range []*Pane{a.Left, a.Right} {
		if err := p.RunFor(d); err != nil {
			errs = append(errs, fmt.Errorf("pane %s: %w", paneLetter(a, p), err))
		}
	}
	a.updateSummary()
	return errors.Join(errs...)
}

// shareCores gives each compare pane half the cores when both engines take workers: two
// engines fighting for every core both end worse.
func (a *App) shareCores(d time.Duration) {
	a.Left.coreShare = a.coreShare(d)
	a.Right.coreShare = a.Left.coreShare
	a.showCoreShares()
}

// coreShare is each compare pane's cores for budget d: half when both engines take cores, else all (0).
func (a *App) coreShare(d time.Duration) int {
	if a.Left.needsCores(d) && a.Right.needsCores(d) {
		return max(1, runtime.NumCPU()/2)
	}
	return 0
}

// showCoreShares has each compare pane's empty Workers field show the cores its next run gets.
func (a *App) showCoreShares() {
	d, err := a.compareBudget()
	if err != nil {
		return
	}
	share := a.coreShare(d)
	for _, p := range []*Pane{a.Left, a.Right} {
		p.settings.setCoreShare(share)
	}
}

// shareGPUs gives each compare pane GPUs of its own where the host has two or more (GPUHost.shareOut).
func (a *App) shareGPUs() {
	l, r := a.Left.settings, a.Right.settings
	sh := Host.shareOut([2]gpuDemand{l.gpuDemand(), r.gpuDemand()})
	l.setGPUShare(sh[0])
	r.setGPUShare(sh[1])
}

// needsCores reports whether the pane's engine for budget d runs on as many cores as it is given.
func (p *Pane) needsCores(d time.Duration) bool {
	p.mu.Lock()
	s, err := p.runSettings(d)
	p.mu.Unlock()
	if err != nil {
		return false
	}
	choice, err := p.Runner.Choose(s.Params())
	return err == nil && takesWorkers(choice.Engine)
}

func paneLetter(a *App, p *Pane) string {
	if p == a.Right {
		return "B"
	}
	return "A"
}

// linkPanes keeps pane B on pane A's algorithm, so the pair compares backends, and shares lower bounds.
func (a *App) linkPanes() {
	// A bound proven beside one run holds for the other pane's same instance.
	share := func(in *solver.Instance, lb bound.Result) {
		for _, p := range []*Pane{a.Left, a.Right} {
			p.setBound(in, lb)
		}
	}
	a.Left.OnBound, a.Right.OnBound = share, share
	// the two plots on the same axes, so that their heights compare
	canvas.ShareAxes(a.Left.Curve, a.Right.Curve)
	a.Left.settings.OnGPUs, a.Right.settings.OnGPUs = a.shareGPUs, a.shareGPUs
	a.shareGPUs()
	a.Left.settings.OnUserAlgorithm = func(old, algo string) {
		to := a.Right
		if cur, _ := to.settings.algorithm.Get(); cur == old && to.Runner.State() != session.Running {
			s, _ := to.Settings()
			s.Algorithm = algo
			to.SetSettings(s)
		}
	}
}

// summaryLater queues one summary update on the Fyne goroutine from a goroutine of its own (the panes hold their locks).
func (a *App) summaryLater() {
	if a.summaryDue.Swap(true) {
		return
	}
	go uiDo(func() {
		a.summaryDue.Store(false)
		a.updateSummary()
	})
}

// updateSummary writes each pane's gap and time to each threshold, its share of the host, and the seeds' spread.
func (a *App) updateSummary() {
	a.showCoreShares()
	l, r := a.paneSummary(a.Left, "A"), a.paneSummary(a.Right, "B")
	a.recordSeeds(l, r)
	text := CompareSummary(l, r)
	if l.Engine == r.Engine && l.Engine != "" {
		budget, _ := a.budget.Get()
		text += "\n" + a.seeds.line(l, r, budget)
	}
	if s := Drawable(text); s != a.summary.Text {
		a.summary.SetText(s)
	}
}

// PaneSummary is what compare mode's summary says of one pane.
type PaneSummary struct {
	Label   string // "A pspm/cpu"
	Backend string // the backend the pane's engine runs on ("" before a run)
	Best    int64  // 0: no tour yet
	// Instance is the pane's instance, in whose units lengths are shown (nil: integers).
	Instance  *solver.Instance
	Reference int64 // the optimum, or the lower bound (0: neither)
	Bound     bool  // Reference is the lower bound
	MovesPerS float64
	Curve     []export.CurvePoint
	// Engine is the pane's engine ("pspm/cpu"), Seed its seed (0: not shown).
	Engine string
	Seed   uint64
	// Ran: the pane's run has started; Cores of TotalCores it had (0: no workers).
	Ran               bool
	Cores, TotalCores int
	// GPUs names the GPUs its run had ("GPU 1"; "": none, or not known).
	GPUs string
	// Done is true once its run ended by itself (time, target, optimum).
	Done bool
	// CPUAlone: the pane's GPU auto run searched on the CPU alone, so no GPU speed-up.
	CPUAlone bool
}

func (a *App) paneSummary(p *Pane, letter string) PaneSummary {
	last := p.Runner.Last()
	name := last.Engine
	if name == "" {
		if s, err := p.Settings(); err == nil {
			name = s.Algorithm + "/" + s.Backend
		}
	}
	backend := ""
	if last.Engine != "" {
		_, backend, _ = strings.Cut(last.Engine, "/")
	}
	ref, isBound := p.Reference()
	ps := PaneSummary{Label: letter + " " + name, Backend: backend, Best: last.BestLength, Instance: p.Instance(), Reference: ref, Bound: isBound,
		MovesPerS: last.MovesPerSecond(), Curve: p.Curve.Points(), Engine: name, TotalCores: runtime.NumCPU()}
	if s, err := p.Settings(); err == nil {
		ps.Seed = s.Seed
	}
	if a := last.Account; a != nil && a.GPU != nil {
		ps.CPUAlone = a.GPU.Alone
	}
	if st := p.Runner.State(); st != session.Idle {
		p.mu.Lock()
		ps.Ran, ps.Cores, ps.GPUs = true, p.cores, p.gpus
		p.mu.Unlock()
		if res, ok := p.Runner.Result(); ok && st == session.Done {
			ps.Seed = res.Params.Seed
			ps.Done = res.StopReason != solver.StopInterrupt && res.StopReason != solver.StopError
		}
	}
	return ps
}

// CoresLine says what each pane had of the host's cores once both have run ("" before).
func CoresLine(l, r PaneSummary) string {
	if !l.Ran || !r.Ran {
		return ""
	}
	if l.Cores > 0 && l.Cores == r.Cores {
		return fmt.Sprintf("Cores shared fairly: each pane had %d of the %s.", l.Cores, report.Plural(l.TotalCores, "core"))
	}
	had := func(s PaneSummary) string {
		switch {
		case s.Cores > 0:
			return fmt.Sprintf("%s had %d of the %s", paneOf(s.Label), s.Cores, report.Plural(s.TotalCores, "core"))
		case s.Backend == solver.BackendGPU:
			return paneOf(s.Label) + " ran on the GPU"
		}
		return paneOf(s.Label) + " ran on one core"
	}
	return "Cores: " + had(l) + "; " + had(r) + "."
}

// GPUsLine says which GPUs each pane's run had once both ran ("": before, or no listed GPU).
func GPUsLine(l, r PaneSummary) string {
	if !l.Ran || !r.Ran {
		return ""
	}
	var had []string
	for _, s := range []PaneSummary{l, r} {
		if s.GPUs != "" {
			had = append(had, paneOf(s.Label)+" ran on "+s.GPUs)
		}
	}
	if len(had) == 0 {
		return ""
	}
	return "GPUs: " + strings.Join(had, "; ") + "."
}

// ThresholdTimes returns when the curve first came within each of GapThresholds above ref (negative: never).
func ThresholdTimes(curve []export.CurvePoint, ref int64) []time.Duration {
	out := make([]time.Duration, len(GapThresholds))
	for i, thr := range GapThresholds {
		out[i] = -1
		for _, pt := range curve {
			if g, ok := solver.GapPercent(pt.Best, ref); ok && g <= thr {
				out[i] = pt.Elapsed
				break
			}
		}
	}
	return out
}

// line is one pane's summary line: its final gap and the time to each threshold.
func (s PaneSummary) line() string {
	var b strings.Builder
	b.WriteString(s.Label)
	if s.Seed > 0 {
		fmt.Fprintf(&b, " (seed %d)", s.Seed)
	}
	b.WriteString(": ")
	switch {
	case s.Best == 0:
		b.WriteString("no tour yet")
		return b.String()
	case s.Reference == 0:
		fmt.Fprintf(&b, "best %s, gap unknown (no optimum; lower bound not ready)", s.Instance.HumanLength(s.Best))
	default:
		g, _ := solver.GapPercent(s.Best, s.Reference)
		what := "above the optimum"
		if s.Bound {
			what = "above the lower bound"
		}
		fmt.Fprintf(&b, "best %s, %.2f %% %s", s.Instance.HumanLength(s.Best), g, what)
		var parts []string
		for i, t := range ThresholdTimes(s.Curve, s.Reference) {
			if t < 0 {
				parts = append(parts, fmt.Sprintf("%g %% –", GapThresholds[i]))
			} else {
				parts = append(parts, fmt.Sprintf("%g %% at %.2f s", GapThresholds[i], t.Seconds()))
			}
		}
		b.WriteString("; " + strings.Join(parts, ", "))
	}
	if s.MovesPerS > 0 {
		fmt.Fprintf(&b, "; %s moves/s", FormatCount(s.MovesPerS))
	}
	return b.String()
}

// CompareSummary is compare mode's summary: each pane's gap and times to GapThresholds, then the GPU's speed-up.
func CompareSummary(l, r PaneSummary) string {
	if l.Best == 0 && r.Best == 0 {
		return "Run both to compare: same instance, same time budget, the cores shared out when both engines need them.\n" +
			l.Label + " against " + r.Label + "."
	}
	s := l.line() + "\n" + r.line()
	if c := CoresLine(l, r); c != "" {
		s += "\n" + c
	}
	if g := GPUsLine(l, r); g != "" {
		s += "\n" + g
	}
	if su := SpeedUp(l, r); su != "" {
		s += "\n" + su
	}
	return s
}

// SpeedUp is the GPU pane's moves per second and times to each threshold as multiples
// of the CPU pane's ("" before both have a tour).
func SpeedUp(l, r PaneSummary) string {
	if l.Best == 0 || r.Best == 0 {
		return ""
	}
	g, c := r, l
	if l.Backend == solver.BackendGPU && r.Backend != solver.BackendGPU {
		g, c = l, r
	}
	switch {
	case g.Backend != solver.BackendGPU && c.Backend != solver.BackendGPU:
		return "No speed-up to give: neither pane ran on a GPU."
	case c.Backend != solver.BackendCPU:
		return ""
	case g.CPUAlone:
		return fmt.Sprintf("No GPU speed-up to give: %s's search ran on the CPU alone (the GPU only made its candidate lists).", paneOf(g.Label))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "GPU speed-up (%s over %s): ", paneOf(g.Label), paneOf(c.Label))
	if g.MovesPerS > 0 && c.MovesPerS > 0 {
		fmt.Fprintf(&b, "%s moves/s", formatRatio(g.MovesPerS/c.MovesPerS))
	} else {
		b.WriteString("moves/s unknown")
	}
	if g.Reference == 0 || g.Reference != c.Reference {
		return b.String()
	}
	gt, ct := ThresholdTimes(g.Curve, g.Reference), ThresholdTimes(c.Curve, c.Reference)
	var parts []string
	for i, thr := range GapThresholds {
		parts = append(parts, fmt.Sprintf("%g %%: %s", thr, timeRatio(gt[i], ct[i], paneOf(g.Label), paneOf(c.Label))))
	}
	b.WriteString("; sooner within " + strings.Join(parts, ", "))
	return b.String()
}

// paneOf is the pane letter that starts a summary label ("A pspm/cpu": "A").
func paneOf(label string) string {
	letter, _, _ := strings.Cut(label, " ")
	return letter
}

// timeRatio is how many times sooner the GPU pane reached a threshold, or which pane alone did.
func timeRatio(gpu, cpu time.Duration, g, c string) string {
	switch {
	case gpu < 0 && cpu < 0:
		return "neither"
	case cpu < 0:
		return g + " only"
	case gpu < 0:
		return c + " only"
	case gpu == 0:
		return g + " at 0 s"
	}
	return formatRatio(float64(cpu) / float64(gpu))
}

// formatRatio writes a speed-up: "0.45×", "3.2×", "6700×".
func formatRatio(x float64) string {
	switch {
	case x < 1:
		return fmt.Sprintf("%.2g×", x)
	case x < 10:
		return fmt.Sprintf("%.1f×", x)
	}
	return fmt.Sprintf("%.0f×", x)
}

// compareViewObject is compare mode's body: the shared run bar and summary above the two panes.
func (a *App) compareViewObject() fyne.CanvasObject {
	budget := a.budgetField.entry
	runBoth := widget.NewButtonWithIcon("Run both", theme.MediaPlayIcon(), func() {
		if err := a.RunCompare(); err != nil {
			showErrorDialog(err, a.Win)
		}
	})
	runBoth.Importance = widget.HighImportance
	a.runBoth = runBoth
	// Run both waits for a budget it can run with.
	a.budgetField.OnChanged = func(_ string, err error) { enable(runBoth, err == nil) }
	stopBoth := widget.NewButtonWithIcon("Stop both", theme.MediaStopIcon(), func() { a.Left.Stop(); a.Right.Stop() })
	swap := widget.NewButtonWithIcon("Swap seeds", theme.ViewRefreshIcon(), func() {
		if err := a.SwapSeeds(); err != nil {
			showErrorDialog(err, a.Win)
		}
	})
	bar := container.NewVBox(
		container.NewHBox(runBoth, stopBoth, swap,
			widget.NewLabel("Time budget of each pane (s)"), container.NewGridWrap(fyne.NewSize(90, budget.MinSize().Height), budget)),
		a.summary)
	return container.NewBorder(bar, nil, nil, nil,
		container.NewGridWithColumns(2, a.Left.Compact("A"), a.Right.Compact("B")))
}
