package app

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/tsplab/tsplab/solver"
)

// TestOptionLabelsArePlainAndFit: every option of every engine this
// program registers (and every option the label table knows) has a label
// in words, not its --opt name, that fits the label column uncut; the
// Workers help speaks of cores, not of the program's goroutines.
func TestOptionLabelsArePlainAndFit(t *testing.T) {
	test.NewTempApp(t)
	check := func(name, backend string) {
		l := OptionLabel(name, backend)
		if l == name || strings.Contains(l, "_") || strings.ToUpper(l[:1]) != l[:1] {
			t.Errorf("option %s on %s: label %q is the raw name", name, backend, l)
		}
		if w := widget.NewLabel(l).MinSize().Width; w > labelWidth {
			t.Errorf("option %s on %s: label %q needs %.0f px, the column has %d: it would be cut", name, backend, l, w, labelWidth)
		}
	}
	seen := 0
	for _, a := range solver.Algorithms() {
		for _, b := range []string{solver.BackendCPU, solver.BackendGPU} {
			for _, o := range solver.OptionsFor(a, b) {
				check(o.Name, b)
				seen++
			}
		}
	}
	for name := range optionLabels {
		check(name, solver.BackendCPU)
		check(name, solver.BackendGPU)
	}
	if seen == 0 {
		t.Fatal("no engine options registered")
	}
	f := newSettingsForm(test.NewTempApp(t).Preferences(), "labels.", Settings{Algorithm: "auto", Backend: solver.BackendCPU, Seed: 1})
	f.SetInstance(grid(100))
	w := row(t, f, "workers")
	if h := w.help.Text; strings.Contains(h, "goroutine") || !strings.Contains(h, "cores") {
		t.Errorf("Workers help %q: want plain words about cores", h)
	}
}

// TestSettingsLabelsUncutOnScreen: in the single pane at 1280×800 the
// label of every field the annealer shows is as wide as its text.
func TestSettingsLabelsUncutOnScreen(t *testing.T) {
	ap, loads := newTestApp(t, Options{Algo: "pspm", Backend: solver.BackendCPU})
	waitLoad(t, loads)
	ap.Win.Resize(fyne.NewSize(1280, 800))
	layoutAgain(ap.Win.Content())
	n := 0
	for _, r := range ap.Single.settings.rows {
		if !r.box.Visible() {
			continue
		}
		n++
		if got, want := r.label.Size().Width, r.label.MinSize().Width; got < want {
			t.Errorf("label %q is %.0f px wide, its text needs %.0f: cut off", r.label.Text, got, want)
		}
	}
	if n == 0 {
		t.Fatal("pspm shows no option fields")
	}
}
