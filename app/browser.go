package app

import (
	"cmp"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/tsplab/tsplab/assets"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/instfile"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// Entry is one instance in the browser: what its header says, read without loading the whole file.
type Entry struct {
	Name      string // base name without .tsp
	Path      string
	Dimension int    // 0 when the header does not say
	Type      string // TYPE (TSP, ATSP, ...)
	Metric    string // EDGE_WEIGHT_TYPE
	Optimum   int64  // known optimum from optima.csv, 0 when unknown
	OptTour   bool   // an .opt.tour lies beside the file
	Err       string // why the header could not be read
	points    bool   // a point list (its header says so)
	picture   bool   // a picture opened as TSP art: Dimension is its points
}

// Summary is the entry's description for the list: why the file cannot be read, or its cities, optimum and kind.
func (e Entry) Summary() string {
	if e.Err != "" {
		return "cannot be read: " + e.reason()
	}
	return strings.Join(e.summaryParts(), " · ")
}

// summaryParts are an entry's Summary parts, most useful first: a narrow list drops the last.
func (e Entry) summaryParts() []string {
	if e.picture {
		return []string{"picture", solver.GroupDigits(strconv.Itoa(e.Dimension)) + " points"}
	}
	parts := []string{}
	if e.Dimension > 0 {
		parts = append(parts, solver.Plural(int64(e.Dimension), "city", "cities"))
	}
	switch {
	case e.Optimum > 0:
		parts = append(parts, "opt "+solver.GroupDigits(strconv.FormatInt(e.Optimum, 10)))
	case e.OptTour:
		parts = append(parts, "opt tour")
	default:
		parts = append(parts, "no optimum")
	}
	if e.Metric != "" {
		parts = append(parts, metricWords(e.Metric))
	}
	if e.Type != "" && e.Type != "TSP" {
		parts = append(parts, e.Type)
	}
	return parts
}

// fitSummary is e's second line in room pixels: the parts that fit whole, the first always.
func fitSummary(e Entry, room float32) string {
	if e.Err != "" || room <= 0 {
		return e.Summary()
	}
	parts := e.summaryParts()
	for n := len(parts); n > 1; n-- {
		s := strings.Join(parts[:n], " · ")
		if fyne.MeasureText(s, theme.TextSize(), fyne.TextStyle{}).Width <= room {
			return s
		}
	}
	return parts[0]
}

// textRoom is the width a list row's text has.
func (a *App) textRoom() float32 {
	return a.list.Size().Width - theme.ScrollBarSize() - 2*theme.InnerPadding()
}

// reason is why the file cannot be read, its path turned into "line N: …" (the list names the file).
func (e Entry) reason() string {
	r := e.Err
	for _, p := range []string{e.Path, filepath.Base(e.Path)} {
		if rest, ok := strings.CutPrefix(r, p+":"); ok && p != "" {
			line, msg, found := strings.Cut(rest, ":")
			if _, err := strconv.Atoi(line); found && err == nil {
				return "line " + line + ":" + msg
			}
			return strings.TrimSpace(rest)
		}
	}
	return r
}

// metricWords names a kind of distance briefly: TSPLIB's name, or a point list's metric in words.
func metricWords(m string) string {
	if m == "GREAT_CIRCLE" {
		return "great circle"
	}
	return m
}

// ReadEntry describes the instance file at path from its header, known optimum and optimal tour.
func ReadEntry(path string) Entry {
	e := Entry{Name: instfile.BaseName(path), Path: path}
	h, err := instfile.ReadHeader(path)
	if err != nil {
		e.Err = err.Error()
		return e
	}
	e.Dimension, e.Type, e.Metric = h.Dimension, h.Type, h.Metric
	e.points = h.Section == instfile.PointsSection
	e.Optimum, _, _ = tsplib.KnownOptimum(path, h.Name)
	if e.Optimum > 0 && h.Section == "FIXED_EDGES_SECTION" {
		// An instance with fixed edges lists the path between their ends; its tour's optimum adds the fixed edges.
		if in, err := instfile.Read(path); err == nil {
			if v, _, ok := tsplib.FindOptimum(in, os.Getenv(tsplib.OptimaEnv)); ok {
				e.Optimum = v
			}
		}
	}
	e.OptTour = tsplib.OptTourPath(path, nil) != ""
	return e
}

// ScanFolder lists the instance files in dir (not its subfolders) by dimension then name, tours left out (dropTours).
func ScanFolder(dir string) ([]Entry, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []Entry
	for _, de := range des {
		if de.IsDir() || !instfile.HasInstanceExtension(de.Name()) {
			continue
		}
		if e := ReadEntry(filepath.Join(dir, de.Name())); e.Err == "" || isTSPFile(de.Name()) {
			out = append(out, e)
		}
	}
	slices.SortStableFunc(out, bySize)
	return dropTours(out), nil
}

// maxTourCheck is the largest point list dropTours reads whole.
const maxTourCheck = 200_000

// dropTours leaves out the point lists that are tours of another entry (the same cities in tour order).
func dropTours(entries []Entry) []Entry {
	loaded := map[string]*solver.Instance{}
	load := func(path string) *solver.Instance {
		in, ok := loaded[path]
		if !ok {
			in, _ = instfile.Read(path) // nil when it does not read
			loaded[path] = in
		}
		return in
	}
	out := entries[:0:0]
	for i, e := range entries {
		if !e.points || e.Err != "" || e.Dimension < 3 || e.Dimension > maxTourCheck || !isTourOfAnother(entries, i, load) {
			out = append(out, e)
		}
	}
	return out
}

// isTourOfAnother reports whether entries[i] is a tour of another entry's cities (see dropTours).
func isTourOfAnother(entries []Entry, i int, load func(string) *solver.Instance) bool {
	e := entries[i]
	for j, o := range entries {
		if j == i || o.Dimension != e.Dimension || o.Err != "" {
			continue
		}
		a, b := load(e.Path), load(o.Path)
		if a == nil || b == nil || !sameCities(a, b) {
			continue
		}
		if !o.points || fileOrderLength(a) < fileOrderLength(b) {
			return true
		}
	}
	return false
}

// sameCities reports whether a and b place the same cities, up to a point list reader's shift and scale.
func sameCities(a, b *solver.Instance) bool {
	ka, kb := cityKeys(a), cityKeys(b)
	return ka != nil && slices.Equal(ka, kb)
}

// cityKeys are in's cities as sorted integer pairs to a millionth of the extent (nil: no coordinates).
func cityKeys(in *solver.Instance) [][2]int64 {
	if len(in.X) != in.N || len(in.Y) != in.N || in.N == 0 {
		return nil
	}
	x0, x1 := slices.Min(in.X), slices.Max(in.X)
	y0, y1 := slices.Min(in.Y), slices.Max(in.Y)
	ext := max(x1-x0, y1-y0)
	if ext <= 0 {
		return nil
	}
	keys := make([][2]int64, in.N)
	for i := range keys {
		keys[i] = [2]int64{int64(math.Round((in.X[i] - x0) / ext * 1e6)), int64(math.Round((in.Y[i] - y0) / ext * 1e6))}
	}
	slices.SortFunc(keys, func(p, q [2]int64) int { return cmp.Or(cmp.Compare(p[0], q[0]), cmp.Compare(p[1], q[1])) })
	return keys
}

// fileOrderLength is the closed tour of in's cities in the file's order.
func fileOrderLength(in *solver.Instance) int64 {
	return solver.TourLength(in, solver.IdentityTour(in.N))
}

// isTSPFile reports whether path ends in .tsp or .tsp.gz: the list shows it even when it does not read.
func isTSPFile(path string) bool {
	return strings.EqualFold(filepath.Ext(tsplib.TrimGz(path)), ".tsp")
}

// bySize orders entries by dimension, then name.
func bySize(a, b Entry) int {
	return cmp.Or(cmp.Compare(a.Dimension, b.Dimension), strings.Compare(a.Name, b.Name))
}

// ExtractSamples copies the bundled samples and the sample portrait into dir (same-size files kept); it returns dir.
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
		return writeWhole(dst, data)
	})
	if err != nil {
		return "", err
	}
	return dir, writeSamplePortrait(filepath.Join(dir, SamplePortrait))
}

