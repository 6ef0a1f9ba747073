package app

import (
	"fmt"
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// shownNames are the instance names the list draws inside its visible
// area, found by walking its objects (positions relative to the list).
func shownNames(ap *App) []string {
	h := ap.list.Size().Height
	var out []string
	var walk func(o fyne.CanvasObject, y float32)
	walk = func(o fyne.CanvasObject, y float32) {
		if !o.Visible() {
			return
		}
		if l, ok := o.(*widget.Label); ok && l.TextStyle.Bold && l.Text != "" && l.Size().Height > 0 {
			if y+l.Size().Height > 0 && y < h {
				out = append(out, l.Text)
			}
			return
		}
		for _, c := range children(o) {
			walk(c, y+c.Position().Y)
		}
	}
	for _, c := range children(ap.list) {
		walk(c, c.Position().Y)
	}
	return out
}

// TestListShowsEverythingAfterTheSearchIsCleared: with an instance far
// down a long list on screen, typing a search, selecting its text and
// deleting it shows the list's rows again at once.
func TestListShowsEverythingAfterTheSearchIsCleared(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	ap.Win.Resize(fyne.NewSize(1400, 880))
	dir := t.TempDir()
	for i := range 60 {
		writeFile(t, dir, fmt.Sprintf("inst%02d.tsp", i), tinyTSP)
	}
	writeFile(t, dir, "usa13.tsp", tinyTSP)
	ap.ShowFolder(dir)
	ap.Select(50)
	waitLoad(t, loads)
	if got := shownNames(ap); len(got) < 5 {
		t.Fatalf("before the search the list draws %v", got)
	}
	test.Type(ap.search, "usa")
	if got := shownNames(ap); len(got) != 1 || got[0] != "usa13" {
		t.Fatalf("searching usa the list draws %v", got)
	}
	ap.Win.Canvas().Focus(ap.search)
	ap.search.TypedShortcut(&fyne.ShortcutSelectAll{})
	ap.search.TypedKey(&fyne.KeyEvent{Name: fyne.KeyBackspace})
	if ap.search.Text != "" {
		t.Fatalf("the search box holds %q", ap.search.Text)
	}
	// The instance on screen stays selected and in view, with its neighbours.
	if got := shownNames(ap); len(got) < 5 || !slices.Contains(got, "inst50") {
		t.Errorf("after clearing the search the list draws %v, want its rows around inst50", got)
	}
}
