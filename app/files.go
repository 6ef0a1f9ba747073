package app

import (
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/gen"
	"github.com/tsplab/tsplab/solver/instfile"
	"github.com/tsplab/tsplab/solver/tsplib"
)

func (a *App) openFileDialog() {
	a.showFileOpen(a.prefs.String(PrefFolder), storage.NewExtensionFileFilter(openExtensions()), func(path string) error {
		a.OpenFile(path)
		return nil
	})
}

// showFileOpen asks for a file by filter, starting in dir ("": Fyne's choice), and hands its path to open.
func (a *App) showFileOpen(dir string, filter storage.FileFilter, open func(path string) error) {
	d := dialog.NewFileOpen(func(rc fyne.URIReadCloser, err error) {
		if rc != nil {
			path := rc.URI().Path()
			rc.Close()
			err = open(path)
		}
		if err != nil {
			showErrorDialog(err, a.Win)
		}
	}, a.Win)
	d.SetFilter(filter)
	if dir != "" {
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
			showErrorDialog(err, a.Win)
			return
		}
		if l != nil {
			a.ShowFolder(l.Path())
		}
	}, a.Win)
	d.Resize(fyne.NewSize(800, 560))
	d.Show()
}

// OpenFile lists the folder of path and opens the file; a picture asks how many points it becomes.
func (a *App) OpenFile(path string) {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	if isImageFile(path) {
		a.askPicture(path)
		return
	}
	a.ShowFolder(filepath.Dir(path))
	for i, e := range a.entries {
		if e.Path == path {
			a.Select(i)
			return
		}
	}
	a.Open(path)
}

// dropped opens the dropped instance files (they join the recent files); a picture dropped alone becomes TSP art.
func (a *App) dropped(_ fyne.Position, uris []fyne.URI) {
	var paths, pictures []string
	for _, u := range uris {
		switch {
		case u.Scheme() != "file":
		case isListedInstance(u.Path()):
			paths = append(paths, u.Path())
		case isImageFile(u.Path()):
			pictures = append(pictures, u.Path())
		}
	}
	if len(paths) == 0 && len(pictures) > 0 {
		a.askPicture(pictures[0])
		return
	}
	if len(paths) == 0 {
		dialog.ShowInformation("Not an instance file", "Drop TSPLIB files or point lists ("+
			strings.Join(instfile.Extensions, ", ")+") to open them, or a picture ("+strings.Join(gen.ImageExtensions, ", ")+") for TSP art.", a.Win)
		return
	}
	for i := len(paths) - 1; i >= 0; i-- {
		a.addRecent(paths[i])
	}
	a.ShowSource(SourceRecent)
	for i, e := range a.entries {
		if e.Path == paths[0] {
			a.Select(i)
			return
		}
	}
	a.Select(0)
}

// isListedInstance reports whether the folder list lists path: a .tsp, or a readable point list.
func isListedInstance(path string) bool {
	if !instfile.HasInstanceExtension(path) {
		return false
	}
	return isTSPFile(path) || ReadEntry(path).Err == ""
}

func (a *App) addRecent(path string) {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	a.putFirst(PrefRecent, path, MaxRecent)
}

// Open loads the instance at path in the background into every pane (the newest Open wins).
func (a *App) Open(path string) {
	a.loadSeq++
	seq := a.loadSeq
	a.setMessage(string(solver.PhaseReading)+" "+filepath.Base(path)+"…", false)
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

func (a *App) loaded(path string, in *solver.Instance, opt []int, err error) {
	if err != nil {
		a.setMessage(err.Error(), true)
		a.markBroken(path, err)
		a.reselectCurrent()
	} else {
		a.setMessage("", false)
		a.current = path
		if instfile.HasInstanceExtension(path) && (!strings.HasPrefix(path, a.samplesDir+string(filepath.Separator)) || a.samplesDir == "") {
			a.addRecent(path)
			a.addFolder(filepath.Dir(path))
		}
		for _, p := range []*Pane{a.Single, a.Left, a.Right} {
			p.SetInstance(in, opt)
		}
		// The list marks the instance on screen however it was opened.
		a.applyFilter()
		a.Win.SetTitle("TSP Lab — " + in.Name)
		if a.openTourBtn != nil {
			a.openTourBtn.Enable()
		}
	}
	for _, f := range a.onLoad {
		f(in, err)
	}
}

// LoadInstance reads a TSPLIB file with its known optimum and its readable .opt.tour.
func LoadInstance(path string) (*solver.Instance, []int, error) {
	in, err := instfile.Load(path)
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

// openTourDialog asks for a tour file of the instance on screen and makes it the next runs' start.
func (a *App) openTourDialog() {
	dir := ""
	if a.current != "" {
		dir = filepath.Dir(a.current)
	}
	a.showFileOpen(dir, tourFileFilter, a.OpenStartTour)
}

// tourFileFilter is what Open tour… lists: the files a tour is read from, gzipped too.
var tourFileFilter = storage.NewExtensionFileFilter([]string{".tour", ".csv", ".txt", ".json", ".geojson", ".gpx", ".gz"})
