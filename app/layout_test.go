package app

import (
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/tsplab/tsplab/internal/fakeengine"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/session"
)

func init() {
	fakeengine.Register(fakeengine.Engine{Algo: "slowstart", SetupDelay: 600 * time.Millisecond})
}

// relLuminance is WCAG 2's relative luminance of an opaque colour.
func relLuminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	lin := func(v uint32) float64 {
		x := float64(v) / 0xffff
		if x <= 0.04045 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

// contrast is WCAG 2's contrast ratio of two opaque colours.
func contrast(a, b color.Color) float64 {
	la, lb := relLuminance(a), relLuminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// over composes the (possibly translucent) colour top over opaque bottom.
func over(top, bottom color.Color) color.Color {
	n := color.NRGBAModel.Convert(top).(color.NRGBA)
	b := color.NRGBAModel.Convert(bottom).(color.NRGBA)
	a := float64(n.A) / 255
	mix := func(t, u uint8) uint8 { return uint8(math.Round(float64(t)*a + float64(u)*(1-a))) }
	return color.NRGBA{mix(n.R, b.R), mix(n.G, b.G), mix(n.B, b.B), 255}
}

func TestSecondaryTextContrast(t *testing.T) {
	th := NewTheme(theme.DefaultTheme())
	for _, v := range []fyne.ThemeVariant{theme.VariantLight, theme.VariantDark} {
		bg := th.Color(theme.ColorNameBackground, v)
		fg := th.Color(ColorNameSecondaryText, v)
		rows := map[string]color.Color{
			"background":   bg,
			"hovered row":  over(th.Color(theme.ColorNameHover, v), bg),
			"selected row": over(th.Color(theme.ColorNameSelection, v), bg),
		}
		for name, c := range rows {
			if r := contrast(fg, c); r < 4.5 {
				t.Errorf("variant %d: secondary text on the %s has contrast %.2f:1, want at least 4.5:1 (WCAG AA)", v, name, r)
			}
		}
		// What Fyne's low-importance labels use fails, which is why the
		// browser does not use them.
		if r := contrast(th.Color(theme.ColorNameDisabled, v), bg); r >= 4.5 {
			t.Logf("variant %d: the disabled colour now has %.2f:1", v, r)
		}
	}
}

// visibleIn reports whether o lies wholly inside a window of size win.
func visibleIn(o fyne.CanvasObject, win fyne.Size) (fyne.Position, bool) {
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(o)
	size := o.Size()
	return pos, o.Visible() && size.Width > 0 && size.Height > 0 &&
		pos.X >= 0 && pos.Y >= 0 && pos.X+size.Width <= win.Width && pos.Y+size.Height <= win.Height
}

func TestBrowserSecondLinesUseTheReadableColour(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	item := ap.list.CreateItem()
	box := item.(*fyne.Container)
	second, ok := box.Objects[1].(*secondaryLabel)
	if !ok {
		t.Fatalf("the second line is a %T, want a secondaryLabel", box.Objects[1])
	}
	if second.seg.Style.ColorName != ColorNameSecondaryText {
		t.Errorf("second line colour %q", second.seg.Style.ColorName)
	}

	// The app's theme provides the colour.
	if _, ok := ap.FyneApp.Settings().Theme().(Theme); !ok {
		t.Errorf("app theme is %T, want app.Theme", ap.FyneApp.Settings().Theme())
	}
}

// TestResultsVisibleWithoutScrolling: the run controls, the status, the
// live numbers down to Elapsed and the plot are on screen without
// scrolling at 1400×880 and at 1024×700; the engine choice too from
// 1280×800.
func TestResultsVisibleWithoutScrolling(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	p := ap.Single
	var elapsed fyne.CanvasObject
	for _, c := range test.LaidOutObjects(ap.Win.Content()) {
		if l, ok := c.(*widget.Label); ok && l.Text == "Elapsed" {
			elapsed = l
		}
	}
	if elapsed == nil {
		t.Fatal("no Elapsed label")
	}
	for _, win := range []fyne.Size{{Width: 1400, Height: 880}, {Width: 1280, Height: 800}, {Width: 1024, Height: 700}} {
		ap.Win.Resize(win)
		controls := map[string]fyne.CanvasObject{
			"Run":          p.controls.run,
			"progress bar": p.status.bar,
			"status line":  p.status.line,
			"Elapsed":      elapsed,
			"plot":         p.Curve,
		}
		if win.Width >= 1280 {
			controls["algorithm"] = p.settings.picker.algoSelect
			controls["backend CPU"] = p.settings.picker.backendBtns[solver.BackendCPU]
		}
		for name, o := range controls {
			if pos, ok := visibleIn(o, ap.Win.Canvas().Size()); !ok {
				t.Errorf("%v window: %s at %v size %v is not wholly inside", win, name, pos, o.Size())
			}
		}
	}
}

func TestPhaseInStatusAndBarAndFirstTourDrawn(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	p := ap.Single
	s := fakeSettings(3 * time.Second)
	s.Algorithm = "slowstart"
	p.SetSettings(s)
	if err := p.RunFor(0); err != nil {
		t.Fatal(err)
	}
	pump(t, "the start-tour phase", func() bool { return strings.Contains(p.Status(), string(solver.PhaseStart)+" ") })
	if !strings.Contains(p.Status(), "%") {
		t.Errorf("status %q: the phase's progress is known, want it shown", p.Status())
	}
	// The bar measures the time limit; the phase's progress is the status line's.
	if p.status.bar.Busy() || !strings.HasSuffix(p.status.bar.Text(), " of 3 s") {
		t.Errorf("bar busy %v with %q, want the time of the 3 s limit", p.status.bar.Busy(), p.status.bar.Text())
	}
	if sc := p.View.Scene(); sc.Tour != nil {
		t.Error("a tour drawn before the engine has one")
	}
	// The first tour is drawn with the first update that has one.
	pump(t, "the first tour", func() bool { return p.Runner.Last().BestLength > 0 })
	pump(t, "the first tour on the canvas", func() bool { return p.View.Scene().Tour != nil })
	if sc := p.View.Scene(); len(sc.Tour) != p.Instance().N {
		t.Errorf("first tour on the canvas has %d cities", len(sc.Tour))
	}
	pump(t, "the search phase", func() bool { return strings.Contains(p.Status(), string(solver.PhaseSearch)) })
	p.Stop()
	settle(t, p)
	if st := p.Status(); strings.Contains(st, string(solver.PhaseSearch)) || !strings.HasPrefix(st, "stopped") {
		t.Errorf("status after the run %q, want stopped without a phase", st)
	}
}

func TestBarFractionAndStatusLine(t *testing.T) {
	run := session.Progress{State: session.Running, Engine: "x/cpu", Fraction: 0.25, Elapsed: 2500 * time.Millisecond}
	for _, c := range []struct {
		phase    solver.Phase
		pp       float64
		inStatus string
	}{
		{solver.PhaseNeighbours, 0.4, "building candidate lists 40 %"},
		{solver.PhaseStart, solver.UnknownProgress, "building the start tour…"},
		{solver.PhaseSearch, solver.UnknownProgress, "searching"},
		{solver.PhasePolish, 1.5, "polishing the best tour 100 %"},
	} {
		pr := run
		pr.Phase, pr.PhaseProgress = c.phase, c.pp
		// The bar is the time limit's share whatever the phase.
		if f, text := BarFraction(pr, "", 10*time.Second); f != 0.25 || text != "2.5 s of 10 s" {
			t.Errorf("%s %.2f: bar %.2f %q, want 0.25 \"2.5 s of 10 s\"", c.phase, c.pp, f, text)
		}
		if f, text := BarFraction(pr, "", 0); f != 0.25 || text != "25 % of the schedule" {
			t.Errorf("%s without a limit: bar %.2f %q", c.phase, f, text)
		}
		if st := StatusLine(pr, ""); !strings.Contains(st, c.inStatus) || !strings.HasPrefix(st, "running · x/cpu") {
			t.Errorf("%s: status %q, want %q in it", c.phase, st, c.inStatus)
		}
	}
	done := session.Progress{State: session.Done, Engine: "x/cpu", Fraction: 1, Phase: solver.PhaseStart, Elapsed: 10 * time.Second}
	if f, text := BarFraction(done, solver.StopTime, 10*time.Second); f != 1 || text != "10 s of 10 s" {
		t.Errorf("a finished run: bar %.2f %q", f, text)
	}
}

func TestOpenFileShowsItsFolderAndRecentPersist(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	dir := t.TempDir()
	tiny := writeFile(t, dir, "tiny.tsp", tinyTSP)
	writeFile(t, dir, "other.tsp", strings.Replace(tinyTSP, "tiny", "other", 1))

	ap.OpenFile(tiny)
	if err := waitLoad(t, loads); err != nil {
		t.Fatal(err)
	}
	if in := ap.Single.Instance(); in == nil || in.Name != "tiny" {
		t.Fatalf("opened %v", in)
	}
	label := FolderLabel(dir)
	if ap.Source() != label || len(ap.Entries()) != 2 {
		t.Errorf("the list shows %q with %d entries, want the file's folder %q with both files", ap.Source(), len(ap.Entries()), label)
	}
	if ap.selected < 0 || ap.Entries()[ap.selected].Path != tiny {
		t.Errorf("the opened file is not the selected entry")
	}
	if !slices.Contains(ap.Sources(), label) {
		t.Errorf("the source menu %v lacks the folder %q", ap.Sources(), label)
	}
	// Open folder lists that folder.
	other := t.TempDir()
	writeFile(t, other, "third.tsp", strings.Replace(tinyTSP, "tiny", "third", 1))
	ap.ShowFolder(other)
	if ap.Source() != FolderLabel(other) || len(ap.Entries()) != 1 || ap.Entries()[0].Name != "third" {
		t.Errorf("after Open folder: source %q, entries %+v", ap.Source(), ap.Entries())
	}
	// The menu switches back to the first folder.
	ap.source.SetSelected(label)
	if len(ap.Entries()) != 2 {
		t.Errorf("choosing %q in the menu lists %d entries", label, len(ap.Entries()))
	}

	// A second window on the same Preferences (a restart) finds the
	// recent file and both folders.
	again := New(ap.FyneApp, Options{})
	t.Cleanup(func() { again.Win.Close() })
	if r := ap.FyneApp.Preferences().StringList(PrefRecent); len(r) == 0 || r[0] != tiny {
		t.Errorf("recent files %v, want %s first", r, tiny)
	}
	again.ShowSource(SourceRecent)
	if len(again.Entries()) == 0 || again.Entries()[0].Path != tiny {
		t.Errorf("after a restart the recent list is %+v", again.Entries())
	}
	for _, d := range []string{dir, other} {
		if !slices.Contains(again.Sources(), FolderLabel(d)) {
			t.Errorf("after a restart the source menu %v lacks %q", again.Sources(), FolderLabel(d))
		}
	}
}

func TestCompareCPUPaneAgainstGPUPane(t *testing.T) {
	// The panes chosen as on the command line: --a fake/cpu --b fake/gpu.
	ap, loads := newTestApp(t, Options{Compare: true, A: "fake/cpu", B: "fake/gpu"})
	waitLoad(t, loads)
	for _, c := range []struct {
		p             *Pane
		algo, backend string
	}{{ap.Left, "fake", solver.BackendCPU}, {ap.Right, "fake", solver.BackendGPU}} {
		if s, err := c.p.Settings(); err != nil || s.Algorithm != c.algo || s.Backend != c.backend {
			t.Fatalf("pane %s: %s/%s (%v), want %s/%s", c.p.Name, s.Algorithm, s.Backend, err, c.algo, c.backend)
		}
	}
	// The right pane's GPU choice is kept: its GPU button is enabled.
	if ap.Right.settings.picker.backendBtns[solver.BackendGPU].Disabled() {
		t.Fatal("the GPU button of pane B is disabled for an algorithm with a usable GPU engine")
	}
	if err := ap.RunCompareFor(400 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	both := ap.Left.Runner.State() == session.Running && ap.Right.Runner.State() == session.Running
	settle(t, ap.Left)
	settle(t, ap.Right)
	if !both {
		t.Error("the two panes did not run at the same time")
	}
	for _, c := range []struct {
		p       *Pane
		backend string
	}{{ap.Left, solver.BackendCPU}, {ap.Right, solver.BackendGPU}} {
		res, ok := c.p.Runner.Result()
		if !ok || res.Backend != c.backend || len(res.Tour) != c.p.Instance().N {
			t.Errorf("pane %s: result %v on %q with %d cities, want a tour from the %s engine", c.p.Name, ok, res.Backend, len(res.Tour), c.backend)
		}
	}
	if sum := ap.Summary(); !strings.Contains(sum, "A fake/cpu") || !strings.Contains(sum, "B fake/gpu") {
		t.Errorf("summary %q, want A on the CPU and B on the GPU", sum)
	}
}

func TestRunFromTheAppIsValidatedAsTheCLIs(t *testing.T) {
	ap, loads := newTestApp(t, Options{Open: "clustered-1000"})
	if err := waitLoad(t, loads); err != nil {
		t.Fatal(err)
	}
	p := ap.Single
	in := p.Instance()
	// The most blocks any engine takes, refused on this instance because
	// blocks × cities passes the memory bound, and twice that, beyond any
	// range: the CLI refuses both, and so must a run from the app.
	if solver.MaxBlocks*in.N <= solver.MaxTourCells {
		t.Skipf("%d blocks fit %d cities: no instance-dependent refusal to test", solver.MaxBlocks, in.N)
	}
	for _, blocks := range []int{solver.MaxBlocks, 2 * solver.MaxBlocks} {
		s := fakeSettings(time.Second)
		s.Options = map[string]string{"blocks": strconv.Itoa(blocks)}
		p.SetSettings(s)
		_, formErr := p.Settings()
		e, _, _ := solver.Resolve(s.Algorithm, s.Backend)
		// The CLI's check refuses it too (Params drops a value that does
		// not parse, so the field is set directly).
		pp := s.Params()
		pp = pp.WithExtra("blocks", strconv.Itoa(blocks))
		if err := solver.Validate(e, in, pp); err == nil {
			t.Fatalf("solver.Validate takes %d blocks on %d cities: the test proves nothing", blocks, in.N)
		}
		want := formErr
		if want == nil {
			want = solver.Validate(e, in, s.Params())
		}
		if want == nil {
			t.Fatalf("blocks %d: the app would run what the CLI refuses", blocks)
		}
		test.Tap(p.controls.run)
		if st := p.Runner.State(); st != session.Idle {
			t.Fatalf("a run with %d blocks started (state %v)", blocks, st)
		}
		if got := p.Status(); got != want.Error() || strings.Contains(got, "\n") {
			t.Errorf("blocks %d: status %q, want the one-line error %q", blocks, got, want.Error())
		}
		top := ap.Win.Canvas().Overlays().Top()
		if top == nil {
			t.Errorf("blocks %d: no error dialog for a refused run", blocks)
		} else {
			ap.Win.Canvas().Overlays().Remove(top)
		}
	}
}
