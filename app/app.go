// Package app is TSP Lab's desktop user interface (Fyne): the instance
// browser (browser.go, files.go; point lists and pictures for TSP art in
// points.go), a run's pane (pane.go, its widgets in panewidgets.go), its
// settings (the values in settingsvalues.go, the form in settings.go, its
// widgets in settingswidgets.go), compare mode (compare.go), the host's
// GPUs a run uses and compare mode's share of them (gpus.go), export and
// screenshots, and the text the bundled font can draw (glyphs.go), over
// the engines the program registers and solver/session.
package app

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/data/binding"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/tsplab/tsplab/assets"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/report"
	"github.com/tsplab/tsplab/solver/session"
)

// ID is the application ID, as in FyneApp.toml.
const ID = "io.github.tsplab.tsplab"

// Preferences keys of the app itself (pane settings live under "single.", "left." and "right.").
const (
	PrefRecent  = "recent"   // recent files, newest first
	PrefFolder  = "folder"   // the folder last opened
	PrefFolders = "folders"  // folders in the source menu, newest first
	PrefCompare = "compare"  // compare mode on
	PrefBudget  = "budget_s" // compare mode's shared time budget, seconds
)

// How many recent files and folders are remembered.
const (
	MaxRecent  = 12
	MaxFolders = 8
)

// Icon is the application icon as a Fyne resource.
var Icon = fyne.NewStaticResource("icon.png", assets.IconPNG)

// Options are the command line's choices.
type Options struct {
	Open string // an instance file or a picture, or the name of a bundled sample
	// ArtPoints is the points a picture given to Open becomes (0: DefaultArtPoints), without asking.
	ArtPoints int
	Algo      string        // algorithm for the single pane (empty: keep the saved one)
	Backend   string        // backend for the single pane
	A, B      string        // compare mode's panes as "ALGORITHM/BACKEND", e.g. "auto/gpu" (an empty part: the saved one)
	Run       time.Duration // once the first instance is loaded, run the panes on screen with this budget (0: no)
	Compare   bool          // open in compare mode
	Size      fyne.Size     // if not zero, the window's size (screenshots)
	// Path is the single pane's route: RouteTour, RouteOpen or "A,B" (empty: the saved one).
	Path string
	// OnLoad, if set, is called on the Fyne goroutine after every load.
	OnLoad func(*solver.Instance, error)
}

// App is the TSP Lab window and everything in it.
type App struct {
	FyneApp fyne.App
	Win     fyne.Window
	prefs   fyne.Preferences

	Single      *Pane
	Left, Right *Pane

	allEntries []Entry // what the source holds
	entries    []Entry // what the list shows: the search's matches, sorted
	picture    *Entry  // the picture opened as TSP art, listed while on screen
	search     *widget.Entry
	sortBy     *widget.Select
	current    string // the path of the instance on screen
	checkSeq   int    // the newest list's background check
	list       *widget.List
	selected   int
	source     *widget.Select
	showing    string            // what the list shows: a source or a folder's label
	folderOf   map[string]string // folder label in the source menu -> path
	samplesDir string
	loadSeq    int
	message    *widget.Label // loading news or the last reader error
	onLoad     []func(*solver.Instance, error)

	compare      bool
	compareCheck *widget.Check
	exportBtn    *widget.Button // enabled while a pane on screen has a tour
	openTourBtn  *widget.Button // enabled while an instance is loaded
	body         *fyne.Container
	singleView   fyne.CanvasObject
	compareView  fyne.CanvasObject
	budget       binding.String // the budget field's text (budgetField's value)
	budgetField  *savedField    // compare mode's shared budget, saved only while valid
	runBoth      *widget.Button
	summary      *widget.Label // compare mode's summary
	summaryDue   atomic.Bool   // an update of the summary is queued
	compareRun   int           // how many compare runs have started
	seeds        seedSpread    // the same engine's results by seed
}

// Sources of the instance list, besides the folders the user opened.
const (
	SourceSamples = "Bundled samples"
	SourceRecent  = "Recent files"
)

