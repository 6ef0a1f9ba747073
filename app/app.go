// Package app is TSP Lab's desktop user interface (Fyne): an instance
// browser, the live tour canvas, solver controls, CPU against GPU compare
// panes and export. The engines come from the solver registry; importing
// the CPU engines and the gpu package registers them.
package app

import (
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/data/binding"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/software"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/tsplab/tsplab/assets"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/tsplib"

	// The CPU engines register themselves; the gpu package registers the
	// CUDA engines (stubs that say why they are unavailable without CUDA).
	_ "github.com/tsplab/tsplab/gpu"
	_ "github.com/tsplab/tsplab/solver/cpu"
)

// ID is the application ID, as in FyneApp.toml; Preferences are stored
// under it.
const ID = "io.github.tsplab.tsplab"

// Preferences keys of the app itself (pane settings live under
// "single.", "left." and "right.").
const (
	PrefRecent    = "recent"     // recent files, newest first
	PrefFolder    = "folder"     // the folder last opened
	PrefCompare   = "compare"    // compare mode on
	PrefTargetGap = "target_gap" // compare mode's target gap, percent
	PrefBudget    = "budget_s"   // compare mode's shared time budget, seconds
)

// MaxRecent is how many recent files are remembered.
const MaxRecent = 12

// Icon is the application icon as a Fyne resource.
var Icon = fyne.NewStaticResource("icon.png", assets.IconPNG)

// Options are the command line's choices.
type Options struct {
	Open    string        // a .tsp file, or the name of a bundled sample
	Algo    string        // algorithm for the single pane (empty: keep the saved one)
	Backend string        // backend for the single pane
	Run     time.Duration // once the first instance is loaded, run the panes on screen with this budget (0: no)
	Compare bool          // open in compare mode
	// OnLoad, if set, is called on the Fyne goroutine after every load,
	// the first one included (see App.OnLoad).
	OnLoad func(*solver.Instance, error)
}

// App is the TSP Lab window and everything in it.
type App struct {
	FyneApp fyne.App
	Win     fyne.Window
	prefs   fyne.Preferences

	Single      *Pane
	Left, Right *Pane

	entries    []Entry
	list       *widget.List
	selected   int
	source     *widget.Select
	folder     string
	samplesDir string
	loadSeq    int
	loading    binding.String
	onLoad     []func(*solver.Instance, error)

	compare      bool
	compareCheck *widget.Check
	body         *fyne.Container
	singleView   fyne.CanvasObject
	compareView  fyne.CanvasObject
	budget       binding.String
	targetGap    binding.String
	summary      binding.String
}

// Sources of the instance list.
const (
	SourceSamples = "Bundled samples"
	SourceFolder  = "Folder"
	SourceRecent  = "Recent files"
)

// New builds the main window of a (see fyne.App) and applies opts. It
// does not show the window.
func New(a fyne.App, opts Options) *App {
	a.SetIcon(Icon)
	ap := &App{FyneApp: a, prefs: a.Preferences(), selected: -1}
	ap.Win = a.NewWindow("TSP Lab")
	if opts.Run > 0 {
		first := true
		ap.onLoad = append(ap.onLoad, func(in *solver.Instance, err error) {
			if first && err == nil {
				if rerr := ap.RunFor(opts.Run); rerr != nil {
					dialog.ShowError(rerr, ap.Win)
				}
			}
			first = false
		})
	}
	if opts.OnLoad != nil {
		ap.onLoad = append(ap.onLoad, opts.OnLoad)
	}
	ap.Win.SetIcon(Icon)
	ap.loading = binding.NewString()

	ap.Single = NewPane("single", ap.prefs, defaultSingle(), ap.Win)
	l, r := defaultCompare()
	ap.Left = NewPane("left", ap.prefs, l, ap.Win)
	ap.Right = NewPane("right", ap.prefs, r, ap.Win)
	if opts.Algo != "" || opts.Backend != "" {
		s, _ := ap.Single.Settings()
		if opts.Algo != "" {
			s.Algorithm = opts.Algo
		}
		if opts.Backend != "" {
			s.Backend = opts.Backend
		}
		ap.Single.SetSettings(s)
	}
	ap.budget = binding.BindPreferenceString(PrefBudget, ap.prefs)
	if v, _ := ap.budget.Get(); v == "" {
		_ = ap.budget.Set("10")
	}
	ap.targetGap = binding.BindPreferenceString(PrefTargetGap, ap.prefs)
	if v, _ := ap.targetGap.Get(); v == "" {
		_ = ap.targetGap.Set("5")
	}
	ap.summary = binding.NewString()
	_ = ap.summary.Set("Run both to compare: same instance, same time budget.")
	for _, p := range []*Pane{ap.Left, ap.Right} {
		p.OnUpdate = func(*Pane, Progress) { ap.updateSummary() }
	}

	ap.Win.SetContent(ap.build())
	ap.Win.Resize(fyne.NewSize(1400, 880))
	ap.Win.SetMaster()
	ap.Win.SetOnDropped(ap.dropped)
	ap.Win.Canvas().SetOnTypedKey(ap.typedKey)

	if dir, err := ExtractSamples(SamplesDir()); err == nil {
		ap.samplesDir = dir
	} else {
		fyne.LogError("extracting the bundled samples", err)
	}
	ap.SetCompare(opts.Compare || (opts.Open == "" && ap.prefs.Bool(PrefCompare)))
	ap.ShowSource(SourceSamples)
	if opts.Open != "" {
		ap.Open(ap.resolveOpen(opts.Open))
	} else if len(ap.entries) > 0 {
		ap.Select(0)
	}
	return ap
}

