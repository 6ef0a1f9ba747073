package app

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/data/binding"
	"fyne.io/fyne/v2/widget"

	"github.com/tsplab/tsplab/solver"
)

// Help texts of the solver settings: what each one means in PSPM (Lam et
// al.'s parallel searches, parallel moves simulated annealing).
const (
	HelpBlocks  = "parallel searches (PSPM thread blocks, TB); 0 = engine default"
	HelpThreads = "moves tried in parallel per search per iteration (PSPM threads per block, TPB)"
	HelpK       = "sync interval: every k temperature steps all searches restart from the global best (Se)"
	HelpT0      = "start temperature of the annealing schedule; 0 = engine default"
	HelpTEnd    = "temperature at which the schedule ends; 0 = engine default"
	HelpAlpha   = "cooling: T is multiplied by alpha (0 < alpha < 1) every temperature step"
	HelpTime    = "seconds before the run stops; 0 = the schedule alone decides"
	HelpSeed    = "random seed; the same seed repeats a run"
)

// Settings are one pane's solver choices, persisted in Preferences.
type Settings struct {
	Algorithm string
	Backend   string
	Blocks    int
	Threads   int
	K         int
	T0        float64
	TEnd      float64
	Alpha     float64
	TimeLimit time.Duration
	Seed      uint64
}

// Params turns s into the engine parameters.
func (s Settings) Params() solver.Params {
	return solver.Params{
		Algorithm: s.Algorithm, Backend: s.Backend,
		Blocks: s.Blocks, Threads: s.Threads, K: s.K,
		T0: s.T0, TEnd: s.TEnd, Alpha: s.Alpha,
		TimeLimit: s.TimeLimit, Seed: s.Seed,
	}
}

// Validate returns a one-line error naming the first bad setting.
func (s Settings) Validate() error {
	switch {
	case s.Algorithm == "":
		return fmt.Errorf("settings: no algorithm chosen")
	case s.Blocks < 0:
		return fmt.Errorf("settings: blocks %d is negative", s.Blocks)
	case s.Threads < 0:
		return fmt.Errorf("settings: threads per block %d is negative", s.Threads)
	case s.K < 0:
		return fmt.Errorf("settings: sync interval k %d is negative", s.K)
	case s.T0 < 0 || s.TEnd < 0:
		return fmt.Errorf("settings: temperatures must not be negative")
	case s.T0 > 0 && s.TEnd > s.T0:
		return fmt.Errorf("settings: end temperature %g is above the start %g", s.TEnd, s.T0)
	case s.Alpha < 0 || s.Alpha >= 1:
		return fmt.Errorf("settings: alpha %g is not in [0, 1) (0 = engine default)", s.Alpha)
	case s.TimeLimit < 0:
		return fmt.Errorf("settings: time limit is negative")
	}
	return nil
}

// settingsForm is the editable, persisted form of one pane's Settings.
// Every field is a data binding onto a Preferences key under prefix, so a
// change is saved the moment it is made.
type settingsForm struct {
	prefix string

	algorithm binding.String
	backend   binding.String
	blocks    binding.String
	threads   binding.String
	k         binding.String
	t0        binding.String
	tEnd      binding.String
	alpha     binding.String
	timeLimit binding.String
	seed      binding.String

	algoSelect  *widget.Select
	algoHelp    *widget.Label
	backendBtns map[string]*widget.Button
	backendRow  *fyne.Container
	gpuNote     *widget.Label
	form        *widget.Form // blocks, threads, k, time limit
	more        *widget.Form // schedule and seed
	entries     []*widget.Entry
}

// Backend choices in the order the buttons show them.
var backends = []string{solver.BackendCPU, solver.BackendGPU, solver.BackendAuto}

