package app

// Accessors the tests read the window through.

// Compare reports whether compare mode is on.
func (a *App) Compare() bool { return a.compare }

// Source returns what the list shows: SourceSamples, SourceRecent or a
// folder's label (see FolderLabel).
func (a *App) Source() string { return a.showing }

// SetSearch filters the list to the names holding text.
func (a *App) SetSearch(text string) { a.search.SetText(text) }

// SetSort orders the list by SortSize or SortName.
func (a *App) SetSort(by string) { a.sortBy.SetSelected(by) }

// Entries returns the listed instances (those the search lets through).
func (a *App) Entries() []Entry { return a.entries }

// FolderLabel is the source-menu label of folder dir.
func FolderLabel(dir string) string { return folderLabel(dir) }

// Sources returns the source menu's choices.
func (a *App) Sources() []string { return append([]string(nil), a.source.Options...) }

// Message returns the line under the list.
func (a *App) Message() string { return a.message.Text }

// Summary returns compare mode's summary.
func (a *App) Summary() string { return a.summary.Text }

// ExportFile exports the panes on screen to path. In compare mode a PNG
// or SVG holds both panes side by side; the other kinds are written once
// per pane, to NAME-A.EXT and NAME-B.EXT beside path. It returns the
// files written. Each file is replaced whole; nothing is written when
// any pane's export cannot be made.
func (a *App) ExportFile(path, kind string, width, height int) ([]string, error) {
	write, err := a.prepareExport(kind, width, height)
	if err != nil {
		return nil, err
	}
	return write(path)
}

// Status returns the pane's status line.
func (p *Pane) Status() string { return p.status.Text() }

// Anneals reports whether the pane shows a temperature (its engine has
// an annealing schedule).
func (p *Pane) Anneals() bool { return p.numbers.anneals }

// Schedule returns the schedule line ("" when none is shown).
func (p *Pane) Schedule() string {
	if !p.numbers.schedule.Visible() {
		return ""
	}
	return p.numbers.schedule.Text
}
