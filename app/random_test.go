package app

import (
	"fmt"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/session"
)

// The randomized UI test's length and seed: TSPLAB_UI_ACTIONS (default
// randomActions, a third of it under the race detector) and
// TSPLAB_UI_SEED (default 1).
const randomActions = 1200

func envInt(t *testing.T, name string, def int) int {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		t.Fatalf("%s=%q: want a whole number", name, v)
	}
	return n
}

// drain runs the UI changes queued so far, as the event loop would
// between two user actions.
func drain() {
	for {
		select {
		case f := <-uiQueue:
			f()
		default:
			return
		}
	}
}

// badTexts are what a user may type into a field: garbage, out of range,
// negative, huge, blank, and some good values.
var badTexts = []string{"abc", "-1", "0", "1e9", "99999999999999999999", "", " ", "3.5", "NaN", "Inf", "1", "2", "7", "0.5", "10", "½", "1_000", "0x10"}

// TestRandomizedUI drives the whole window with seeded random actions:
// open instances (good and broken), switch engines, backends and compare
// mode, type bad values into fields, run, pause, step, stop, reset,
// search, export. After each action: no panic, no stale text (the
// settings panel shows the chosen engine's description, fields and
// labels; a refused run's error goes with a change of engine), every
// shown value in its range, and every export that reports success wrote
// its files (pictures of the size asked for). After every engine switch
// no two texts of the settings panel overlap.
func TestRandomizedUI(t *testing.T) {
	def := randomActions
	if raceOn {
		// The detector slows each action tenfold: a third of the actions
		// still draws the rarest kind some 8 times (weights sum to 52).
		def /= 3
	}
	n := envInt(t, "TSPLAB_UI_ACTIONS", def)
	seed := envInt(t, "TSPLAB_UI_SEED", 1)
	if testing.Short() {
		n = min(n, 200)
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0x7e57))
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	ap.Win.Resize(fyne.NewSize(1400, 880))
	dir := t.TempDir()
	broken := writeFile(t, dir, "broken.tsp", "NAME : broken\nTYPE : TSP\nDIMENSION : 3\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 x 1\n")
	tiny := writeFile(t, dir, "tiny.tsp", tinyTSP)
	fr := newFrames()
	exports := 0

	pane := func() *Pane {
		ps := ap.Panes()
		return ps[rng.IntN(len(ps))]
	}
	var last string
	actions := []struct {
		name   string
		weight int
		do     func() string
	}{
		{"select instance", 4, func() string {
			if len(ap.Entries()) == 0 {
				return "none listed"
			}
			i := rng.IntN(len(ap.Entries()))
			ap.Select(i)
			return ap.Entries()[i].Name
		}},
		{"open file", 2, func() string {
			p := []string{broken, tiny}[rng.IntN(2)]
			ap.OpenFile(p)
			return filepath.Base(p)
		}},
		{"samples", 1, func() string { ap.ShowSource(SourceSamples); return "" }},
		{"search", 2, func() string {
			q := []string{"", "c", "grid", "zz", "tin", "1"}[rng.IntN(6)]
			ap.SetSearch(q)
			return q
		}},
		{"sort", 1, func() string { s := []string{SortSize, SortName}[rng.IntN(2)]; ap.SetSort(s); return s }},
		{"algorithm", 6, func() string {
			p := pane()
			before := p.settings.engine()
			opts := p.settings.picker.algoSelect.Options
			a := opts[rng.IntN(len(opts))]
			if !p.settings.picker.algoSelect.Disabled() {
				p.settings.picker.algoSelect.SetSelected(a)
			}
			checkEngineShown(t, p, before)
			checkPanel(t, "after picking "+a, p, fr)
			return p.Name + " " + a
		}},
		{"backend", 5, func() string {
			p := pane()
			before := p.settings.engine()
			b := backends[rng.IntN(len(backends))]
			if btn := p.settings.picker.backendBtns[b]; !btn.Disabled() {
				test.Tap(btn)
			}
			checkEngineShown(t, p, before)
			checkPanel(t, "after backend "+b, p, fr)
			return p.Name + " " + b
		}},
		{"type into a field", 8, func() string {
			p := pane()
			f := p.settings
			var e interface{ SetText(string) }
			name := "seed"
			switch k := rng.IntN(len(f.rows) + 2); {
			case k < len(f.rows) && f.rows[k].entry != nil:
				e, name = f.rows[k].entry, f.rows[k].opt.Name
			case k < len(f.rows):
				c := f.rows[k].choice
				if !c.Disabled() {
					c.SetSelectedIndex(rng.IntN(len(c.Options)))
				}
				return f.rows[k].opt.Name + " choice"
			case k == len(f.rows):
				e, name = f.timeItem, "time"
			default:
				e = f.seedItem
			}
			txt := badTexts[rng.IntN(len(badTexts))]
			e.SetText(txt)
			return fmt.Sprintf("%s %s=%q", p.Name, name, txt)
		}},
		{"run", 6, func() string {
			p := pane()
			// Short runs: the time limit a random edit left could be hours.
			_ = p.settings.timeLimit.Set(formatFloat(float64(20+rng.IntN(200)) / 1000))
			test.Tap(p.controls.run)
			dismissDialogs(ap)
			return p.Name
		}},
		{"pause", 3, func() string { p := pane(); test.Tap(p.controls.pause); return p.Name }},
		{"step", 3, func() string {
			p := pane()
			_ = p.settings.timeLimit.Set("0.1")
			test.Tap(p.controls.step)
			dismissDialogs(ap)
			return p.Name
		}},
		{"stop", 2, func() string { p := pane(); test.Tap(p.controls.stop); return p.Name }},
		{"reset", 1, func() string { p := pane(); test.Tap(p.controls.reset); return p.Name }},
		{"compare", 2, func() string { on := rng.IntN(2) == 0; ap.SetCompare(on); return fmt.Sprint(on) }},
		{"run both", 2, func() string {
			_ = ap.budget.Set(badTexts[rng.IntN(len(badTexts))])
			if rng.IntN(3) > 0 {
				_ = ap.budget.Set(formatFloat(float64(20+rng.IntN(150)) / 1000))
			}
			if err := ap.RunCompare(); err != nil {
				return "refused: " + err.Error()
			}
			return "budget " + func() string { s, _ := ap.budget.Get(); return s }()
		}},
		{"zoom", 1, func() string {
			p := pane()
			p.View.ZoomAt(float64(rng.IntN(40)+1)/8, fyne.NewPos(float32(rng.IntN(300)), float32(rng.IntN(300))))
			return p.Name
		}},
		{"export", 3, func() string {
			kinds := []string{ExportPNG, ExportSVG, ExportPDF, ExportTour, ExportCSV, ExportJSON}
			kind := kinds[rng.IntN(len(kinds))]
			w, h := 50+rng.IntN(400), rng.IntN(3)*(40+rng.IntN(200))
			exports++
			path := filepath.Join(dir, fmt.Sprintf("out%d.%s", exports, kind))
			files, err := ap.ExportFile(path, kind, w, h)
			checkExport(t, ap, kind, w, h, path, files, err)
			return fmt.Sprintf("%s %dx%d: %v", kind, w, h, err)
		}},
	}
	total := 0
	for _, a := range actions {
		total += a.weight
	}
	for i := 0; i < n; i++ {
		k := rng.IntN(total)
		for _, a := range actions {
			if k -= a.weight; k < 0 {
				last = fmt.Sprintf("action %d: %s %s", i, a.name, a.do())
				break
			}
		}
		drain()
		for len(loads) > 0 {
			<-loads
		}
		checkShown(t, ap, last)
		if t.Failed() {
			t.Fatalf("seed %d, stopped after %s", seed, last)
		}
	}
}