// newSettingsForm binds the form to prefs under prefix ("single.",
// "left.", "right.") with def for keys never saved.
func newSettingsForm(prefs fyne.Preferences, prefix string, def Settings) *settingsForm {
	str := func(key, d string) binding.String {
		if prefs.String(prefix+key) == "" {
			prefs.SetString(prefix+key, d)
		}
		return binding.BindPreferenceString(prefix+key, prefs)
	}
	f := &settingsForm{prefix: prefix}
	f.algorithm = str("algorithm", def.Algorithm)
	f.backend = str("backend", def.Backend)
	f.blocks = str("blocks", strconv.Itoa(def.Blocks))
	f.threads = str("threads", strconv.Itoa(def.Threads))
	f.k = str("k", strconv.Itoa(def.K))
	f.t0 = str("t0", formatFloat(def.T0))
	f.tEnd = str("tend", formatFloat(def.TEnd))
	f.alpha = str("alpha", formatFloat(def.Alpha))
	f.timeLimit = str("time_limit_s", formatFloat(def.TimeLimit.Seconds()))
	f.seed = str("seed", strconv.FormatUint(def.Seed, 10))
	f.build()
	return f
}

func formatFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func (f *settingsForm) build() {
	algos := solver.Algorithms()
	f.algoHelp = widget.NewLabel("")
	f.algoHelp.Wrapping = fyne.TextWrapWord
	f.algoHelp.Importance = widget.LowImportance
	f.algoSelect = widget.NewSelect(algos, func(a string) {
		_ = f.algorithm.Set(a)
		f.refreshBackend()
	})
	f.backendBtns = map[string]*widget.Button{}
	var btns []fyne.CanvasObject
	for _, b := range backends {
		b := b
		btn := widget.NewButton(strings.ToUpper(b[:1])+b[1:], func() {
			_ = f.backend.Set(b)
			f.refreshBackend()
		})
		f.backendBtns[b] = btn
		btns = append(btns, btn)
	}
	f.gpuNote = widget.NewLabel("")
	f.gpuNote.Wrapping = fyne.TextWrapWord
	f.gpuNote.Importance = widget.WarningImportance

	entry := func(b binding.String, placeholder string) *widget.Entry {
		e := widget.NewEntryWithData(b)
		e.SetPlaceHolder(placeholder)
		f.entries = append(f.entries, e)
		return e
	}
	item := func(label string, w fyne.CanvasObject, hint string) *widget.FormItem {
		it := widget.NewFormItem(label, w)
		it.HintText = hint
		return it
	}
	blocks := item("Blocks", entry(f.blocks, "0"), HelpBlocks)
	threads := item("Threads/block", entry(f.threads, "0"), HelpThreads)
	k := item("Sync k", entry(f.k, "0"), HelpK)
	t0 := item("T0", entry(f.t0, "0"), HelpT0)
	tEnd := item("T end", entry(f.tEnd, "0"), HelpTEnd)
	alpha := item("Alpha", entry(f.alpha, "0"), HelpAlpha)
	timeLimit := item("Time limit (s)", entry(f.timeLimit, "10"), HelpTime)
	seed := item("Seed", entry(f.seed, "1"), HelpSeed)
	// The controls a user changes from run to run come first; the
	// annealing schedule and the seed are folded below.
	f.form = widget.NewForm(blocks, threads, k, timeLimit)
	f.more = widget.NewForm(t0, tEnd, alpha, seed)
	f.backendRow = container.NewGridWithColumns(3, btns...)
	if a, _ := f.algorithm.Get(); a != "" {
		if !contains(algos, a) && len(algos) > 0 {
			a = algos[0]
		}
		f.algoSelect.SetSelected(a)
	}
	f.refreshBackend()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// GPUStatus says whether algorithm can run on the GPU here: nil when it
// can, else the reason (the engine's Available error, or that there is
// no GPU engine for it).
func GPUStatus(algorithm string) error {
	e, err := solver.Lookup(algorithm, solver.BackendGPU)
	if err != nil {
		return fmt.Errorf("no GPU engine for %s", algorithm)
	}
	return e.Available()
}

// refreshBackend enables the GPU button only when the chosen algorithm
// has an available GPU engine, and shows why not otherwise.
func (f *settingsForm) refreshBackend() {
	algo, _ := f.algorithm.Get()
	cur, _ := f.backend.Get()
	gerr := GPUStatus(algo)
	_, cpuErr := solver.Lookup(algo, solver.BackendCPU)
	if gerr != nil && cur == solver.BackendGPU {
		cur = solver.BackendAuto
		_ = f.backend.Set(cur)
	}
	for b, btn := range f.backendBtns {
		switch {
		case b == solver.BackendGPU && gerr != nil:
			btn.Disable()
		case b == solver.BackendCPU && cpuErr != nil:
			btn.Disable()
		default:
			btn.Enable()
		}
		if b == cur {
			btn.Importance = widget.HighImportance
		} else {
			btn.Importance = widget.MediumImportance
		}
		btn.Refresh()
	}
	if gerr != nil {
		f.gpuNote.SetText("GPU disabled: " + gerr.Error())
		f.gpuNote.Show()
	} else {
		f.gpuNote.SetText("")
		f.gpuNote.Hide()
	}
	desc := ""
	for _, e := range solver.Engines() {
		if e.Name() == algo {
			desc = e.Describe()
			break
		}
	}
	f.algoHelp.SetText(desc)
}

// Primary is the part of the form a pane shows first: algorithm,
// backend, blocks, threads per block, sync k and the time limit.
func (f *settingsForm) Primary() fyne.CanvasObject {
	return container.NewVBox(
		widget.NewForm(widget.NewFormItem("Algorithm", f.algoSelect), widget.NewFormItem("Backend", f.backendRow)),
		f.algoHelp, f.gpuNote, f.form,
	)
}

// Advanced is the rest of the form: the annealing schedule and the seed.
func (f *settingsForm) Advanced() fyne.CanvasObject { return f.more }

// Settings parses the form; a bad field gives a one-line error naming it.
func (f *settingsForm) Settings() (Settings, error) {
	var s Settings
	s.Algorithm, _ = f.algorithm.Get()
	s.Backend, _ = f.backend.Get()
	var err error
	geti := func(name string, b binding.String) int {
		v, _ := b.Get()
		v = strings.TrimSpace(v)
		if v == "" || err != nil {
			return 0
		}
		n, e := strconv.Atoi(v)
		if e != nil {
			err = fmt.Errorf("settings: %s %q is not a whole number", name, v)
		}
		return n
	}
	getf := func(name string, b binding.String) float64 {
		v, _ := b.Get()
		v = strings.TrimSpace(v)
		if v == "" || err != nil {
			return 0
		}
		x, e := strconv.ParseFloat(v, 64)
		if e != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			err = fmt.Errorf("settings: %s %q is not a number", name, v)
		}
		return x
	}
	s.Blocks = geti("blocks", f.blocks)
	s.Threads = geti("threads per block", f.threads)
	s.K = geti("sync interval k", f.k)
	s.T0 = getf("T0", f.t0)
	s.TEnd = getf("T end", f.tEnd)
	s.Alpha = getf("alpha", f.alpha)
	secs := getf("time limit", f.timeLimit)
	if err == nil && (secs > 1e7) {
		err = fmt.Errorf("settings: time limit %g s is too long", secs)
	}
	s.TimeLimit = time.Duration(secs * float64(time.Second))
	if v, _ := f.seed.Get(); strings.TrimSpace(v) != "" && err == nil {
		n, e := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
		if e != nil {
			err = fmt.Errorf("settings: seed %q is not a non-negative whole number", v)
		}
		s.Seed = n
	}
	if err != nil {
		return s, err
	}
	return s, s.Validate()
}

