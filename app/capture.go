package app

import (
	"image"
	"image/png"
	"io"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/software"
	"fyne.io/fyne/v2/test"

	"github.com/tsplab/tsplab/internal/atomicfile"
)

// Capture returns the window's picture, painted in software (and a note saying so) when OpenGL's read-back is blank.
func (a *App) Capture() (image.Image, string) {
	layoutAgain(a.Win.Content())
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
	layoutAgain(content)
	img = c.Capture()
	a.Win.SetContent(content)
	return img, "the OpenGL read-back was blank; rendered the window's content with the software painter"
}

// layoutAgain lays out everything under o again, children first, as a frame would before a capture.
func layoutAgain(o fyne.CanvasObject) {
	switch v := o.(type) {
	case *fyne.Container:
		for _, c := range v.Objects {
			layoutAgain(c)
		}
		if v.Layout != nil {
			v.Layout.Layout(v.Objects, v.Size())
		}
	case fyne.Widget:
		r := test.WidgetRenderer(v)
		for _, c := range r.Objects() {
			layoutAgain(c)
		}
		r.Layout(v.Size())
	}
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
	return atomicfile.Write(path, func(w io.Writer) error { return png.Encode(w, img) })
}

// Landmarks are the widgets a user looks for first, by name ("A Run", "B canvas"); tsplab reports where they are (TSPLAB_LAYOUT).
func (a *App) Landmarks() map[string]fyne.CanvasObject {
	m := map[string]fyne.CanvasObject{}
	for i, p := range a.Panes() {
		prefix := ""
		if a.compare {
			prefix = string(rune('A'+i)) + " "
		}
		m[prefix+"Run"] = p.controls.run
		m[prefix+"canvas"] = p.View
		m[prefix+"plot"] = p.Curve
		m[prefix+"Gap"] = p.numbers.value["Gap"]
		m[prefix+"Moves"] = p.numbers.value["Moves"]
		m[prefix+"Elapsed"] = p.numbers.value["Elapsed"]
		if !a.compare {
			m["Time limit"] = p.settings.timeItem
			m["Seed"] = p.settings.seedItem
		}
	}
	return m
}