// New builds the main window of a and applies opts; it does not show it.
func New(a fyne.App, opts Options) *App {
	a.SetIcon(Icon)
	a.Settings().SetTheme(NewTheme(a.Settings().Theme()))
	ap := &App{FyneApp: a, prefs: a.Preferences(), selected: -1}
	ap.Win = a.NewWindow("TSP Lab")
	if opts.Run > 0 {
		first := true
		ap.onLoad = append(ap.onLoad, func(in *solver.Instance, err error) {
			if first && err == nil {
				if rerr := ap.RunFor(opts.Run); rerr != nil {
					showErrorDialog(rerr, ap.Win)
				}
			}
			first = false
		})
	}
	if opts.OnLoad != nil {
		ap.onLoad = append(ap.onLoad, opts.OnLoad)
	}
	ap.Win.SetIcon(Icon)
	if err := ap.guardInputs(); err != nil {
		fyne.LogError("guarding the files read against exports", err)
	}
	ap.buildPanes(opts)

	ap.Win.SetContent(ap.build())
	ap.Win.Resize(fyne.NewSize(1400, 880))
	if !opts.Size.IsZero() {
		ap.Win.Resize(opts.Size)
	}
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
	ap.openFirst(opts.Open, opts.ArtPoints)
	return ap
}

// buildPanes makes the single pane and the compare pair with opts' engines, budget and summary.
func (a *App) buildPanes(opts Options) {
	a.Single = NewPane("single", a.prefs, defaultSingle(), a.Win)
	l, r := defaultCompare()
	a.Left = NewPane("left", a.prefs, l, a.Win)
	a.Right = NewPane("right", a.prefs, r, a.Win)
	// one pipeline for the window's runs, whose bounds and alpha lists share its ascents
	pl := new(session.Pipeline)
	for _, p := range []*Pane{a.Single, a.Left, a.Right} {
		p.Runner.Pipeline = pl
	}
	a.Single.choose(opts.Algo, opts.Backend)
	a.Single.chooseRoute(opts.Path)
	for _, c := range []struct {
		p      *Pane
		choice string
	}{{a.Left, opts.A}, {a.Right, opts.B}} {
		algo, backend, _ := strings.Cut(c.choice, "/")
		c.p.choose(algo, backend)
	}
	a.budgetField = newSavedField(a.prefs, PrefBudget, "10", func(s string) error { _, err := parseBudget(s); return err })
	a.budget = a.budgetField.value
	a.summary = newWrapLabel("Run both to compare: same instance, same time budget.")
	for _, p := range []*Pane{a.Left, a.Right} {
		p.OnUpdate = func(*Pane, session.Progress) { a.updateSummary() }
		p.budget = a.compareBudget
		p.settings.SetSharedBudget(true)
	}
	a.linkPanes()
}

// openFirst opens the file or bundled sample arg names (a picture becomes TSP art), else the list's first instance.
func (a *App) openFirst(arg string, points int) {
	if arg == "" {
		if len(a.entries) > 0 {
			a.Select(0)
		}
		return
	}
	p := resolveOpen(a.samplesDir, arg)
	if isImageFile(p) {
		// A picture is no folder's instance file: the list keeps the last folder opened.
		if dir := a.prefs.String(PrefFolder); dir != "" && dir != a.samplesDir {
			if st, err := os.Stat(dir); err == nil && st.IsDir() {
				a.ShowSource(dir)
			}
		}
		a.OpenPicture(p, cmp.Or(points, DefaultArtPoints))
		return
	}
	if a.samplesDir != "" && filepath.Dir(p) == a.samplesDir {
		a.Open(p)
	} else {
		a.OpenFile(p)
	}
}

// defaultSingle is the single pane's first-run settings: the strongest engine, wherever it runs best.
func defaultSingle() Settings {
	return Settings{Algorithm: firstRegistered("auto", "pspm", "sspm"), Backend: solver.BackendAuto, TimeLimit: solver.DefaultTimeLimit, Seed: 1}
}

// defaultCompare is compare mode's first pair: PSPM on the CPU against the GPU, whose
// moves per second then give the GPU's speed-up.
func defaultCompare() (Settings, Settings) {
	algo := firstRegistered("pspm", "auto", "sspm")
	l := Settings{Algorithm: algo, Backend: solver.BackendCPU, TimeLimit: solver.DefaultTimeLimit, Seed: 1}
	r := Settings{Algorithm: algo, Backend: solver.BackendGPU, TimeLimit: solver.DefaultTimeLimit, Seed: 1}
	if GPUStatus(algo) != nil {
		r.Backend, r.Seed = solver.BackendAuto, 2
	}
	return l, r
}