// Set writes s into the form (and so into Preferences).
func (f *settingsForm) Set(s Settings) {
	_ = f.algorithm.Set(s.Algorithm)
	f.algoSelect.SetSelected(s.Algorithm)
	_ = f.backend.Set(s.Backend)
	_ = f.blocks.Set(strconv.Itoa(s.Blocks))
	_ = f.threads.Set(strconv.Itoa(s.Threads))
	_ = f.k.Set(strconv.Itoa(s.K))
	_ = f.t0.Set(formatFloat(s.T0))
	_ = f.tEnd.Set(formatFloat(s.TEnd))
	_ = f.alpha.Set(formatFloat(s.Alpha))
	_ = f.timeLimit.Set(formatFloat(s.TimeLimit.Seconds()))
	_ = f.seed.Set(strconv.FormatUint(s.Seed, 10))
	f.refreshBackend()
}

// SetEnabled enables or disables editing (disabled while running).
func (f *settingsForm) SetEnabled(on bool) {
	for _, e := range f.entries {
		if on {
			e.Enable()
		} else {
			e.Disable()
		}
	}
	if on {
		f.algoSelect.Enable()
		f.refreshBackend()
	} else {
		f.algoSelect.Disable()
		for _, b := range f.backendBtns {
			b.Disable()
		}
	}
}
