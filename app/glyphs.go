package app

import (
	"errors"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"golang.org/x/image/font/sfnt"
)

// standIns are ASCII stand-ins for characters the bundled font (Noto Sans) cannot draw.
var standIns = strings.NewReplacer(
	"\u2192", "->", // rightwards arrow
	"\u2190", "<-", // leftwards arrow
	"\u2264", "<=", // less-than or equal to
	"\u2265", ">=", // greater-than or equal to
	"\u2248", "~", // almost equal to
	"\u2212", "-", // minus sign
)

// Drawable returns s with the characters the bundled font cannot draw replaced by ASCII stand-ins ("→" becomes "->").
func Drawable(s string) string { return standIns.Replace(s) }

// showErrorDialog shows err in a dialog over win, its text made drawable.
func showErrorDialog(err error, win fyne.Window) {
	dialog.ShowError(errors.New(Drawable(err.Error())), win)
}

// appFonts are the bundled fonts the app draws text in: regular and bold.
var appFonts = sync.OnceValues(func() ([]*sfnt.Font, error) {
	var out []*sfnt.Font
	for _, r := range []fyne.Resource{theme.DefaultTextFont(), theme.DefaultTextBoldFont()} {
		f, err := sfnt.Parse(r.Content())
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
})

// MissingGlyphs returns the characters of s, once each, that the app's fonts have no glyph for (newlines and tabs aside).
func MissingGlyphs(s string) ([]rune, error) {
	fonts, err := appFonts()
	if err != nil {
		return nil, err
	}
	var buf sfnt.Buffer
	var out []rune
	seen := map[rune]bool{}
	for _, r := range s {
		if r == '\n' || r == '\t' || seen[r] {
			continue
		}
		seen[r] = true
		for _, f := range fonts {
			if g, err := f.GlyphIndex(&buf, r); err != nil || g == 0 {
				out = append(out, r)
				break
			}
		}
	}
	return out, nil
}
