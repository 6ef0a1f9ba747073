package app

import (
	"image/color"
	"math"
	"strconv"

	"fyne.io/fyne/v2"
	fcanvas "fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// fractionBar is a progress bar whose empty part looks empty, and whose busy block moves only at updates:
// Fyne's infinite bar repaints 60 times a second, costing the engine's cores under software OpenGL.
type fractionBar struct {
	widget.BaseWidget
	value float64 // 0..1
	busy  bool
	step  int    // the busy block's position, advanced by each busy update
	text  string // what the bar measures, written on it ("" : the percentage)
}

func newFractionBar() *fractionBar {
	b := &fractionBar{}
	b.ExtendBaseWidget(b)
	return b
}

// busySteps is how many positions the busy block takes across the bar.
const busySteps = 8

// Set shows the fraction done (clamped to 0..1), or the busy block.
func (b *fractionBar) Set(v float64, busy bool) {
	if math.IsNaN(v) {
		v = 0
	}
	v = min(max(v, 0), 1)
	if v == b.value && busy == b.busy && !busy {
		return
	}
	if busy {
		b.step = (b.step + 1) % busySteps
	}
	b.value, b.busy = v, busy
	b.Refresh()
}

// SetText sets the bar's words ("3.1 s of 10 s"); "" shows the percentage.
func (b *fractionBar) SetText(text string) {
	if text != b.text {
		b.text = text
		b.Refresh()
	}
}

// Text returns the words on the bar.
func (b *fractionBar) Text() string { return b.text }

// Value returns the fraction done.
func (b *fractionBar) Value() float64 { return b.value }

// Busy reports whether the bar shows a phase of unknown length.
func (b *fractionBar) Busy() bool { return b.busy }

// CreateRenderer implements fyne.Widget.
func (b *fractionBar) CreateRenderer() fyne.WidgetRenderer {
	r := &fractionBarRenderer{b: b, bg: fcanvas.NewRectangle(color.Transparent), bar: fcanvas.NewRectangle(color.Transparent),
		label: fcanvas.NewText("", color.Black)}
	r.label.Alignment = fyne.TextAlignCenter
	r.objects = []fyne.CanvasObject{r.bg, r.bar, r.label}
	r.Refresh()
	return r
}

type fractionBarRenderer struct {
	objectsRenderer
	b       *fractionBar
	bg, bar *fcanvas.Rectangle
	label   *fcanvas.Text
}

func (r *fractionBarRenderer) Layout(size fyne.Size) {
	r.bg.Resize(size)
	if r.b.busy {
		w := size.Width / 4
		r.bar.Move(fyne.NewPos((size.Width-w)*float32(r.b.step)/(busySteps-1), 0))
		r.bar.Resize(fyne.NewSize(w, size.Height))
	} else {
		r.bar.Move(fyne.NewPos(0, 0))
		r.bar.Resize(fyne.NewSize(size.Width*float32(r.b.value), size.Height))
	}
	r.label.Resize(size)
}

func (r *fractionBarRenderer) MinSize() fyne.Size {
	th := r.b.Theme()
	t := fyne.MeasureText("100%", th.Size(theme.SizeNameText), fyne.TextStyle{})
	p := th.Size(theme.SizeNameInnerPadding)
	return fyne.NewSize(t.Width+2*p, t.Height+p)
}

func (r *fractionBarRenderer) Refresh() {
	th := r.b.Theme()
	v := fyne.CurrentApp().Settings().ThemeVariant()
	rad := th.Size(theme.SizeNameInputRadius)
	r.bg.FillColor = th.Color(theme.ColorNameInputBackground, v)
	r.bg.StrokeColor = th.Color(theme.ColorNameInputBorder, v)
	r.bg.StrokeWidth = th.Size(theme.SizeNameInputBorder)
	r.bg.CornerRadius = rad
	r.bar.FillColor = th.Color(theme.ColorNamePrimary, v)
	r.bar.CornerRadius = rad
	r.label.Text = strconv.Itoa(int(r.b.value*100)) + "%"
	if r.b.text != "" {
		r.label.Text = r.b.text
	}
	if r.b.busy {
		r.label.Text = ""
	}
	r.label.TextSize = th.Size(theme.SizeNameText)
	r.label.Color = th.Color(theme.ColorNameForeground, v)
	r.Layout(r.b.Size())
	r.bg.Refresh()
	r.bar.Refresh()
	r.label.Refresh()
}
