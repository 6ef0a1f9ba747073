package app

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/data/binding"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/tsplab/tsplab/solver/session"
)

// RunCompare starts both compare panes together with the shared budget.
func (a *App) RunCompare() error {
	budget, err := parsePositive(a.budget, "budget")
	if err != nil {
		return err
	}
	return a.RunCompareFor(time.Duration(budget * float64(time.Second)))
}

// RunCompareFor starts both compare panes together with budget d.
func (a *App) RunCompareFor(d time.Duration) error {
	gap, err := parsePositive(a.targetGap, "target gap")
	if err != nil {
		return err
	}
	for _, p := range []*Pane{a.Left, a.Right} {
		p.Runner.Reset()
		p.targetGap = gap
	}
	var errs []error
	for _, p := range []*Pane{a.Left, a.Right} {
		if err := p.RunFor(d); err != nil {
			errs = append(errs, fmt.Errorf("pane %s: %w", strings.ToUpper(p.Name[:1])+p.Name[1:], err))
		}
	}
	a.updateSummary()
	return errors.Join(errs...)
}

func parsePositive(b binding.String, name string) (float64, error) {
	s, _ := b.Get()
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || v <= 0 || v > 1e7 {
		return 0, fmt.Errorf("compare: %s %q is not a positive number", name, s)
	}
	return v, nil
}

// Summary returns compare mode's summary line.
func (a *App) Summary() string { s, _ := a.summary.Get(); return s }

// updateSummary writes the ratio of moves per second and which pane
// reached the target gap first.
func (a *App) updateSummary() {
	_ = a.summary.Set(CompareSummary(a.Left.Runner.Last(), a.Right.Runner.Last(), a.Left, a.Right))
}

// CompareSummary is the summary line of two runs: their moves per second
// and its ratio, and which reached the target gap first and when.
func CompareSummary(l, r session.Progress, lp, rp *Pane) string {
	name := func(pr session.Progress, def string) string {
		if pr.Engine != "" {
			return pr.Engine
		}
		return def
	}
	ln, rn := "A "+name(l, "?"), "B "+name(r, "?")
	lm, rm := l.MovesPerSecond(), r.MovesPerSecond()
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s moves/s, %s: %s moves/s", ln, FormatCount(lm), rn, FormatCount(rm))
	if lm > 0 && rm > 0 {
		fmt.Fprintf(&b, " (B/A = %.2f×)", rm/lm)
	}
	b.WriteString(". ")
	if lp == nil || rp == nil || lp.in == nil || !lp.in.HasOptimum() {
		b.WriteString("Target gap: optimum unknown.")
		return b.String()
	}
	lt, lok := lp.TargetReached()
	rt, rok := rp.TargetReached()
	gap := lp.targetGap
	switch {
	case lok && (!rok || lt <= rt):
		fmt.Fprintf(&b, "A reached %.2g%% gap first, at %.2f s", gap, lt.Seconds())
		if rok {
			fmt.Fprintf(&b, " (B at %.2f s)", rt.Seconds())
		}
	case rok:
		fmt.Fprintf(&b, "B reached %.2g%% gap first, at %.2f s", gap, rt.Seconds())
		if lok {
			fmt.Fprintf(&b, " (A at %.2f s)", lt.Seconds())
		}
	default:
		fmt.Fprintf(&b, "Neither has reached %.2g%% gap yet", gap)
	}
	b.WriteString(".")
	return b.String()
}

// compareViewObject is compare mode's body: the shared run bar and
// summary above the two panes.
func (a *App) compareViewObject() fyne.CanvasObject {
	budget := widget.NewEntryWithData(a.budget)
	target := widget.NewEntryWithData(a.targetGap)
	runBoth := widget.NewButtonWithIcon("Run both", theme.MediaPlayIcon(), func() {
		if err := a.RunCompare(); err != nil {
			dialog.ShowError(err, a.Win)
		}
	})
	runBoth.Importance = widget.HighImportance
	stopBoth := widget.NewButtonWithIcon("Stop both", theme.MediaStopIcon(), func() { a.Left.Stop(); a.Right.Stop() })
	summary := widget.NewLabelWithData(a.summary)
	summary.Wrapping = fyne.TextWrapWord
	bar := container.NewVBox(
		container.NewHBox(runBoth, stopBoth,
			widget.NewLabel("Budget (s)"), container.NewGridWrap(fyne.NewSize(70, budget.MinSize().Height), budget),
			widget.NewLabel("Target gap (%)"), container.NewGridWrap(fyne.NewSize(70, target.MinSize().Height), target)),
		summary)
	return container.NewBorder(bar, nil, nil, nil,
		container.NewGridWithColumns(2, a.Left.Compact("A"), a.Right.Compact("B")))
}
