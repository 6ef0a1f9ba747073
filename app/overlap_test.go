package app

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	fcanvas "fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/tsplab/tsplab/canvas/export"
	"github.com/tsplab/tsplab/internal/fakeengine"
	"github.com/tsplab/tsplab/solver"
	_ "github.com/tsplab/tsplab/solver/cpu"
)

// Engines under real names, so the forms show the options the real CPU
// engines declare (solver/cpu is imported for its declarations; the
// fakes registered here replace its engines of the same names): or-ils
// has only a GPU engine, and it cannot run here; auto's GPU engine cannot
// run either.
func init() {
	fakeengine.Register(
		fakeengine.Engine{Algo: "pspm"},
		fakeengine.Engine{Algo: "pspm", On: solver.BackendGPU},
		fakeengine.Engine{Algo: "3opt-ils"},
		fakeengine.Engine{Algo: "or-ils", On: solver.BackendGPU, Unavailable: errNoDevice},
		fakeengine.Engine{Algo: "auto"},
		fakeengine.Engine{Algo: "auto", On: solver.BackendGPU, Unavailable: errNoDevice},
		fakeengine.Engine{Algo: "annealfake", Schedule: true},
	)
}

// frames stands for the window driver's frame loop: like Fyne's
// EnsureMinSize, it lays out again the parent of every object whose
// minimum size changed since the last frame, and nothing else (no
// resize), so a widget that changes its size without its container
// noticing shows up as it would on screen.
type frames struct {
	min map[fyne.CanvasObject]fyne.Size
}

func newFrames() *frames { return &frames{min: map[fyne.CanvasObject]fyne.Size{}} }

// children returns what o draws: a container's objects or a widget's
// renderer's.
func children(o fyne.CanvasObject) []fyne.CanvasObject {
	switch v := o.(type) {
	case *fyne.Container:
		return v.Objects
	case fyne.Widget:
		return test.WidgetRenderer(v).Objects()
	}
	return nil
}

func relayout(o fyne.CanvasObject) {
	switch v := o.(type) {
	case *fyne.Container:
		if v.Layout != nil {
			v.Layout.Layout(v.Objects, v.Size())
		}
	case fyne.Widget:
		test.WidgetRenderer(v).Layout(v.Size())
	}
}

// step runs one frame over the tree under root.
func (f *frames) step(root fyne.CanvasObject) {
	var walk func(o fyne.CanvasObject) bool
	walk = func(o fyne.CanvasObject) bool {
		if !o.Visible() {
			return false
		}
		changedChild := false
		for _, c := range children(o) {
			if walk(c) {
				changedChild = true
			}
		}
		if changedChild {
			relayout(o)
		}
		m := o.MinSize()
		old := f.min[o] // zero for an object new since the last frame
		f.min[o] = m
		return old != m
	}
	for i := 0; i < 4; i++ { // a change can move up one level a frame
		walk(root)
	}
}

// shownText is one text drawn on the canvas: where its glyphs go.
type shownText struct {
	text     string
	pos, end fyne.Position
}

// visibleTexts lists the non-empty canvas texts under root with the box
// their glyphs cover (the text's own width from its alignment, not the
// box its parent gave it).
func visibleTexts(root fyne.CanvasObject) []shownText {
	var out []shownText
	var walk func(o fyne.CanvasObject, at fyne.Position)
	walk = func(o fyne.CanvasObject, at fyne.Position) {
		if !o.Visible() {
			return
		}
		pos := at.Add(o.Position())
		if t, ok := o.(*fcanvas.Text); ok {
			if strings.TrimSpace(t.Text) == "" {
				return
			}
			m := t.MinSize()
			x := pos.X
			switch t.Alignment {
			case fyne.TextAlignCenter:
				x += (t.Size().Width - m.Width) / 2
			case fyne.TextAlignTrailing:
				x += t.Size().Width - m.Width
			}
			out = append(out, shownText{text: t.Text, pos: fyne.NewPos(x, pos.Y), end: fyne.NewPos(x+m.Width, pos.Y+m.Height)})
			return
		}
		for _, c := range children(o) {
			walk(c, pos)
		}
	}
	walk(root, fyne.NewPos(-root.Position().X, -root.Position().Y))
	return out
}