// SamplesDir returns where the bundled samples are extracted: the user's cache or temporary directory.
func SamplesDir() string {
	base, err := os.UserCacheDir()
	if err != nil || base == "" {
		base = os.TempDir()
	}
	return filepath.Join(base, "tsplab", "samples")
}

// ShowSource fills the list from src: SourceSamples, SourceRecent, or a folder (path or menu label).
func (a *App) ShowSource(src string) {
	var entries []Entry
	var err error
	switch src {
	case SourceSamples:
		if a.samplesDir != "" {
			entries, err = ScanFolder(a.samplesDir)
		}
	case SourceRecent:
		for _, p := range a.prefs.StringList(PrefRecent) {
			entries = append(entries, ReadEntry(p))
		}
	default:
		dir := src
		if d, ok := a.folderOf[src]; ok {
			dir = d
		}
		a.addFolder(dir)
		src = folderLabel(dir)
		entries, err = ScanFolder(dir)
	}
	if err != nil {
		a.setMessage(err.Error(), true)
	} else {
		a.setMessage("", false) // a reader error belongs to the list it was shown with
	}
	a.setEntries(entries)
	if a.source.Selected != src {
		a.showing = src
		a.source.SetSelected(src)
	}
	a.showing = src
}

func (a *App) setEntries(entries []Entry) {
	a.allEntries = entries
	a.applyFilter()
	a.checkSeq++
	go a.checkEntries(a.checkSeq, slices.Clone(entries))
}