// dismissDialogs closes the error dialogs a refused run opens.
func dismissDialogs(ap *App) {
	for ap.Win.Canvas().Overlays().Top() != nil {
		ap.Win.Canvas().Overlays().Remove(ap.Win.Canvas().Overlays().Top())
	}
}

// checkEngineShown fails t when the settings panel shows anything of an
// engine other than the one chosen: its description, its fields and
// their labels, the time limit's help, the Temperature number.
func checkEngineShown(t *testing.T, p *Pane, before solver.Engine) {
	t.Helper()
	f := p.settings
	e := f.engine()
	if e == nil {
		t.Errorf("pane %s: no engine chosen (%v)", p.Name, f.picker.algoSelect.Selected)
		return
	}
	if got := f.algoHelp.Text; got != engineHelp(e) {
		t.Errorf("pane %s on %s/%s: description %q", p.Name, e.Name(), e.Backend(), got)
	}
	set := f.options()
	if got := len(f.rows); got != len(set) {
		t.Errorf("pane %s on %s/%s: %d fields, the engine has %d options", p.Name, e.Name(), e.Backend(), got, len(set))
		return
	}
	for i, r := range f.rows {
		if r.opt.Name != set[i].Name || r.label.Text != OptionLabel(r.opt.Name, e.Backend()) {
			t.Errorf("pane %s on %s/%s: field %d is %s labelled %q", p.Name, e.Name(), e.Backend(), i, r.opt.Name, r.label.Text)
		}
	}
	if got, want := f.timeHelp.Text, Drawable(timeHelpFor(set)+"; "+HelpSeed); got != want {
		t.Errorf("pane %s: time help %q, want %q", p.Name, got, want)
	}
	if sel := f.picker.algoSelect.Selected; sel != e.Name() {
		t.Errorf("pane %s: menu shows %q, the engine is %s", p.Name, sel, e.Name())
	}
	if st := p.Runner.State(); e != before && st != session.Running && st != session.Paused && p.status.failed {
		t.Errorf("pane %s: a refused run's error %q stays after a change of engine", p.Name, p.Status())
	}
}

