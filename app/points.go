package app

import (
	"fmt"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/tsplab/tsplab/internal/atomicfile"
	"github.com/tsplab/tsplab/solver/gen"
	"github.com/tsplab/tsplab/solver/instfile"
)

// DefaultArtPoints is how many points a picture becomes by default.
const DefaultArtPoints = 20_000

// ArtSeed seeds the stippling: the same picture and number give the same cities.
const ArtSeed = 1

// SamplePortrait is the bundled sample picture for TSP art: tsplab --open portrait.
const SamplePortrait = "portrait.png"

// samplePortraitSide is the sample portrait's width and height in pixels.
const samplePortraitSide = 1000

// writeSamplePortrait writes gen.SamplePicture as a PNG to path unless a file is there.
func writeSamplePortrait(path string) error {
	if _, err := os.Stat(path); err == nil {
		return nil
	}
	return atomicfile.Write(path, func(w io.Writer) error { return png.Encode(w, gen.SamplePicture(samplePortraitSide)) })
}

// openExtensions are the files the Open dialog offers: instance files, gzipped too, and pictures for TSP art.
func openExtensions() []string {
	return append(append(slices.Clone(instfile.Extensions), ".gz"), gen.ImageExtensions...)
}

// isImageFile reports whether path names a picture, by its extension.
func isImageFile(path string) bool {
	return slices.Contains(gen.ImageExtensions, strings.ToLower(filepath.Ext(path)))
}

// checkArtPoints validates the text of the number of points a picture becomes.
func checkArtPoints(s string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 1 || n > gen.MaxN {
		return 0, fmt.Errorf("points %q: want a whole number from 1 to %d", strings.TrimSpace(s), gen.MaxN)
	}
	return n, nil
}

// askPicture asks how many points the picture at path becomes, then opens it as TSP art.
func (a *App) askPicture(path string) {
	entry := widget.NewEntry()
	entry.SetText(strconv.Itoa(DefaultArtPoints))
	entry.Validator = func(s string) error { _, err := checkArtPoints(s); return err }
	hint := newSecondaryLabel("the points follow the picture's darkness; one tour through them draws it in one line", true)
	items := []*widget.FormItem{widget.NewFormItem("Points", entry), widget.NewFormItem("", hint)}
	d := dialog.NewForm("TSP art from "+filepath.Base(path), "Make points", "Cancel", items, func(ok bool) {
		if !ok {
			return
		}
		if n, err := checkArtPoints(entry.Text); err != nil {
			showErrorDialog(err, a.Win)
		} else {
			a.OpenPicture(path, n)
		}
	}, a.Win)
	d.Resize(fyne.NewSize(480, 220))
	d.Show()
}

// OpenPicture stipples the picture at path into n points in the background and shows them in every pane.
func (a *App) OpenPicture(path string, n int) {
	a.loadSeq++
	seq := a.loadSeq
	a.setMessage(fmt.Sprintf("stippling %s into %d points…", filepath.Base(path), n), false)
	go func() {
		in, err := gen.FromImageFile(path, n, ArtSeed)
		uiDo(func() {
			if seq != a.loadSeq {
				return
			}
			if err == nil {
				a.picture = &Entry{Name: instfile.BaseName(path), Path: path, Dimension: n, picture: true}
			}
			a.loaded(path, in, nil, err)
		})
	}()
}