// firstRegistered returns the first of names with a CPU engine, or the first name.
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

// resolveOpen turns --open into a path: a file, or a bundled sample's name ("clustered-1000", "portrait").
func resolveOpen(samplesDir, arg string) string {
	if _, err := os.Stat(arg); err == nil || samplesDir == "" {
		return arg
	}
	base := filepath.Base(arg)
	for _, ext := range []string{".tsp", ".png"} {
		p := filepath.Join(samplesDir, strings.TrimSuffix(base, ext)+ext)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return arg
}

func (a *App) build() fyne.CanvasObject {
	browser := a.browserView()

	// Centre: one pane, or two.
	a.singleView = container.NewHSplit(a.Single.View, a.Single.Side())
	a.singleView.(*container.Split).Offset = 0.6

	a.compareView = a.compareViewObject()

	a.compareCheck = widget.NewCheck("Compare", func(on bool) { a.SetCompare(on) })
	a.exportBtn = widget.NewButtonWithIcon("Export…", theme.DocumentSaveIcon(), a.exportDialog)
	a.exportBtn.Disable()
	a.openTourBtn = widget.NewButtonWithIcon("Open tour…", theme.FolderOpenIcon(), a.openTourDialog)
	a.openTourBtn.Disable()
	a.Single.onState = a.refreshExport
	for _, p := range []*Pane{a.Left, a.Right} {
		// The summary follows every change of a compare pane.
		p.onState = func() { a.refreshExport(); a.summaryLater() }
	}
	about := widget.NewButtonWithIcon("", theme.InfoIcon(), a.aboutDialog)
	top := container.NewHBox(a.compareCheck, a.exportBtn, a.openTourBtn, layout.NewSpacer(), about)

	a.body = container.NewStack(a.singleView)
	split := container.NewHSplit(browser, container.NewBorder(top, nil, nil, nil, a.body))
	split.Offset = 0.2
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
	view := a.singleView
	if on {
		view = a.compareView
	}
	a.body.Objects = []fyne.CanvasObject{view}
	a.body.Refresh()
	a.refreshExport()
}

// refreshExport enables Export while a pane on screen has a tour (a run's, or an opened one).
func (a *App) refreshExport() {
	if a.exportBtn == nil {
		return
	}
	has := false
	for _, p := range a.Panes() {
		if t, _ := p.Runner.Best(); t != nil || p.hasStart.Load() {
			has = true
		}
	}
	enable(a.exportBtn, has)
}

// Panes returns the panes on screen: the single one, or both compare panes.
func (a *App) Panes() []*Pane {
	if a.compare {
		return []*Pane{a.Left, a.Right}
	}
	return []*Pane{a.Single}
}

// RunFor starts the panes on screen with time budget d (tsplab --run), shown in the form but not saved.
func (a *App) RunFor(d time.Duration) error {
	if a.compare {
		if d > 0 {
			a.budgetField.Show(formatFloat(d.Seconds()))
		}
		return a.RunCompareFor(d)
	}
	return a.Single.RunFor(d)
}

// Running reports whether any pane is running.
func (a *App) Running() bool {
	return slices.ContainsFunc([]*Pane{a.Single, a.Left, a.Right}, func(p *Pane) bool { return p.Runner.State() == session.Running })
}

// RunLines describes each pane's last run from its record, a line each (tsplab prints them after --run).
func (a *App) RunLines() []string {
	var out []string
	for i, p := range a.Panes() {
		rep, in, err := p.record(true)
		if err != nil {
			continue
		}
		name := p.Name
		if a.compare {
			name = string(rune('A' + i))
		}
		had := ""
		p.mu.Lock()
		if p.cores > 0 {
			had = fmt.Sprintf(" on %d of %s", p.cores, report.Plural(runtime.NumCPU(), "core"))
		}
		p.mu.Unlock()
		out = append(out, fmt.Sprintf("%s %s/%s (seed %d%s): length %s, %s moves in %.2f s, %s moves/s, stopped: %s",
			name, rep.Algorithm, rep.Backend, rep.Seed, had, in.HumanLength(rep.LengthScaled), FormatCount(float64(rep.MovesEvaluated)),
			rep.ElapsedSeconds, FormatCount(rep.MovesPerSecond), rep.StopReason))
	}
	return out
}