// defaultSingle is the single pane's first-run settings: the strongest
// combination, wherever it runs best.
func defaultSingle() Settings {
	return Settings{Algorithm: firstRegistered("auto", "pspm", "sspm"), Backend: solver.BackendAuto, TimeLimit: 10 * time.Second, Seed: 1}
}

// defaultCompare is compare mode's first-run pair: CPU sspm against GPU
// pspm, or on a machine without a usable GPU two CPU engines (sspm
// against auto).
func defaultCompare() (Settings, Settings) {
	l := Settings{Algorithm: firstRegistered("sspm", "sa", "pspm"), Backend: solver.BackendCPU, TimeLimit: 10 * time.Second, Seed: 1}
	r := Settings{Algorithm: "pspm", Backend: solver.BackendGPU, TimeLimit: 10 * time.Second, Seed: 1}
	if GPUStatus("pspm") != nil {
		r.Algorithm, r.Backend = firstRegistered("auto", "pspm", "pssm"), solver.BackendCPU
	}
	return l, r
}

// firstRegistered returns the first of names with a CPU engine, or the
// first name.
func firstRegistered(names ...string) string {
	for _, n := range names {
		if _, err := solver.Lookup(n, solver.BackendCPU); err == nil {
			return n
		}
	}
	if algos := solver.Algorithms(); len(algos) > 0 {
		return algos[0]
	}
	return names[0]
}

// resolveOpen turns the --open argument into a path: a file, or the name
// of a bundled sample ("clustered-1000", "clustered-1000.tsp").
func resolveOpen(samplesDir, arg string) string {
	if _, err := os.Stat(arg); err == nil || samplesDir == "" {
		return arg
	}
	p := filepath.Join(samplesDir, strings.TrimSuffix(filepath.Base(arg), ".tsp")+".tsp")
	if _, err := os.Stat(p); err == nil {
		return p
	}
	return arg
}

func (a *App) resolveOpen(arg string) string { return resolveOpen(a.samplesDir, arg) }

func (a *App) build() fyne.CanvasObject {
	// Left: the instance browser.
	a.source = widget.NewSelect([]string{SourceSamples, SourceFolder, SourceRecent}, func(s string) { a.ShowSource(s) })
	openFile := widget.NewButtonWithIcon("Open file…", theme.FileIcon(), a.openFileDialog)
	openFolder := widget.NewButtonWithIcon("Open folder…", theme.FolderOpenIcon(), a.openFolderDialog)
	a.list = widget.NewList(
		func() int { return len(a.entries) },
		func() fyne.CanvasObject {
			name := widget.NewLabel("instance")
			name.TextStyle = fyne.TextStyle{Bold: true}
			name.Truncation = fyne.TextTruncateEllipsis
			info := widget.NewLabel("n · type · optimum")
			info.Importance = widget.LowImportance
			info.Truncation = fyne.TextTruncateEllipsis
			return container.NewVBox(name, info)
		},
		func(id widget.ListItemID, o fyne.CanvasObject) {
			if id >= len(a.entries) {
				return
			}
			box := o.(*fyne.Container)
			box.Objects[0].(*widget.Label).SetText(a.entries[id].Name)
			box.Objects[1].(*widget.Label).SetText(a.entries[id].Summary())
		},
	)
	a.list.OnSelected = func(id widget.ListItemID) {
		if id != a.selected {
			a.selected = id
			a.Open(a.entries[id].Path)
		}
	}
	loading := widget.NewLabelWithData(a.loading)
	loading.Wrapping = fyne.TextWrapWord
	loading.Importance = widget.LowImportance
	browser := container.NewBorder(
		container.NewVBox(a.source, container.NewGridWithColumns(2, openFile, openFolder)),
		loading, nil, nil, a.list)

	// Centre: one pane, or two.
	a.singleView = container.NewHSplit(a.Single.View, a.Single.Side())
	a.singleView.(*container.Split).Offset = 0.68

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
	a.compareView = container.NewBorder(bar, nil, nil, nil,
		container.NewGridWithColumns(2, a.Left.Compact("A"), a.Right.Compact("B")))

	a.compareCheck = widget.NewCheck("Compare", func(on bool) { a.SetCompare(on) })
	export := widget.NewButtonWithIcon("Export…", theme.DocumentSaveIcon(), a.exportDialog)
	top := container.NewHBox(a.compareCheck, export)

	a.body = container.NewStack(a.singleView)
	split := container.NewHSplit(browser, container.NewBorder(top, nil, nil, nil, a.body))
	split.Offset = 0.17
	return split
}

