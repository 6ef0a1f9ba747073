package app

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/tsplab/tsplab/solver"
)

// restart builds a second window on a's Preferences, as the app started
// again would, and waits for its first instance.
func restart(t *testing.T, a fyne.App, opts Options) *App {
	t.Helper()
	loads := make(chan error, 16)
	opts.OnLoad = func(_ *solver.Instance, err error) { loads <- err }
	ap := New(a, opts)
	t.Cleanup(func() {
		for _, p := range []*Pane{ap.Single, ap.Left, ap.Right} {
			p.Runner.Reset()
			settle(t, p)
		}
		ap.Win.Close()
	})
	waitLoad(t, loads)
	return ap
}

// retype selects an entry's text and types text over it, as a user does.
func retype(e *widget.Entry, text string) {
	e.TypedShortcut(&fyne.ShortcutSelectAll{})
	test.Type(e, text)
}

// TestInvalidTimeLimitDisablesRunAndIsNotSaved: a time limit the user
// mistypes turns Run and Step off until it is mended and is never saved;
// a saved limit that is not valid reads as the default.
func TestInvalidTimeLimitDisablesRunAndIsNotSaved(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	p, f := ap.Single, ap.Single.settings
	p.SetSettings(fakeSettings(3 * time.Second))
	prefs := ap.FyneApp.Preferences()
	if got := prefs.String("single.time_limit_s"); got != "3" {
		t.Fatalf("saved time limit %q after choosing 3 s", got)
	}
	retype(f.timeItem, "abc")
	if !p.controls.run.Disabled() || !p.controls.step.Disabled() {
		t.Errorf("time limit abc: Run disabled %v, Step disabled %v; want both disabled", p.controls.run.Disabled(), p.controls.step.Disabled())
	}
	if got := prefs.String("single.time_limit_s"); got != "" && got != "3" {
		t.Errorf("time limit abc: saved %q", got)
	}
	// After a restart with abc on screen, the saved 3 s is back.
	if got := restart(t, ap.FyneApp, Options{}).Single.settings.timeItem.Text; got != "3" {
		t.Errorf("after a restart the time limit reads %q, want the last valid 3", got)
	}
	retype(f.timeItem, "4.5")
	if p.controls.run.Disabled() || p.controls.step.Disabled() {
		t.Error("time limit 4.5: Run or Step still disabled")
	}
	if got := prefs.String("single.time_limit_s"); got != "4.5" {
		t.Errorf("time limit 4.5: saved %q", got)
	}
	test.Type(f.seedItem, "x")
	if !p.controls.run.Disabled() {
		t.Error("seed 2x: Run enabled")
	}
	if got := prefs.String("single.seed"); got != "2" {
		t.Errorf("seed 2x: saved %q", got)
	}
	f.seedItem.SetText("2")

	// A value saved by an older version, or edited by hand, that is not
	// valid: the form starts from the default and Run works.
	prefs.SetString("single.time_limit_s", "abc")
	prefs.SetString("single.seed", "-3")
	again := restart(t, ap.FyneApp, Options{})
	g := again.Single.settings
	if g.timeItem.Text != formatFloat(solver.DefaultTimeLimit.Seconds()) || g.seedItem.Text != "1" {
		t.Errorf("saved abc and -3 read back as time limit %q, seed %q; want the defaults", g.timeItem.Text, g.seedItem.Text)
	}
	if g.timeErr.Visible() || again.Single.controls.run.Disabled() {
		t.Errorf("after reading back abc: error shown %v, Run disabled %v", g.timeErr.Visible(), again.Single.controls.run.Disabled())
	}
}

// TestCommandLineBudgetIsShownNotSaved: tsplab --run 150ms runs 150 ms,
// the field says so, and the next start shows the saved limit again;
// the same for compare mode's budget.
func TestCommandLineBudgetIsShownNotSaved(t *testing.T) {
	a := test.NewTempApp(t)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	a.Preferences().SetString("single.algorithm", "fake")
	a.Preferences().SetString("single.backend", solver.BackendCPU)
	a.Preferences().SetString("single.time_limit_s", "20")
	ap := restart(t, a, Options{Run: 150 * time.Millisecond})
	settle(t, ap.Single)
	res, ok := ap.Single.Runner.Result()
	if !ok || res.Params.TimeLimit != 150*time.Millisecond {
		t.Fatalf("the --run run: result %v, time limit %v; want 150ms", ok, res.Params.TimeLimit)
	}
	if got := ap.Single.settings.timeItem.Text; got != "0.15" {
		t.Errorf("the field shows %q during the 150 ms run's session", got)
	}
	if got := a.Preferences().String("single.time_limit_s"); got != "20" {
		t.Errorf("--run 150ms saved the time limit %q, want the user's 20 kept", got)
	}
	if got := restart(t, a, Options{}).Single.settings.timeItem.Text; got != "20" {
		t.Errorf("the next start shows %q, want 20", got)
	}

	for _, k := range []string{"left.", "right."} {
		a.Preferences().SetString(k+"algorithm", "fake")
		a.Preferences().SetString(k+"backend", solver.BackendCPU)
	}
	c := restart(t, a, Options{Compare: true, Run: 120 * time.Millisecond})
	settle(t, c.Left)
	settle(t, c.Right)
	for _, p := range []*Pane{c.Left, c.Right} {
		if res, ok := p.Runner.Result(); !ok || res.Params.TimeLimit != 120*time.Millisecond {
			t.Errorf("pane %s ran %v, want 120ms", p.Name, res.Params.TimeLimit)
		}
	}
	if got := c.budgetField.entry.Text; got != "0.12" {
		t.Errorf("compare --run 120ms: the budget field shows %q", got)
	}
	if got := a.Preferences().String(PrefBudget); got != "" && got != "10" {
		t.Errorf("compare --run 120ms saved the budget %q", got)
	}
	// An invalid budget: Run both waits, nothing is saved.
	retype(c.budgetField.entry, "0")
	if !c.runBoth.Disabled() {
		t.Error("budget 0: Run both enabled")
	}
	if got := a.Preferences().String(PrefBudget); got == "0" {
		t.Error("budget 0 saved")
	}
	test.Type(c.budgetField.entry, ".5")
	if c.runBoth.Disabled() || a.Preferences().String(PrefBudget) != "0.5" {
		t.Errorf("budget 0.5: Run both disabled %v, saved %q", c.runBoth.Disabled(), a.Preferences().String(PrefBudget))
	}
}