// checkLimit is the largest file the background check reads whole.
const checkLimit = 4 << 20

// checkEntries reads the listed files up to checkLimit whole and marks the unreadable ones, until a newer list (seq).
func (a *App) checkEntries(seq int, entries []Entry) {
	for _, e := range entries {
		if e.Err != "" {
			continue
		}
		if st, err := os.Stat(e.Path); err != nil || st.Size() > checkLimit {
			continue
		}
		stale := make(chan bool, 1)
		uiDo(func() { stale <- a.checkSeq != seq })
		if <-stale {
			return
		}
		if _, err := instfile.Read(e.Path); err != nil {
			uiDo(func() {
				if a.checkSeq == seq {
					a.markBroken(e.Path, err)
				}
			})
		}
	}
}

// Sort orders of the list.
const (
	SortSize = "Size"
	SortName = "Name"
)

// applyFilter shows the entries whose name holds the search text, in the chosen order.
func (a *App) applyFilter() {
	q := strings.ToLower(strings.TrimSpace(a.search.Text))
	var view []Entry
	for _, e := range a.allEntries {
		if q == "" || strings.Contains(strings.ToLower(e.Name), q) {
			view = append(view, e)
		}
	}
	if a.sortBy.Selected == SortName {
		slices.SortStableFunc(view, func(x, y Entry) int { return strings.Compare(strings.ToLower(x.Name), strings.ToLower(y.Name)) })
	} else {
		slices.SortStableFunc(view, bySize)
	}
	if pic := a.picture; pic != nil && pic.Path == a.current && (q == "" || strings.Contains(strings.ToLower(pic.Name), q)) {
		view = append([]Entry{*pic}, view...) // the picture on screen, listed first
	}
	a.entries = view
	a.fitRows()
	// The list takes its new length before the selection scrolls, or its rows lay out for a stale offset.
	a.selected = -1
	a.list.UnselectAll()
	a.list.Refresh()
	a.reselectCurrent()
}

// markBroken records that the file at path cannot be read, so the list shows it as such.
func (a *App) markBroken(path string, err error) {
	for _, list := range [][]Entry{a.allEntries, a.entries} {
		for i := range list {
			if list[i].Path == path && list[i].Err == "" {
				list[i].Err = err.Error()
			}
		}
	}
	a.fitRows()
	a.list.Refresh()
}

// reselectCurrent selects the entry of the instance on screen (none when it is not listed).
func (a *App) reselectCurrent() {
	a.selected = -1
	a.list.UnselectAll()
	for i, e := range a.entries {
		if e.Path == a.current && a.current != "" {
			a.selected = i
			a.list.Select(i)
		}
	}
}

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

// ShowFolder lists dir's .tsp files; dir joins the source menu and starts the file dialog.
func (a *App) ShowFolder(dir string) {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	a.prefs.SetString(PrefFolder, dir)
	a.ShowSource(dir)
}

// folderLabel is how the source menu names a folder: its path, with the home directory as ~.
func folderLabel(dir string) string {
	if home, err := os.UserHomeDir(); err == nil && home != "" && home != "/" {
		if rel, err := filepath.Rel(home, dir); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.Join("~", rel)
		}
	}
	return dir
}

// addFolder puts dir (not the samples') first among the remembered folders.
func (a *App) addFolder(dir string) {
	if dir == "" || dir == a.samplesDir {
		return
	}
	a.putFirst(PrefFolders, dir, MaxFolders)
	a.refreshSources()
}

// putFirst puts v first in the preference list key, once, keeping at
// most n.
func (a *App) putFirst(key, v string, n int) {
	list := []string{v}
	for _, d := range a.prefs.StringList(key) {
		if d != v && len(list) < n {
			list = append(list, d)
		}
	}
	a.prefs.SetStringList(key, list)
}

// refreshSources rebuilds the source menu: samples, recent files, then folders, newest first.
func (a *App) refreshSources() {
	opts := []string{SourceSamples, SourceRecent}
	a.folderOf = map[string]string{}
	var kept []string
	saved := a.prefs.StringList(PrefFolders)
	for _, d := range saved {
		// A folder deleted or renamed since leaves the menu.
		if st, err := os.Stat(d); err != nil || !st.IsDir() {
			continue
		}
		kept = append(kept, d)
		l := folderLabel(d)
		if _, dup := a.folderOf[l]; dup || l == SourceSamples || l == SourceRecent {
			continue
		}
		a.folderOf[l] = d
		opts = append(opts, l)
	}
	if len(kept) != len(saved) {
		a.prefs.SetStringList(PrefFolders, kept)
	}
	a.source.SetOptions(opts)
}