// SetCompare switches between the single view and compare mode.
func (a *App) SetCompare(on bool) {
	if a.compare == on && a.body.Objects != nil && len(a.body.Objects) == 1 &&
		((on && a.body.Objects[0] == a.compareView) || (!on && a.body.Objects[0] == a.singleView)) {
		return
	}
	a.compare = on
	a.prefs.SetBool(PrefCompare, on)
	if a.compareCheck.Checked != on {
		a.compareCheck.SetChecked(on)
	}
	if on {
		a.body.Objects = []fyne.CanvasObject{a.compareView}
	} else {
		a.body.Objects = []fyne.CanvasObject{a.singleView}
	}
	a.body.Refresh()
}

// Compare reports whether compare mode is on.
func (a *App) Compare() bool { return a.compare }

// Panes returns the panes on screen: the single one, or both compare
// panes.
func (a *App) Panes() []*Pane {
	if a.compare {
		return []*Pane{a.Left, a.Right}
	}
	return []*Pane{a.Single}
}

// ShowSource fills the list from the bundled samples, the last folder or
// the recent files.
func (a *App) ShowSource(src string) {
	var entries []Entry
	var err error
	switch src {
	case SourceSamples:
		if a.samplesDir != "" {
			entries, err = ScanFolder(a.samplesDir)
		}
	case SourceFolder:
		a.folder = a.prefs.String(PrefFolder)
		if a.folder != "" {
			entries, err = ScanFolder(a.folder)
		}
	case SourceRecent:
		for _, p := range a.prefs.StringList(PrefRecent) {
			e, herr := ReadHeader(p)
			if herr != nil {
				e.Err = herr.Error()
			}
			e.Optimum = optimaFor(filepath.Dir(p))[e.Name]
			e.OptTour = tsplib.OptTourPath(p, nil) != ""
			entries = append(entries, e)
		}
	}
	if err != nil {
		dialog.ShowError(err, a.Win)
	}
	a.setEntries(entries)
	if a.source.Selected != src {
		a.source.SetSelected(src)
	}
}

func (a *App) setEntries(entries []Entry) {
	a.entries = entries
	a.selected = -1
	a.list.UnselectAll()
	a.list.Refresh()
}

// Entries returns the listed instances.
func (a *App) Entries() []Entry { return a.entries }

// Select selects list entry i and shows its instance.
func (a *App) Select(i int) {
	if i < 0 || i >= len(a.entries) {
		return
	}
	a.list.Select(i)
	a.list.ScrollTo(i)
}

// typedKey moves through the list with the arrow keys.
func (a *App) typedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyDown:
		a.Select(a.selected + 1)
	case fyne.KeyUp:
		if a.selected > 0 {
			a.Select(a.selected - 1)
		}
	}
}

// ShowFolder lists every .tsp file in dir and remembers it.
func (a *App) ShowFolder(dir string) {
	a.prefs.SetString(PrefFolder, dir)
	a.ShowSource(SourceFolder)
}

func (a *App) openFileDialog() {
	d := dialog.NewFileOpen(func(rc fyne.URIReadCloser, err error) {
		if err != nil {
			dialog.ShowError(err, a.Win)
			return
		}
		if rc == nil {
			return
		}
		path := rc.URI().Path()
		rc.Close()
		a.Open(path)
	}, a.Win)
	d.SetFilter(storage.NewExtensionFileFilter([]string{".tsp"}))
	if dir := a.prefs.String(PrefFolder); dir != "" {
		if l, err := storage.ListerForURI(storage.NewFileURI(dir)); err == nil {
			d.SetLocation(l)
		}
	}
	d.Resize(fyne.NewSize(800, 560))
	d.Show()
}

func (a *App) openFolderDialog() {
	d := dialog.NewFolderOpen(func(l fyne.ListableURI, err error) {
		if err != nil {
			dialog.ShowError(err, a.Win)
			return
		}
		if l != nil {
			a.ShowFolder(l.Path())
		}
	}, a.Win)
	d.Resize(fyne.NewSize(800, 560))
	d.Show()
}

