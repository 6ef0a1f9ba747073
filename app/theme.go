package app

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// ColorNameSecondaryText is the theme colour of the browser's second
// lines and the panes' status lines: quieter than the foreground, yet with
// a contrast of at least 4.5:1 (WCAG AA for text) against the background,
// a hovered and a selected list row, on the light and the dark variant.
// Fyne's LowImportance labels use the disabled colour instead, which
// measures about 1.6:1 on the dark theme.
const ColorNameSecondaryText fyne.ThemeColorName = "tsplab-secondary-text"

// Secondary text colours: #555555 measures 7.5:1 on white and 5.2:1 on
// the light theme's selected row; #b8b8b8 measures 9.6:1 on #171718 and
// 7.0:1 on the dark theme's selected row (TestSecondaryTextContrast).
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

// Color returns the secondary text colour for ColorNameSecondaryText and
// the wrapped theme's colour for every other name.
func (t Theme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	if n == ColorNameSecondaryText {
		if v == theme.VariantLight {
			return secondaryLight
		}
		return secondaryDark
	}
	return t.Theme.Color(n, v)
}

// secondaryLabel is a label in ColorNameSecondaryText. Its text may
// change, but not the number of lines it wraps into once drawn: Fyne's
// OpenGL driver then left the lines added out (a status line's second
// line never appeared), so texts whose lines change are widget.Labels.
type secondaryLabel struct {
	*widget.RichText
	seg *widget.TextSegment
}

// newSecondaryLabel returns a label whose text is cut with an ellipsis
// when wrap is false, or wraps at word boundaries when it is true.
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

// SetText replaces the label's text (in its one segment: Fyne's OpenGL
// driver did not draw a segment that replaced the first one).
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

// sizeLayout stacks its objects at the size it is given and asks for at
// least minH and, when maxW > 0, at most maxW: the settings form's hints
// would otherwise widen the side column past the window's edge (narrow),
// and the status line keeps room for its lines so the controls beneath
// stay in place.
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

// narrow wraps o so that it asks for at most width.
func narrow(o fyne.CanvasObject, width float32) fyne.CanvasObject {
	return container.New(sizeLayout{maxW: width}, o)
}
