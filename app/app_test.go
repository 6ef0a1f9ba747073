package app

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	imgdraw "image/draw"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/tsplab/tsplab/canvas/export"
	"github.com/tsplab/tsplab/internal/fakeengine"
	"github.com/tsplab/tsplab/internal/tsplibdir"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/report"
	"github.com/tsplab/tsplab/solver/session"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// errNoDevice is why the fake "nogpu" GPU engine cannot run.
var errNoDevice = errors.New("no device in this test")

// The tests' engines: "fake" runs on the CPU and on a pretended GPU,
// "fake2" on the CPU, "nogpu" on the CPU with a GPU engine that is not
// available, so every GPU path of the UI is tested on any machine.
func init() {
	fakeengine.Register(
		fakeengine.Engine{Algo: "fake"},
		fakeengine.Engine{Algo: "fake", On: solver.BackendGPU},
		fakeengine.Engine{Algo: "fake2"},
		fakeengine.Engine{Algo: "nogpu"},
		fakeengine.Engine{Algo: "nogpu", On: solver.BackendGPU, Unavailable: errNoDevice},
	)
}

// uiQueue stands for the Fyne event loop: the test driver would run
// fyne.Do on the caller's goroutine, racing with the test; the tests
// instead run every UI change on their own goroutine with pump.
var uiQueue = make(chan func(), 1<<16)

func init() { uiDo = func(f func()) { uiQueue <- f } }

// pump runs queued UI changes until cond holds.
func pump(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		select {
		case f := <-uiQueue:
			f()
		case <-time.After(2 * time.Millisecond):
		}
	}
}

// settle waits for p's running segment to end and applies its updates.
func settle(t *testing.T, p *Pane) {
	t.Helper()
	done := make(chan struct{})
	go func() { p.Runner.Wait(); close(done) }()
	pump(t, "the run to end", func() bool {
		select {
		case <-done:
			return true
		default:
			return false
		}
	})
	for {
		select {
		case f := <-uiQueue:
			f()
		default:
			return
		}
	}
}

// newTestApp builds the app on the test driver with the samples extracted
// into the tests' shared cache and a bound cache of the test's own, and
// waits for the first instance to load.
func newTestApp(t *testing.T, opts Options) (*App, chan error) {
	t.Helper()
	t.Setenv("XDG_CACHE_HOME", samplesCache)
	t.Setenv(session.CacheDirEnv, t.TempDir())
	t.Setenv("HOME", t.TempDir())
	a := test.NewTempApp(t)
	loads := make(chan error, 16)
	opts.OnLoad = func(_ *solver.Instance, err error) { loads <- err }
	ap := New(a, opts)
	t.Cleanup(func() {
		for _, p := range []*Pane{ap.Single, ap.Left, ap.Right} {
			p.Runner.Reset()
			settle(t, p)
			unbindForm(p.settings)
		}
		ap.Win.Close()
	})
	ap.Win.Resize(fyne.NewSize(1200, 800))
	return ap, loads
}

// unbindForm lets go of f's fields' bindings. A test app's preference
// bindings pass to the next test app (Fyne's bindings follow the current
// app's preferences), so the fields of every earlier test would otherwise
// still be set, checked and laid out at each change of the same settings.
func unbindForm(f *settingsForm) {
	f.unbindFields()
	f.route.entry.Unbind()
}

func waitLoad(t *testing.T, loads chan error) error {
	t.Helper()
	pump(t, "an instance to load", func() bool { return len(loads) > 0 })
	return <-loads
}

func rgba(img image.Image) *image.RGBA {
	r := image.NewRGBA(img.Bounds())
	imgdraw.Draw(r, r.Rect, img, img.Bounds().Min, imgdraw.Src)
	return r
}

func countTourPixels(img image.Image) int {
	r := rgba(img)
	n := 0
	c := export.TourColor
	for i := 0; i+3 < len(r.Pix); i += 4 {
		if r.Pix[i] == c.R && r.Pix[i+1] == c.G && r.Pix[i+2] == c.B {
			n++
		}
	}
	return n
}

func fakeSettings(limit time.Duration) Settings {
	return Settings{Algorithm: "fake", Backend: solver.BackendCPU, TimeLimit: limit, Seed: 2}
}

