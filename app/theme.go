package app

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// ColorNameSecondaryText is quieter text with a WCAG AA contrast (4.5:1) in both variants.
const ColorNameSecondaryText fyne.ThemeColorName = "tsplab-secondary-text"

// Secondary text colours (their contrasts: TestSecondaryTextContrast).
var (
	secondaryLight = color.NRGBA{R: 0x55, G: 0x55, B: 0x55, A: 0xff}
	secondaryDark  = color.NRGBA{R: 0xb8, G: 0xb8, B: 0xb8, A: 0xff}
)

// Theme is TSP Lab's theme: the one it wraps, plus ColorNameSecondaryText.
type Theme struct{ fyne.Theme }

var _ fyne.Theme = Theme{}

// NewTheme wraps base (theme.DefaultTheme() when nil).
func NewTheme(base fyne.Theme) Theme {
	if base == nil {
		base = theme.DefaultTheme()
	}
	if t, ok := base.(Theme); ok {
		return t
	}
	return Theme{base}
}

// Color returns the secondary text colour for ColorNameSecondaryText, else the wrapped theme's.
func (t Theme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	if n == ColorNameSecondaryText {
		if v == theme.VariantLight {
			return secondaryLight
		}
		return secondaryDark
	}
	return t.Theme.Color(n, v)
}

// secondaryLabel is a label in ColorNameSecondaryText for texts of a fixed line count (OpenGL left added lines out).
type secondaryLabel struct {
	*widget.RichText
	seg *widget.TextSegment
}

// newSecondaryLabel returns a label cut with an ellipsis, or wrapping at words when wrap is set.
func newSecondaryLabel(text string, wrap bool) *secondaryLabel {
	seg := &widget.TextSegment{Text: text, Style: widget.RichTextStyle{ColorName: ColorNameSecondaryText, SizeName: theme.SizeNameText}}
	rt := widget.NewRichText(seg)
	if wrap {
		rt.Wrapping = fyne.TextWrapWord
	} else {
		rt.Truncation = fyne.TextTruncateEllipsis
	}
	return &secondaryLabel{RichText: rt, seg: seg}
}

// SetText replaces the label's one segment (OpenGL did not draw a replaced first segment).
func (l *secondaryLabel) SetText(s string) {
	if l.seg.Text == s {
		return
	}
	l.seg.Text = s
	l.Refresh()
}

// SetColor sets the text's theme colour.
func (l *secondaryLabel) SetColor(name fyne.ThemeColorName) {
	if l.seg.Style.ColorName == name {
		return
	}
	l.seg.Style.ColorName = name
	l.Refresh()
}

// Text returns the label's text.
func (l *secondaryLabel) Text() string { return l.seg.Text }

// sizeLayout stacks its objects at least minH high and, when maxW > 0, at most maxW wide (long hints would widen the column).
type sizeLayout struct{ minH, maxW float32 }

func (l sizeLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

func (l sizeLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	s := fyne.NewSize(0, l.minH)
	for _, o := range objs {
		if o.Visible() {
			s = s.Max(o.MinSize())
		}
	}
	if l.maxW > 0 {
		s.Width = min(s.Width, l.maxW)
	}
	return s
}

// clearOfScrollBar leaves room right of o, a vertical scroll's content, for the bar Fyne draws over it.
func clearOfScrollBar(o fyne.CanvasObject) fyne.CanvasObject {
	gutter := canvas.NewRectangle(color.Transparent)
	gutter.SetMinSize(fyne.NewSize(theme.ScrollBarSize()+theme.Padding(), 0))
	return container.NewBorder(nil, nil, nil, gutter, o)
}

// narrow wraps o so that it asks for at most width.
func narrow(o fyne.CanvasObject, width float32) fyne.CanvasObject {
	return container.New(sizeLayout{maxW: width}, o)
}