// overlaps returns a line for each pair of texts whose boxes overlap by
// more than a pixel.
func overlaps(ts []shownText) []string {
	const slack = 1
	var out []string
	for i := range ts {
		for j := i + 1; j < len(ts); j++ {
			a, b := ts[i], ts[j]
			if a.pos.X+slack < b.end.X && b.pos.X+slack < a.end.X && a.pos.Y+slack < b.end.Y && b.pos.Y+slack < a.end.Y {
				out = append(out, fmt.Sprintf("%q at %v–%v over %q at %v–%v", a.text, a.pos, a.end, b.text, b.pos, b.end))
			}
		}
	}
	return out
}

// checkPanel fails t when two texts of the settings panel of p overlap.
func checkPanel(t *testing.T, what string, p *Pane, fr *frames) {
	t.Helper()
	root := p.settingsPanel
	fr.step(root)
	if o := overlaps(visibleTexts(root)); len(o) > 0 {
		t.Errorf("%s: %d overlapping texts in the settings panel, first %s", what, len(o), o[0])
	}
}

// TestSettingsTextsNeverOverlap switches through every engine offered,
// on every backend, and after each switch no two texts of the panel
// overlap: the description of the previous engine, its warning and its
// fields leave no lines behind.
func TestSettingsTextsNeverOverlap(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	fr := newFrames()
	p := ap.Single
	f := p.settings
	for _, size := range []fyne.Size{{Width: 1400, Height: 880}, {Width: 1024, Height: 700}} {
		ap.Win.Resize(size)
		checkPanel(t, "start", p, fr)
		for _, algo := range f.picker.algoSelect.Options {
			f.picker.algoSelect.SetSelected(algo)
			checkPanel(t, algo, p, fr)
			for _, b := range backends {
				if btn := f.picker.backendBtns[b]; !btn.Disabled() {
					test.Tap(btn)
					checkPanel(t, algo+"/"+b, p, fr)
				}
			}
		}
	}
}

// TestOnlyRunnableEnginesOffered: an algorithm whose only engine cannot
// run here is not in the menu; the form names it with the reason.
func TestOnlyRunnableEnginesOffered(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	f := ap.Single.settings
	for _, a := range f.picker.algoSelect.Options {
		if a == "or-ils" {
			t.Fatalf("or-ils offered in %v although its only engine cannot run here", f.picker.algoSelect.Options)
		}
	}
	// The reason shows once: in the engine's note, or else beside or-ils.
	reasons := func() int {
		n := strings.Count(f.unavailable.Text, errNoDevice.Error())
		if f.picker.gpuNote.Visible() {
			n += strings.Count(f.picker.gpuNote.Text, errNoDevice.Error())
		}
		return n
	}
	for _, a := range []string{"fake2", "auto"} {
		f.picker.algoSelect.SetSelected(a)
		if got := f.unavailable.Text; !f.unavailable.Visible() || !strings.Contains(got, "or-ils") || reasons() != 1 {
			t.Errorf("%s: unavailable note %q (shown %v), engine note %q: want or-ils, and its reason once", a, got, f.unavailable.Visible(), f.picker.gpuNote.Text)
		}
		if strings.Contains(f.unavailable.Text, "((") || strings.Contains(f.unavailable.Text, "))") {
			t.Errorf("%s: unavailable note %q nests brackets", a, f.unavailable.Text)
		}
	}
	// auto runs on the CPU; its GPU button is disabled with the reason.
	if !f.picker.backendBtns[solver.BackendGPU].Disabled() || !strings.Contains(f.picker.gpuNote.Text, errNoDevice.Error()) {
		t.Errorf("auto: GPU button disabled %v, note %q", f.picker.backendBtns[solver.BackendGPU].Disabled(), f.picker.gpuNote.Text)
	}
	// A run of auto on the CPU does not say why in its status as well.
	p := ap.Single
	p.SetSettings(Settings{Algorithm: "auto", Backend: solver.BackendAuto, TimeLimit: 100 * time.Millisecond, Seed: 1})
	test.Tap(p.controls.run)
	settle(t, p)
	if st := p.Status(); strings.Contains(st, errNoDevice.Error()) || strings.Contains(st, "GPU not used") {
		t.Errorf("status %q repeats the engine note %q", st, f.picker.gpuNote.Text)
	}
}