func TestBrowserListsSamplesAndLoadsThem(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	// The window opens on the first bundled sample.
	if err := waitLoad(t, loads); err != nil {
		t.Fatal(err)
	}
	if len(ap.Entries()) < 2 {
		t.Fatalf("%d bundled samples listed", len(ap.Entries()))
	}
	first := ap.Entries()[0]
	in := ap.Single.Instance()
	if in == nil || in.N != first.Dimension {
		t.Fatalf("loaded %v, want the first entry (n=%d)", in, first.Dimension)
	}
	if first.Optimum == 0 || !strings.Contains(first.Summary(), "opt") {
		t.Errorf("first sample %+v: no known optimum shown", first)
	}
	// The canvas shows the instance at once, with its optimal tour overlay.
	if s := ap.Single.View.Scene(); s.Instance != in || len(s.Optimal) != in.N {
		t.Errorf("canvas scene: instance %v, optimal %d cities", s.Instance == in, len(s.Optimal))
	}
	// The down arrow moves to the next instance.
	ap.typedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	if err := waitLoad(t, loads); err != nil {
		t.Fatal(err)
	}
	if got := ap.Single.Instance().N; got != ap.Entries()[1].Dimension {
		t.Errorf("after the down arrow: n=%d, want entry 1's %d", got, ap.Entries()[1].Dimension)
	}
	ap.typedKey(&fyne.KeyEvent{Name: fyne.KeyUp})
	if err := waitLoad(t, loads); err != nil {
		t.Fatal(err)
	}
	if ap.Single.Instance().N != first.Dimension {
		t.Errorf("after the up arrow: n=%d", ap.Single.Instance().N)
	}
}

func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const tinyTSP = "NAME : tiny\nTYPE : TSP\nDIMENSION : 5\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 10 0\n3 10 10\n4 0 10\n5 5 15\nEOF\n"

func TestFolderBadFileAndDrop(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	dir := t.TempDir()
	good := writeFile(t, dir, "tiny.tsp", tinyTSP)
	bad := writeFile(t, dir, "bad.tsp", "NAME : bad\nTYPE : TSP\nDIMENSION : 3\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 x 1\n")
	writeFile(t, dir, "optima.csv", "name,optimum\ntiny,42\n")
	writeFile(t, dir, "notes.txt", "not an instance")

	ap.ShowFolder(dir)
	es := ap.Entries()
	if len(es) != 2 {
		t.Fatalf("folder lists %d entries, want the 2 .tsp files: %+v", len(es), es)
	}
	var tiny Entry
	for _, e := range es {
		if e.Name == "tiny" {
			tiny = e
		}
	}
	if tiny.Dimension != 5 || tiny.Metric != "EUC_2D" || tiny.Type != "TSP" || tiny.Optimum != 42 {
		t.Errorf("tiny entry %+v", tiny)
	}

	// A bad file: the reader's one-line FILE:LINE error in the window;
	// the instance on screen stays loaded.
	before, title := ap.Single.Instance(), ap.Win.Title()
	ap.Open(bad)
	err := waitLoad(t, loads)
	if err == nil || !strings.Contains(err.Error(), "bad.tsp:7") {
		t.Fatalf("loading the bad file: error %v, want one naming bad.tsp:7", err)
	}
	if msg := ap.Message(); msg != err.Error() || strings.Contains(msg, "\n") {
		t.Errorf("the window says %q, want the one-line error %q", msg, err.Error())
	}
	if ap.message.Importance != widget.DangerImportance || !ap.message.Visible() {
		t.Error("the error line is not shown in the error colour")
	}
	for _, p := range []*Pane{ap.Single, ap.Left, ap.Right} {
		if p.Instance() != before {
			t.Errorf("pane %s lost its instance after the bad file", p.Name)
		}
	}
	if ap.Win.Title() != title {
		t.Errorf("title %q after the bad file, was %q", ap.Win.Title(), title)
	}
	if ap.Win.Canvas().Overlays().Top() != nil {
		t.Error("a modal dialog for a bad file: the line in the window is enough")
	}
	// Runs still start on the instance kept.
	ap.Single.SetSettings(fakeSettings(100 * time.Millisecond))
	if err := ap.Single.RunFor(0); err != nil {
		t.Fatal(err)
	}
	settle(t, ap.Single)
	if res, ok := ap.Single.Runner.Result(); !ok || len(res.Tour) != before.N {
		t.Errorf("a run after the bad file: result %v with %d cities, want %d", ok, len(res.Tour), before.N)
	}

	// Dropping a .tsp opens it and adds it to the recent files.
	ap.dropped(fyne.NewPos(10, 10), []fyne.URI{storage.NewFileURI(good), storage.NewFileURI(filepath.Join(dir, "notes.txt"))})
	if err := waitLoad(t, loads); err != nil {
		t.Fatal(err)
	}
	if in := ap.Single.Instance(); in == nil || in.Name != "tiny" || in.Optimum != 42 {
		t.Fatalf("after the drop the instance is %+v", in)
	}
	recent := ap.FyneApp.Preferences().StringList(PrefRecent)
	if len(recent) == 0 || recent[0] != good {
		t.Errorf("recent files %v, want %s first", recent, good)
	}
	if ap.source.Selected != SourceRecent || len(ap.Entries()) == 0 || ap.Entries()[0].Path != good {
		t.Errorf("the list does not show the recent files")
	}
}

