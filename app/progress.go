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

// fractionBar is a determinate progress bar whose empty part looks empty:
// the input background with its border, the done part in the primary
// colour, the percentage over both. (Fyne's ProgressBar fills its empty
// part with the primary colour at half alpha, so at 0 % it looked full.)
type fractionBar struct {
	widget.BaseWidget
	value float64 // 0..1
}

func newFractionBar() *fractionBar {
	b := &fractionBar{}
	b.ExtendBaseWidget(b)
	return b
}

// SetValue sets the fraction done, clamped to 0..1.
func (b *fractionBar) SetValue(v float64) {
	if math.IsNaN(v) {
		v = 0
	}
	v = min(max(v, 0), 1)
	if v == b.value {
		return
	}
	b.value = v
	b.Refresh()
}

// Value returns the fraction done.
func (b *fractionBar) Value() float64 { return b.value }

// CreateRenderer implements fyne.Widget.
func (b *fractionBar) CreateRenderer() fyne.WidgetRenderer {
	r := &fractionBarRenderer{b: b, bg: fcanvas.NewRectangle(color.Transparent), bar: fcanvas.NewRectangle(color.Transparent),
		label: fcanvas.NewText("", color.Black)}
	r.label.Alignment = fyne.TextAlignCenter
	r.Refresh()
	return r
}

type fractionBarRenderer struct {
	b       *fractionBar
	bg, bar *fcanvas.Rectangle
	label   *fcanvas.Text
}

func (r *fractionBarRenderer) Layout(size fyne.Size) {
	r.bg.Resize(size)
	r.bar.Resize(fyne.NewSize(size.Width*float32(r.b.value), size.Height))
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
	r.label.TextSize = th.Size(theme.SizeNameText)
	r.label.Color = th.Color(theme.ColorNameForeground, v)
	r.Layout(r.b.Size())
	r.bg.Refresh()
	r.bar.Refresh()
	r.label.Refresh()
}

func (r *fractionBarRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.bg, r.bar, r.label}
}

func (r *fractionBarRenderer) Destroy() {}