// TestUnavailableTextSaysEachReasonOnce: algorithms that share a reason
// are named together with it once, in a sentence (no brackets nested),
// and not at all when the engine note gives it.
func TestUnavailableTextSaysEachReasonOnce(t *testing.T) {
	why := "this binary was built without CUDA kernels (build with `make gpu`)"
	un := map[string]string{"2opt-or": gpuOnly + why, "or-ils": gpuOnly + why, "odd": "no engine can run here"}
	got := unavailableText(un, "")
	if strings.Count(got, why) != 1 || !strings.Contains(got, "2opt-or, or-ils") || strings.Contains(got, "))") || !strings.Contains(got, "odd") {
		t.Errorf("unavailable text %q: want 2opt-or and or-ils with the reason once, no nested brackets, and odd", got)
	}
	if got := unavailableText(un, why); strings.Contains(got, why) || !strings.Contains(got, "or-ils") {
		t.Errorf("with the reason shown above: %q", got)
	}
	if got := unavailableText(nil, ""); got != "" {
		t.Errorf("nothing unavailable: %q", got)
	}
}

// TestLabelsFollowTheEngine: a CPU engine's fields are not named by GPU
// terms, the time limit's help speaks of a schedule only for an annealer,
// and the Temperature number shows only for one.
func TestLabelsFollowTheEngine(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	p := ap.Single
	f := p.settings
	labels := func() []string {
		var out []string
		for _, r := range f.rows {
			out = append(out, r.label.Text)
		}
		return out
	}
	p.SetSettings(Settings{Algorithm: "pspm", Backend: solver.BackendCPU, Seed: 1})
	got := strings.Join(labels(), ",")
	if strings.Contains(got, "Blocks") || strings.Contains(got, "Threads/block") || !strings.Contains(got, "Searches") {
		t.Errorf("CPU pspm labels %s", got)
	}
	if !p.Anneals() || !strings.Contains(f.timeHelp.Text, "schedule") {
		t.Errorf("pspm: temperature shown %v, time help %q", p.Anneals(), f.timeHelp.Text)
	}
	p.SetSettings(Settings{Algorithm: "pspm", Backend: solver.BackendGPU, Seed: 1})
	if got := strings.Join(labels(), ","); !strings.Contains(got, "Blocks") || !strings.Contains(got, "Threads/block") {
		t.Errorf("GPU pspm labels %s", got)
	}
	p.SetSettings(Settings{Algorithm: "3opt-ils", Backend: solver.BackendCPU, Seed: 1})
	if p.Anneals() || strings.Contains(f.timeHelp.Text, "schedule") {
		t.Errorf("3opt-ils: temperature shown %v, time help %q", p.Anneals(), f.timeHelp.Text)
	}
	for _, r := range f.rows {
		if r.opt.Experimental {
			continue
		}
		if doc := cmp.Or(optionDocs[r.opt.Name], r.opt.Doc); doc != "" && !strings.Contains(r.help.Text, doc) {
			t.Errorf("%s: help %q lacks the option's doc", r.opt.Name, r.help.Text)
		}
	}
}