// setMessage shows one line under the list: loading news, or an error in the error colour.
func (a *App) setMessage(text string, isErr bool) {
	a.message.SetText(Drawable(text))
	a.message.Importance = widget.MediumImportance
	if isErr {
		a.message.Importance = widget.DangerImportance
	}
	a.message.Refresh()
}

// browserView is the window's left column: source, open buttons, instances and the message line.
func (a *App) browserView() fyne.CanvasObject {
	a.source = widget.NewSelect(nil, func(s string) {
		if s != a.showing {
			a.ShowSource(s)
		}
	})
	a.refreshSources()
	// Short labels: the column is narrow; the icons say file and folder.
	openFile := widget.NewButtonWithIcon("Open…", theme.FileIcon(), a.openFileDialog)
	openFolder := widget.NewButtonWithIcon("Folder…", theme.FolderOpenIcon(), a.openFolderDialog)
	a.list = a.newInstanceList()
	a.list.OnSelected = func(id widget.ListItemID) {
		if id != a.selected {
			a.selected = id
			if e := a.entries[id]; e.picture {
				a.OpenPicture(e.Path, e.Dimension)
			} else {
				a.Open(e.Path)
			}
		}
	}
	a.message = newWrapLabel("")
	a.search = widget.NewEntry()
	a.search.SetPlaceHolder("Search names")
	a.search.OnChanged = func(string) { a.applyFilter() }
	a.sortBy = widget.NewSelect([]string{SortSize, SortName}, func(string) { a.applyFilter() })
	a.sortBy.SetSelected(SortSize)
	return container.NewBorder(
		container.NewVBox(a.source, container.NewGridWithColumns(2, openFile, openFolder),
			container.NewBorder(nil, nil, nil, a.sortBy, a.search)),
		a.message, nil, nil, container.New(&rowFitter{a: a}, a.list))
}

// newInstanceList is the list of a.entries: a row each with its name and summary or error.
func (a *App) newInstanceList() *widget.List {
	return widget.NewList(
		func() int { return len(a.entries) },
		func() fyne.CanvasObject {
			name := widget.NewLabel("instance")
			name.TextStyle = fyne.TextStyle{Bold: true}
			name.Truncation = fyne.TextTruncateEllipsis
			// A reason a file cannot be read wraps in a row as tall as it takes (fitRows).
			why := newWrapLabel("")
			why.Importance = widget.DangerImportance
			why.Hide()
			return container.NewVBox(name, newSecondaryLabel("n · type · optimum", false), why)
		},
		func(id widget.ListItemID, o fyne.CanvasObject) {
			if id >= len(a.entries) {
				return
			}
			e := a.entries[id]
			box := o.(*fyne.Container)
			box.Objects[0].(*widget.Label).SetText(e.Name)
			sub, why := box.Objects[1].(*secondaryLabel), box.Objects[2].(*widget.Label)
			if e.Err != "" {
				sub.Hide()
				why.SetText(Drawable(e.Summary()))
				why.Show()
			} else {
				sub.SetText(fitSummary(e, a.textRoom()))
				sub.SetColor(ColorNameSecondaryText)
				sub.Show()
				why.Hide()
			}
		},
	)
}

// rowFitter lays the list out and, when its width changes, makes each reason's row tall enough.
type rowFitter struct {
	a     *App
	width float32
}

func (f *rowFitter) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
	if size.Width != f.width {
		f.width = size.Width
		f.a.fitRows()
		f.a.list.Refresh() // the second lines take the parts that fit
	}
}

func (f *rowFitter) MinSize(objs []fyne.CanvasObject) fyne.Size { return objs[0].MinSize() }

// fitRows sets each row's height: a reason takes the lines it wraps to at the list's width.
func (a *App) fitRows() {
	if a.list == nil {
		return
	}
	w := a.list.Size().Width - theme.ScrollBarSize() - 2*theme.Padding()
	if w <= 0 {
		w = 200
	}
	name := widget.NewLabel("instance")
	name.TextStyle = fyne.TextStyle{Bold: true}
	plain := name.MinSize().Height + theme.Padding() + newSecondaryLabel("n", false).MinSize().Height
	for i, e := range a.entries {
		if e.Err == "" {
			a.list.SetItemHeight(i, plain)
			continue
		}
		why := newWrapLabel(Drawable(e.Summary()))
		why.Resize(fyne.NewSize(w, why.MinSize().Height))
		a.list.SetItemHeight(i, name.MinSize().Height+theme.Padding()+why.MinSize().Height)
	}
}
