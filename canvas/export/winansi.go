package export

import (
	"strings"
	"unicode/utf8"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgpdf"
)

// cp1252High maps code page 1252's characters at 0x80–0x9F (PDF's WinAnsiEncoding); 0xA0–0xFF are Latin-1's.
var cp1252High = map[rune]byte{
	'€': 0x80, '‚': 0x82, 'ƒ': 0x83, '„': 0x84, '…': 0x85, '†': 0x86, '‡': 0x87,
	'ˆ': 0x88, '‰': 0x89, 'Š': 0x8A, '‹': 0x8B, 'Œ': 0x8C, 'Ž': 0x8E,
	'‘': 0x91, '’': 0x92, '“': 0x93, '”': 0x94, '•': 0x95, '–': 0x96, '—': 0x97,
	'˜': 0x98, '™': 0x99, 'š': 0x9A, '›': 0x9B, 'œ': 0x9C, 'ž': 0x9E, 'Ÿ': 0x9F,
}

// winAnsiFallback spells characters beyond code page 1252 that titles and legends use.
var winAnsiFallback = map[rune]string{
	'≤': "<=", '≥': ">=", '≠': "!=", '≈': "~", '→': "->", '←': "<-", '−': "-", '√': "sqrt", '∞': "inf",
}

// WinAnsi encodes s as the code page 1252 bytes a WinAnsiEncoding PDF font shows as s (≤ as "<=", else '?').
func WinAnsi(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch c, ok := cp1252High[r]; {
		case r < 0x80 || (r >= 0xA0 && r <= 0xFF):
			b.WriteByte(byte(r))
		case ok:
			b.WriteByte(c)
		default:
			if f, ok := winAnsiFallback[r]; ok {
				b.WriteString(f)
			} else {
				b.WriteByte('?')
			}
		}
	}
	return b.String()
}

// fillString draws text at pt, WinAnsi-encoded for PDF (vgpdf's fonts), UTF-8 elsewhere.
func fillString(c vg.Canvas, face font.Face, pt vg.Point, text string) {
	if _, pdf := c.(*vgpdf.Canvas); pdf && !isASCII(text) {
		text = WinAnsi(text)
	}
	c.FillString(face, pt, text)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
