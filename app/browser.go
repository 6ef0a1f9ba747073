package app

import (
	"cmp"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/tsplab/tsplab/assets"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// Entry is one instance in the browser: what its header says, read
// without loading the whole file.
type Entry struct {
	Name      string // base name without .tsp
	Path      string
	Dimension int    // 0 when the header does not say
	Type      string // TYPE (TSP, ATSP, ...)
	Metric    string // EDGE_WEIGHT_TYPE
	Optimum   int64  // known optimum from optima.csv, 0 when unknown
	OptTour   bool   // an .opt.tour lies beside the file
	Err       string // why the header could not be read
}

// Summary is the entry's one-line description for the list.
func (e Entry) Summary() string {
	if e.Err != "" {
		return e.Err
	}
	parts := []string{}
	if e.Dimension > 0 {
		parts = append(parts, fmt.Sprintf("n=%d", e.Dimension))
	}
	if e.Type != "" {
		parts = append(parts, e.Type)
	}
	if e.Metric != "" {
		parts = append(parts, e.Metric)
	}
	switch {
	case e.Optimum > 0:
		parts = append(parts, fmt.Sprintf("opt %d", e.Optimum))
	case e.OptTour:
		parts = append(parts, "opt tour")
	default:
		parts = append(parts, "optimum unknown")
	}
	return strings.Join(parts, " · ")
}

// ReadEntry describes the instance file at path from its header (read by
// tsplib.ReadHeader, not the whole file), its known optimum (from the
// optima tables, tsplib.KnownOptimum) and whether an optimal tour lies
// beside it. A file whose header cannot be read gets Err.
func ReadEntry(path string) Entry {
	e := Entry{Name: strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)), Path: path}
	h, err := tsplib.ReadHeader(path)
	if err != nil {
		e.Err = err.Error()
		return e
	}
	e.Dimension, e.Type, e.Metric = h.Dimension, h.Type, h.Metric
	e.Optimum, _, _ = tsplib.KnownOptimum(path, h.Name)
	e.OptTour = tsplib.OptTourPath(path, nil) != ""
	return e
}

// ScanFolder lists every .tsp file in dir (not its subfolders), sorted by
// dimension then name; see ReadEntry.
func ScanFolder(dir string) ([]Entry, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []Entry
	for _, de := range des {
		if de.IsDir() || !strings.EqualFold(filepath.Ext(de.Name()), ".tsp") {
			continue
		}
		out = append(out, ReadEntry(filepath.Join(dir, de.Name())))
	}
	slices.SortStableFunc(out, func(a, b Entry) int {
		return cmp.Or(cmp.Compare(a.Dimension, b.Dimension), strings.Compare(a.Name, b.Name))
	})
	return out, nil
}

// ExtractSamples copies the bundled samples into dir (created if needed)
// so they load like any file, optima.csv and optimal tours beside them.
// Files already there with the same size are kept. It returns dir.
func ExtractSamples(dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	err := fs.WalkDir(assets.Samples, "samples", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := assets.Samples.ReadFile(p)
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, filepath.Base(p))
		if st, err := os.Stat(dst); err == nil && st.Size() == int64(len(data)) {
			return nil
		}
		tmp := dst + ".tmp"
		if err := os.WriteFile(tmp, data, 0o644); err != nil {
			return err
		}
		return os.Rename(tmp, dst)
	})
	if err != nil {
		return "", err
	}
	return dir, nil
}

// SamplesDir returns where the bundled samples are extracted: under the
// user's cache directory, or the temporary directory.
func SamplesDir() string {
	base, err := os.UserCacheDir()
	if err != nil || base == "" {
		base = os.TempDir()
	}
	return filepath.Join(base, "tsplab", "samples")
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
			entries = append(entries, ReadEntry(p))
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

// browserView is the window's left column: where the list comes from,
// the open buttons, the list of instances and the loading line.
func (a *App) browserView() fyne.CanvasObject {
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
	return container.NewBorder(
		container.NewVBox(a.source, container.NewGridWithColumns(2, openFile, openFolder)),
		loading, nil, nil, a.list)
}