// TestFieldsValidateAsTyped: a bad value is flagged while it is typed,
// with the range (and why it depends on the instance), and the field
// does not pass its validation.
func TestFieldsValidateAsTyped(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	p := ap.Single
	f := p.settings
	p.SetSettings(Settings{Algorithm: "3opt-ils", Backend: solver.BackendCPU, Seed: 1})
	w := row(t, f, "workers")
	for _, c := range []struct{ text, want string }{
		{"abc", "not an integer"},
		{"0", "or empty for the default"},
		{"5000", "1.."},
	} {
		w.entry.SetText("")
		test.Type(w.entry, c.text)
		if err := w.entry.Validate(); err == nil {
			t.Errorf("workers %q passes validation", c.text)
		}
		if !w.errMsg.Visible() || !strings.Contains(w.errMsg.Text, c.want) || !strings.Contains(w.errMsg.Text, "Workers") {
			t.Errorf("workers %q: shown error %q (visible %v), want it to say %q", c.text, w.errMsg.Text, w.errMsg.Visible(), c.want)
		}
	}
	w.entry.SetText("")
	test.Type(w.entry, "2")
	if w.errMsg.Visible() || w.entry.Validate() != nil {
		t.Errorf("workers 2: error %q shown", w.errMsg.Text)
	}
	if !strings.Contains(w.help.Text, "cities") {
		t.Errorf("workers help %q does not say the range depends on the instance", w.help.Text)
	}
	f.timeItem.SetText("")
	test.Type(f.timeItem, "abc")
	if !f.timeErr.Visible() || f.timeItem.Validate() == nil {
		t.Errorf("time limit abc: error %q shown %v", f.timeErr.Text, f.timeErr.Visible())
	}
	f.timeItem.SetText("3")
	f.seedItem.SetText("")
	test.Type(f.seedItem, "-1")
	if !f.seedErr.Visible() || f.seedItem.Validate() == nil {
		t.Errorf("seed -1: error %q shown %v", f.seedErr.Text, f.seedErr.Visible())
	}
	f.seedItem.SetText("1")
}

// TestRefusedRunKeepsTheResult: a run the settings refuse leaves the
// previous result on screen, and the error goes when the engine changes.
func TestRefusedRunKeepsTheResult(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	ap.Win.Canvas().Overlays() // no dialogs yet
	p := ap.Single
	p.SetSettings(fakeSettings(0))
	if err := p.RunFor(200e6); err != nil {
		t.Fatal(err)
	}
	settle(t, p)
	best, _ := p.Runner.Best()
	shown := p.numbers.value["Best"].Text
	if best == nil || shown == "–" {
		t.Fatalf("no result to keep: best %v, shown %q", best != nil, shown)
	}
	w := row(t, p.settings, "workers")
	w.entry.SetText("abc")
	test.Tap(p.controls.run)
	if top := ap.Win.Canvas().Overlays().Top(); top != nil {
		ap.Win.Canvas().Overlays().Remove(top)
	}
	if got := p.numbers.value["Best"].Text; got != shown {
		t.Errorf("after a refused run Best shows %q, was %q", got, shown)
	}
	if b, _ := p.Runner.Best(); b == nil {
		t.Error("a refused run discarded the previous tour")
	}
	if !strings.Contains(p.Status(), "Workers") {
		t.Errorf("status %q does not name the bad field", p.Status())
	}
	w.entry.SetText("")
	p.settings.picker.algoSelect.SetSelected("fake2")
	if strings.Contains(p.Status(), "Workers") {
		t.Errorf("after switching engines the status still says %q", p.Status())
	}
	_ = widget.NewLabel
}

// TestCompareSummaryGapsAndThresholds: each pane's line gives its final
// gap, above the lower bound when the optimum is unknown, and when it
// first came within each threshold.
func TestCompareSummaryGapsAndThresholds(t *testing.T) {
	curve := []export.CurvePoint{{Elapsed: 100 * time.Millisecond, Best: 1200}, {Elapsed: time.Second, Best: 1040}, {Elapsed: 3 * time.Second, Best: 1008}}
	times := ThresholdTimes(curve, 1000)
	want := []time.Duration{time.Second, time.Second, 3 * time.Second, 3 * time.Second, -1}
	for i := range want {
		if times[i] != want[i] {
			t.Errorf("threshold %g %%: %v, want %v", GapThresholds[i], times[i], want[i])
		}
	}
	a := PaneSummary{Label: "A auto/cpu", Best: 1008, Reference: 1000, Curve: curve}
	b := PaneSummary{Label: "B auto/gpu", Best: 1030, Reference: 1000, Bound: true, Curve: curve[:2]}
	sum := CompareSummary(a, b)
	for _, w := range []string{"A auto/cpu: best 1,008, 0.80 % above the optimum", "5 % at 1.00 s", "1 % at 3.00 s", "0.5 % –",
		"B auto/gpu: best 1,030, 3.00 % above the lower bound", "\n"} {
		if !strings.Contains(sum, w) {
			t.Errorf("summary %q lacks %q", sum, w)
		}
	}
	if s := CompareSummary(PaneSummary{Label: "A x/cpu", Best: 5}, PaneSummary{Label: "B y/gpu"}); !strings.Contains(s, "gap unknown") || !strings.Contains(s, "no tour yet") {
		t.Errorf("summary without a reference: %q", s)
	}
}