// TestRunForShowsItsBudget: a run started with a budget (tsplab --run)
// shows that budget in the settings form, not the form's earlier value.
func TestRunForShowsItsBudget(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	p := ap.Single
	p.SetSettings(fakeSettings(20 * time.Second))
	if err := p.RunFor(150 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	settle(t, p)
	if v, _ := p.settings.timeLimit.Get(); v != formatFloat(0.15) {
		t.Errorf("the form's time limit reads %q after a 150 ms run", v)
	}
}

func TestRunAndStopFromTheButtons(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	p := ap.Single
	p.SetSettings(fakeSettings(20 * time.Second))
	test.Tap(p.controls.run)
	if st := p.Runner.State(); st != session.Running {
		t.Fatalf("after tapping Run the state is %v", st)
	}
	pump(t, "a best tour", func() bool { return p.Runner.Last().BestLength > 0 })
	test.Tap(p.controls.stop)
	settle(t, p)
	if st := p.Runner.State(); st != session.Done {
		t.Fatalf("after tapping Stop the state is %v", st)
	}
	best, length := p.Runner.Best()
	// The canvas keeps the best tour, drawn in the tour colour.
	s := p.View.Scene()
	if len(s.Tour) != p.Instance().N || solver.TourLength(p.Instance(), s.Tour) != length {
		t.Errorf("canvas tour of length %d, best is %d", solver.TourLength(p.Instance(), s.Tour), length)
	}
	if n := countTourPixels(ap.Win.Canvas().Capture()); n < 50 {
		t.Errorf("the window shows %d tour-coloured pixels", n)
	}
	if len(best) == 0 {
		t.Fatal("no best tour kept")
	}
	if v := p.numbers.value["Best"].Text; v != solver.GroupDigits(strconv.FormatInt(length, 10)) {
		t.Errorf("Best shows %q, want %d", v, length)
	}
	if v := p.numbers.value["Gap"].Text; !strings.HasSuffix(v, "%") {
		t.Errorf("Gap shows %q, want a percentage (the sample's optimum is known)", v)
	}
	if len(p.Curve.Points()) == 0 {
		t.Error("the convergence plot is empty")
	}
	if p.controls.run.Disabled() || !p.controls.stop.Disabled() || !p.controls.pause.Disabled() {
		t.Errorf("after the run: Run disabled %v, Stop disabled %v, Pause disabled %v; want Run only",
			p.controls.run.Disabled(), p.controls.stop.Disabled(), p.controls.pause.Disabled())
	}
	// Reset clears the tour but keeps the instance.
	test.Tap(p.controls.reset)
	if s := p.View.Scene(); s.Tour != nil || s.Instance == nil {
		t.Errorf("after Reset: tour %v, instance %v", s.Tour != nil, s.Instance != nil)
	}
	if len(p.Curve.Points()) != 0 {
		t.Error("Reset kept the curve")
	}
}

func TestPauseStepResume(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	p := ap.Single
	s := fakeSettings(20 * time.Second)
	s.Options = map[string]string{"k": "2"}
	p.SetSettings(s)
	test.Tap(p.controls.step)
	settle(t, p)
	if st := p.Runner.State(); st != session.Paused {
		t.Fatalf("after Step the state is %v, want paused", st)
	}
	if p.controls.run.Text != "Resume" || p.controls.pause.Disabled() == false {
		t.Errorf("paused: run button %q, pause enabled %v", p.controls.run.Text, !p.controls.pause.Disabled())
	}
	steps := p.Runner.Last().Steps
	test.Tap(p.controls.step)
	settle(t, p)
	if got := p.Runner.Last().Steps; got < steps+2 {
		t.Errorf("second step: %d steps, want at least %d", got, steps+2)
	}
	test.Tap(p.controls.run) // resume
	pump(t, "the resumed run", func() bool { return p.Runner.Last().Steps > steps+50 })
	test.Tap(p.controls.pause)
	settle(t, p)
	if st := p.Runner.State(); st != session.Paused {
		t.Errorf("after Pause the state is %v", st)
	}
}

func TestSettingsPersistAndGPUDisabled(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	f := ap.Single.settings
	ap.Single.SetSettings(fakeSettings(0))
	blocks := row(t, f, "blocks").entry
	blocks.SetText("")
	test.Type(blocks, "8")
	s, err := f.Settings()
	if err != nil {
		t.Fatal(err)
	}
	if s.Options["blocks"] != "8" {
		t.Fatalf("blocks %q after typing 8 into the empty field", s.Options["blocks"])
	}
	prefs := ap.FyneApp.Preferences()
	if got := prefs.String("single.blocks"); got != blocks.Text {
		t.Errorf("preference single.blocks = %q, entry shows %q", got, blocks.Text)
	}
	// A new form on the same preferences reads the saved value back.
	again := newSettingsForm(prefs, "single.", defaultSingle())
	t.Cleanup(func() { unbindForm(again) })
	if s2, _ := again.Settings(); s2.Options["blocks"] != s.Options["blocks"] {
		t.Errorf("reloaded blocks %q, saved %q", s2.Options["blocks"], s.Options["blocks"])
	}
	// A bad value gives a one-line error naming the field.
	k := row(t, f, "k").entry
	k.SetText("many")
	if _, err := f.Settings(); err == nil || !strings.Contains(err.Error(), "Sync interval") {
		t.Errorf("bad k: %v", err)
	}
	k.SetText("10")
	// An algorithm whose GPU engine cannot run here: the GPU button is
	// disabled and the reason shown.
	f.picker.algoSelect.SetSelected("nogpu")
	if !f.picker.backendBtns[solver.BackendGPU].Disabled() {
		t.Error("GPU button enabled although nogpu cannot run on the GPU")
	}
	if !f.picker.gpuNote.Visible() || !strings.Contains(f.picker.gpuNote.Text, errNoDevice.Error()) {
		t.Errorf("GPU note %q (visible %v), want the engine's reason", f.picker.gpuNote.Text, f.picker.gpuNote.Visible())
	}
	// One whose GPU engine can run: the button is enabled, no note.
	f.picker.algoSelect.SetSelected("fake")
	if f.picker.backendBtns[solver.BackendGPU].Disabled() || f.picker.gpuNote.Visible() {
		t.Errorf("fake has a usable GPU engine: GPU button disabled %v, note %q shown %v",
			f.picker.backendBtns[solver.BackendGPU].Disabled(), f.picker.gpuNote.Text, f.picker.gpuNote.Visible())
	}
	test.Tap(f.picker.backendBtns[solver.BackendGPU])
	if got, _ := f.Settings(); got.Backend != solver.BackendGPU {
		t.Errorf("backend %q after tapping GPU", got.Backend)
	}
	test.Tap(f.picker.backendBtns[solver.BackendCPU])
	if b, _ := f.backend.Get(); b != solver.BackendCPU || prefs.String("single.backend") != "cpu" {
		t.Errorf("backend %q, saved %q", b, prefs.String("single.backend"))
	}
}

func TestCompareModeAndExport(t *testing.T) {
	ap, loads := newTestApp(t, Options{Compare: true})
	waitLoad(t, loads)
	if !ap.Compare() || len(ap.Panes()) != 2 {
		t.Fatal("compare mode not on")
	}
	// The default pair is one published method, pspm, on the CPU against
	// the GPU (this registry's GPU pspm can run).
	l, r := defaultCompare()
	for _, s := range []Settings{l, r} {
		if _, _, err := solver.Resolve(s.Algorithm, s.Backend); err != nil {
			t.Errorf("default compare pane %+v cannot run: %v", s, err)
		}
	}
	if l.Algorithm != "pspm" || r.Algorithm != "pspm" || l.Backend != solver.BackendCPU || r.Backend != solver.BackendGPU {
		t.Errorf("the defaults are %s/%s and %s/%s, want pspm/cpu and pspm/gpu", l.Algorithm, l.Backend, r.Algorithm, r.Backend)
	}
	// On an algorithm whose GPU engine cannot run, pane B says so plainly.
	ap.Right.SetSettings(Settings{Algorithm: "auto", Backend: solver.BackendGPU, Seed: 1})
	if n := ap.Right.settings.picker.gpuNote; !n.Visible() || !strings.Contains(n.Text, "No GPU here") || !strings.Contains(n.Text, errNoDevice.Error()) {
		t.Errorf("pane B does not say plainly why the GPU is not used: %q", n.Text)
	}
	ap.Left.SetSettings(fakeSettings(time.Second))
	rs := fakeSettings(time.Second)
	rs.Algorithm = "fake2"
	ap.Right.SetSettings(rs)
	if err := ap.RunCompareFor(300 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	settle(t, ap.Left)
	settle(t, ap.Right)
	for _, p := range ap.Panes() {
		res, ok := p.Runner.Result()
		if !ok || res.Params.TimeLimit != 300*time.Millisecond {
			t.Errorf("pane %s: result %v, time limit %v, want the shared 300ms budget", p.Name, ok, res.Params.TimeLimit)
		}
	}
	sum := ap.Summary()
	want := []string{"A fake/cpu", "B fake2/cpu", "moves/s"}
	for _, p := range ap.Panes() {
		_, bl := p.Runner.Best()
		g, _ := solver.GapPercent(bl, p.Instance().Optimum)
		want = append(want, fmt.Sprintf("best %s, %.2f %% above the optimum", solver.GroupDigits(strconv.FormatInt(bl, 10)), g))
	}
	for _, w := range want {
		if !strings.Contains(sum, w) {
			t.Errorf("summary %q lacks %q", sum, w)
		}
	}

	dir := t.TempDir()
	// PNG: both panes side by side in one picture.
	files, err := ap.ExportFile(filepath.Join(dir, "both.png"), ExportPNG, 300, 200)
	if err != nil {
		t.Fatal(err)
	}
	f, _ := os.Open(files[0])
	img, err := png.Decode(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 300 || b.Dy() != 200 {
		t.Errorf("compare PNG is %v, want the 300×200 asked for", b)
	}
	// SVG and PDF alike: one picture of both panes, each titled.
	files, err = ap.ExportFile(filepath.Join(dir, "both.svg"), ExportSVG, 300, 200)
	if err != nil {
		t.Fatal(err)
	}
	svg, _ := os.ReadFile(files[0])
	if n := strings.Count(string(svg), "<svg"); len(files) != 1 || n != 1 || !strings.Contains(string(svg), `width="300pt"`) || !strings.Contains(string(svg), "A fake/cpu") || !strings.Contains(string(svg), "B fake2/cpu") {
		t.Errorf("compare SVG: %v, %d <svg> elements", files, n)
	}
	files, err = ap.ExportFile(filepath.Join(dir, "both.pdf"), ExportPDF, 300, 200)
	if err != nil || len(files) != 1 || filepath.Base(files[0]) != "both.pdf" {
		t.Errorf("compare PDF: wrote %v (%v), want both.pdf alone", files, err)
	}
	// Tours, CSV and JSON: one file per pane.
	files, err = ap.ExportFile(filepath.Join(dir, "run.tour"), ExportTour, 0, 0)
	if err != nil || len(files) != 2 {
		t.Fatalf("tour export: %v %v", files, err)
	}
	tour, err := tsplib.ReadTour(files[1], ap.Right.Instance().N)
	if err != nil {
		t.Fatal(err)
	}
	if _, bl := ap.Right.Runner.Best(); solver.TourLength(ap.Right.Instance(), tour) != bl {
		t.Errorf("exported tour length %d, best %d", solver.TourLength(ap.Right.Instance(), tour), bl)
	}
	files, err = ap.ExportFile(filepath.Join(dir, "run.csv"), ExportCSV, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	csv, _ := os.ReadFile(files[0])
	if !strings.HasPrefix(string(csv), "elapsed_s,best_length\n") || strings.Count(string(csv), "\n") < 2 {
		t.Errorf("CSV %q", csv)
	}
	files, err = ap.ExportFile(filepath.Join(dir, "run.json"), ExportJSON, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var rep report.Report
	data, _ := os.ReadFile(files[0])
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Algorithm != "fake" || rep.Length <= 0 || len(rep.Tour) != ap.Left.Instance().N {
		t.Errorf("report %+v", rep)
	}

	// Back to the single view: a single PNG of the chosen size.
	ap.SetCompare(false)
	var buf bytes.Buffer
	if err := ap.Single.WriteExport(&buf, ExportPNG, 320, 240); err != nil {
		t.Fatal(err)
	}
	if img, err := png.Decode(&buf); err != nil || img.Bounds().Dx() != 320 || img.Bounds().Dy() != 240 {
		t.Errorf("single PNG: %v %v", err, img.Bounds())
	}
	if err := ap.Single.WriteExport(&buf, ExportJSON, 0, 0); err == nil {
		t.Error("JSON report of a pane that never ran succeeded")
	}
}

func TestCheckAndButtonsExist(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	test.Tap(ap.compareCheck)
	if !ap.Compare() {
		t.Error("tapping Compare did not switch to compare mode")
	}
	if !ap.FyneApp.Preferences().Bool(PrefCompare) {
		t.Error("compare mode not saved")
	}
	test.Tap(ap.compareCheck)
	if ap.Compare() {
		t.Error("tapping Compare again did not switch back")
	}
}

func TestScanTSPLIBFolder(t *testing.T) {
	dir := tsplibdir.Need(t)
	es, err := ScanFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]Entry{}
	for _, e := range es {
		byName[e.Name] = e
		if e.Err != "" {
			t.Errorf("%s: %s", e.Name, e.Err)
		}
	}
	a, ok := byName["a280"]
	if !ok {
		t.Skip("a280.tsp not in the TSPLIB folder")
	}
	if a.Dimension != 280 || a.Metric != "EUC_2D" || a.Optimum != 2579 || !a.OptTour {
		t.Errorf("a280 entry %+v, want n=280 EUC_2D optimum 2579 with an optimal tour", a)
	}
	for i := 1; i < len(es); i++ {
		if es[i].Dimension < es[i-1].Dimension {
			t.Fatalf("entries not sorted by dimension at %d", i)
		}
	}
	in, opt, err := LoadInstance(a.Path)
	if err != nil {
		t.Fatal(err)
	}
	if in.Optimum != 2579 || len(opt) != 280 || solver.TourLength(in, opt) != 2579 {
		t.Errorf("a280 loaded with optimum %d and an optimal tour of %d cities", in.Optimum, len(opt))
	}
}

// TestReadEntryFixedEdges checks that an instance with fixed edges lists
// the tour's optimum, as the loaded instance does: the table's value is the
// path between the fixed edge's ends, and the fixed edge closes it.
func TestReadEntryFixedEdges(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "fx.tsp", "NAME : fx\nTYPE : TSP\nDIMENSION : 4\nEDGE_WEIGHT_TYPE : EUC_2D\n"+
		"FIXED_EDGES_SECTION\n1 3\n-1\nNODE_COORD_SECTION\n1 0 0\n2 3 0\n3 3 4\n4 0 4\nEOF\n")
	writeFile(t, dir, "optima.csv", "name,optimum\nfx,11\n")
	e := ReadEntry(path)
	// Cities 1 and 3 are 5 apart: the tour is the path 1-2-4-3 (11) closed by it.
	if e.Optimum != 16 {
		t.Errorf("fx lists optimum %d, want 16 (path 11 + fixed edge 5)", e.Optimum)
	}
	in, err := tsplib.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if in.Optimum != e.Optimum {
		t.Errorf("loaded optimum %d, browser lists %d", in.Optimum, e.Optimum)
	}
}