// checkShown fails t when a shown value is out of its range.
func checkShown(t *testing.T, ap *App, after string) {
	t.Helper()
	for _, p := range []*Pane{ap.Single, ap.Left, ap.Right} {
		if v := p.status.bar.Value(); v < 0 || v > 1 {
			t.Errorf("%s: pane %s bar at %v", after, p.Name, v)
		}
		if p.Status() == "" {
			t.Errorf("%s: pane %s has an empty status", after, p.Name)
		}
		num := func(k string) string { return p.numbers.value[k].Text }
		for _, k := range []string{"Length", "Best"} {
			if s := num(k); s != "–" {
				if v, err := strconv.ParseInt(strings.ReplaceAll(s, ",", ""), 10, 64); err != nil || v <= 0 {
					t.Errorf("%s: pane %s %s shows %q", after, p.Name, k, s)
				}
			}
		}
		if s := num("Gap"); strings.HasSuffix(s, " %") && !strings.Contains(s, "above") {
			if v, err := strconv.ParseFloat(strings.TrimSuffix(s, " %"), 64); err != nil || v < 0 {
				t.Errorf("%s: pane %s gap %q", after, p.Name, s)
			}
		}
		if s := num("Elapsed"); s != "–" {
			if v, err := strconv.ParseFloat(strings.TrimSuffix(s, " s"), 64); err != nil || v < 0 {
				t.Errorf("%s: pane %s elapsed %q", after, p.Name, s)
			}
		}
		if s := num("Moves/s"); s != "–" && strings.HasPrefix(s, "-") {
			t.Errorf("%s: pane %s moves/s %q", after, p.Name, s)
		}
		if in := p.Instance(); in != nil {
			if b, l := p.Runner.Best(); b != nil && (len(b) != in.N || l <= 0) {
				// A run of the previous instance may still end; its
				// tour is then not the pane's to show.
				if p.Runner.State() == session.Running {
					continue
				}
			}
		}
	}
}

// checkExport fails t when an export that reported success did not write
// its files, or a picture's size is not the one asked for, or a failed
// export left a file.
func checkExport(t *testing.T, ap *App, kind string, w, h int, path string, files []string, err error) {
	t.Helper()
	if err != nil {
		if _, serr := os.Stat(path); serr == nil {
			t.Errorf("export %s failed (%v) but %s was written", kind, err, path)
		}
		return
	}
	if len(files) == 0 {
		t.Errorf("export %s reported success and no file", kind)
	}
	for _, f := range files {
		st, serr := os.Stat(f)
		if serr != nil || st.Size() == 0 {
			t.Errorf("export %s: %s missing or empty (%v)", kind, f, serr)
		}
	}
	if kind == ExportPNG && len(files) == 1 {
		fh, _ := os.Open(files[0])
		img, derr := png.Decode(fh)
		fh.Close()
		if derr != nil {
			t.Errorf("export png: %v", derr)
		} else if b := img.Bounds(); b.Dx() != w || (h > 0 && b.Dy() != h) {
			t.Errorf("export png asked %d×%d, wrote %v", w, h, b)
		}
	}
	if ap.Compare() && !slices.Contains([]string{ExportPNG, ExportSVG, ExportPDF}, kind) { // pictures hold both panes
		for _, f := range files {
			if !slices.ContainsFunc([]string{"-A-", "-B-"}, func(s string) bool { return strings.Contains(f, s) }) {
				t.Errorf("compare export %s does not name its pane and engine", f)
			}
		}
	}
}

var _ = time.Second
var _ = solver.BackendCPU