// TestCompareSpeedUp: with one pane on each backend the summary gives the
// GPU's moves per second and times to each threshold as multiples of the
// CPU's; with neither on the GPU it says so.
func TestCompareSpeedUp(t *testing.T) {
	cpuCurve := []export.CurvePoint{{Elapsed: time.Second, Best: 1200}, {Elapsed: 4 * time.Second, Best: 1040}, {Elapsed: 8 * time.Second, Best: 1015}}
	gpuCurve := []export.CurvePoint{{Elapsed: 0, Best: 1090}, {Elapsed: time.Second, Best: 1030}, {Elapsed: 2 * time.Second, Best: 1006}}
	c := PaneSummary{Label: "A pspm/cpu", Backend: solver.BackendCPU, Best: 1015, Reference: 1000, MovesPerS: 1e8, Curve: cpuCurve}
	g := PaneSummary{Label: "B pspm/gpu", Backend: solver.BackendGPU, Best: 1006, Reference: 1000, MovesPerS: 2e11, Curve: gpuCurve}
	for _, sum := range []string{CompareSummary(c, g), CompareSummary(g, c)} {
		for _, w := range []string{"GPU speed-up (B over A): 2000× moves/s", "sooner within 10 %: B at 0 s, 5 %: 4.0×, 2 %: 4.0×, 1 %: B only, 0.5 %: neither"} {
			if !strings.Contains(sum, w) {
				t.Errorf("summary %q lacks %q", sum, w)
			}
		}
	}
	alone := g
	alone.CPUAlone = true
	if s := SpeedUp(c, alone); !strings.Contains(s, "B's search ran on the CPU alone") || strings.Contains(s, "moves/s") {
		t.Errorf("GPU pane whose search ran on the CPU alone: %q", s)
	}
	g.Backend = solver.BackendCPU
	if s := SpeedUp(c, g); !strings.Contains(s, "neither pane ran on a GPU") {
		t.Errorf("two CPU panes: %q", s)
	}
	if s := SpeedUp(c, PaneSummary{Label: "B pspm/gpu", Backend: solver.BackendGPU}); s != "" {
		t.Errorf("no tour in B yet: %q", s)
	}
}

// TestCompareLinksAlgorithmsAndSharesTheBudget: picking an algorithm in
// one pane moves the other while they share one; the panes show no time
// limit of their own and run for the budget.
func TestCompareLinksAlgorithmsAndSharesTheBudget(t *testing.T) {
	ap, loads := newTestApp(t, Options{Compare: true})
	waitLoad(t, loads)
	ap.Left.settings.picker.algoSelect.SetSelected("pspm")
	if s, _ := ap.Right.Settings(); s.Algorithm != "pspm" {
		t.Errorf("pane B on %s after A picked pspm", s.Algorithm)
	}
	if b, _ := ap.Right.settings.backend.Get(); b == solver.BackendCPU {
		t.Errorf("pane B moved to the CPU: %s", b)
	}
	ap.Right.settings.picker.algoSelect.SetSelected("fake2")
	ap.Left.settings.picker.algoSelect.SetSelected("fake")
	if s, _ := ap.Right.Settings(); s.Algorithm != "fake2" {
		t.Errorf("pane B followed A to %s although it had its own algorithm", s.Algorithm)
	}
	for _, p := range ap.Panes() {
		if p.settings.runRow != nil || !slices.Contains(p.settings.fields.Objects, fyne.CanvasObject(p.settings.budgetNote)) {
			t.Errorf("pane %s shows its own time limit beside the budget", p.Name)
		}
	}
	_ = ap.budget.Set("0.2")
	test.Tap(ap.Left.controls.run)
	settle(t, ap.Left)
	if res, ok := ap.Left.Runner.Result(); !ok || res.Params.TimeLimit != 200*time.Millisecond {
		t.Errorf("pane A alone ran with %v, want the 0.2 s budget", res.Params.TimeLimit)
	}
}