// dropped opens the .tsp files dropped onto the window: they join the
// recent files, which the list then shows; the first is opened.
func (a *App) dropped(_ fyne.Position, uris []fyne.URI) {
	var paths []string
	for _, u := range uris {
		if strings.EqualFold(u.Extension(), ".tsp") && u.Scheme() == "file" {
			paths = append(paths, u.Path())
		}
	}
	if len(paths) == 0 {
		dialog.ShowInformation("Not a TSPLIB file", "Drop .tsp files to open them.", a.Win)
		return
	}
	for i := len(paths) - 1; i >= 0; i-- {
		a.addRecent(paths[i])
	}
	a.ShowSource(SourceRecent)
	a.Select(0)
}

func (a *App) addRecent(path string) {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	list := []string{path}
	for _, p := range a.prefs.StringList(PrefRecent) {
		if p != path && len(list) < MaxRecent {
			list = append(list, p)
		}
	}
	a.prefs.SetStringList(PrefRecent, list)
}

// Open loads the instance at path in the background and shows it in every
// pane; a reader error is shown in a dialog. Only the newest of several
// quick Opens (arrowing through a folder) is shown.
func (a *App) Open(path string) {
	a.loadSeq++
	seq := a.loadSeq
	_ = a.loading.Set("loading " + filepath.Base(path) + "…")
	go func() {
		in, opt, err := LoadInstance(path)
		uiDo(func() {
			if seq != a.loadSeq {
				return
			}
			a.loaded(path, in, opt, err)
		})
	}()
}

// OnLoad registers f to be called on the Fyne goroutine after every
// Open, with the instance or the error.
func (a *App) OnLoad(f func(*solver.Instance, error)) { a.onLoad = append(a.onLoad, f) }

func (a *App) loaded(path string, in *solver.Instance, opt []int, err error) {
	if err != nil {
		_ = a.loading.Set("")
		dialog.ShowError(err, a.Win)
	} else {
		_ = a.loading.Set("")
		if !strings.HasPrefix(path, a.samplesDir+string(filepath.Separator)) || a.samplesDir == "" {
			a.addRecent(path)
		}
		for _, p := range []*Pane{a.Single, a.Left, a.Right} {
			p.SetInstance(in, opt)
		}
		a.Win.SetTitle("TSP Lab — " + in.Name)
	}
	for _, f := range a.onLoad {
		f(in, err)
	}
}

// LoadInstance reads a TSPLIB file with its known optimum, and its
// optimal tour when an .opt.tour lies beside it (nil otherwise; a broken
// optimal tour is ignored).
func LoadInstance(path string) (*solver.Instance, []int, error) {
	in, err := tsplib.Load(path)
	if err != nil {
		return nil, nil, err
	}
	var opt []int
	if p := tsplib.OptTourPath(path, in); p != "" {
		if t, err := tsplib.ReadTour(p, in.N); err == nil {
			opt = t
			if !in.HasOptimum() {
				in.Optimum, in.OptimumSource = solver.TourLength(in, t), p
			}
		}
	}
	return in, opt, nil
}

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
func CompareSummary(l, r Progress, lp, rp *Pane) string {
	name := func(pr Progress, def string) string {
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

// RunFor starts the panes on screen with time budget d: the single pane,
// or both compare panes together.
func (a *App) RunFor(d time.Duration) error {
	if a.compare {
		return a.RunCompareFor(d)
	}
	return a.Single.RunFor(d)
}

// Running reports whether any pane is running.
func (a *App) Running() bool {
	for _, p := range []*Pane{a.Single, a.Left, a.Right} {
		if p.Runner.State() == Running {
			return true
		}
	}
	return false
}

// Capture returns the window's picture: window.Canvas().Capture(). When
// the OpenGL read-back gives a blank image (Mesa's software GL under
// Xvfb reads an empty front buffer), it renders the same content at the
// same size with Fyne's software painter instead, and says so in the
// second result.
func (a *App) Capture() (image.Image, string) {
	img := a.Win.Canvas().Capture()
	if !Uniform(img) {
		return img, ""
	}
	content := a.Win.Content()
	size := a.Win.Canvas().Size()
	c := software.NewCanvas()
	c.SetScale(a.Win.Canvas().Scale())
	c.SetContent(content)
	c.Resize(size)
	img = c.Capture()
	a.Win.SetContent(content)
	return img, "the OpenGL read-back was blank; rendered the window's content with the software painter"
}

// Uniform reports whether every pixel of img has the same colour.
func Uniform(img image.Image) bool {
	b := img.Bounds()
	if b.Empty() {
		return true
	}
	r0, g0, b0, a0 := img.At(b.Min.X, b.Min.Y).RGBA()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bb, aa := img.At(x, y).RGBA()
			if r != r0 || g != g0 || bb != b0 || aa != a0 {
				return false
			}
		}
	}
	return true
}

// SaveScreenshot writes the window as a PNG file.
func SaveScreenshot(img image.Image, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return fmt.Errorf("%s: %v", path, err)
	}
	return f.Close()
}