// TestExportDialogSizeOnlyForPictures: the size fields show for pictures
// only.
func TestExportDialogSizeOnlyForPictures(t *testing.T) {
	test.NewTempApp(t)
	f := newExportForm()
	for i, c := range exportChoices {
		f.kind.SetSelectedIndex(i)
		if f.size.Visible() != isPicture(c.kind) {
			t.Errorf("%s: size fields shown %v", c.label, f.size.Visible())
		}
		if w, h, err := f.Size(); !isPicture(c.kind) && (w != 0 || h != 0 || err != nil) {
			t.Errorf("%s: size %d×%d %v", c.label, w, h, err)
		}
	}
	f.kind.SetSelectedIndex(0)
	f.width.SetText("abc")
	if _, _, err := f.Size(); err == nil {
		t.Error("width abc accepted")
	}
}

// TestAdvancedHoldsTheExperimentalOptions: an option marked experimental
// is under Advanced and not among the fields shown; a stable one the
// other way round.
func TestAdvancedHoldsTheExperimentalOptions(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	f := ap.Single.settings
	seen := false
	for _, algo := range f.picker.algoSelect.Options {
		f.picker.algoSelect.SetSelected(algo)
		for _, r := range f.rows {
			inFields := slices.Contains(f.fields.Objects, fyne.CanvasObject(r.box))
			inAdvanced := slices.Contains(f.advBox.Objects, fyne.CanvasObject(r.box))
			if r.opt.Experimental != inAdvanced || inFields == inAdvanced {
				t.Errorf("%s %s (experimental %v): in the fields %v, under Advanced %v", algo, r.opt.Name, r.opt.Experimental, inFields, inAdvanced)
			}
			seen = seen || r.opt.Experimental
		}
		if hasExp := len(f.advBox.Objects) > 0; hasExp != f.advanced.Visible() {
			t.Errorf("%s: Advanced shown %v with %d options", algo, f.advanced.Visible(), len(f.advBox.Objects))
		}
	}
	if !seen {
		t.Log("no engine here has an experimental option")
	}
}

// TestStatusWrapsWithoutMovingTheControls: a status of two lines wraps
// in the room kept for it; the numbers below stay where they were.
func TestStatusWrapsWithoutMovingTheControls(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	ap.Win.Resize(fyne.NewSize(1400, 880))
	p := ap.Single
	fr := newFrames()
	var length fyne.CanvasObject
	for _, c := range test.LaidOutObjects(ap.Win.Content()) {
		if l, ok := c.(*widget.Label); ok && l.Text == "Length" {
			length = l
		}
	}
	p.setStatus("ready")
	fr.step(ap.Win.Content())
	before := fyne.CurrentApp().Driver().AbsolutePositionForObject(length)
	p.setStatus("done · auto/cpu · GPU not used (this binary was built without CUDA kernels (build with `make gpu`)); running auto on the CPU")
	fr.step(ap.Win.Content())
	if after := fyne.CurrentApp().Driver().AbsolutePositionForObject(length); after != before {
		t.Errorf("the numbers moved from %v to %v when the status grew a line", before, after)
	}
	if p.status.line.Wrapping != fyne.TextWrapWord || p.status.line.Truncation != fyne.TextTruncateOff {
		t.Error("the status line is cut, not wrapped")
	}
	if h, min := p.status.line.Size().Height, p.status.line.MinSize().Height; h < min {
		t.Errorf("status %v tall, needs %v", h, min)
	}
}

// TestCaptureMakesRoomForWrappedTexts: a capture comes before any frame of
// the window driver; the texts that wrap once they have their width must
// still not overlap the rows beneath in it (the README's screenshots).
func TestCaptureMakesRoomForWrappedTexts(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	ap.Win.Resize(fyne.NewSize(1024, 700))
	p := ap.Single
	for _, algo := range []string{"auto", "pspm", "3opt-ils"} {
		p.settings.picker.algoSelect.SetSelected(algo)
		ap.Capture()
		if o := overlaps(visibleTexts(p.settingsPanel)); len(o) > 0 {
			t.Errorf("%s: %d overlapping texts in the captured settings, first %s", algo, len(o), o[0])
		}
	}
}
