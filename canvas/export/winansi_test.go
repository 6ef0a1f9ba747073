package export

import (
	"bytes"
	"compress/zlib"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// pdfStrings are the text-showing string operands ("(…) Tj") of the
// content streams of a PDF, inflated where compressed, decoded from
// WinAnsiEncoding, the encoding the PDF declares for its fonts.
func pdfStrings(t *testing.T, pdf []byte) []string {
	t.Helper()
	if !bytes.Contains(pdf, []byte("/WinAnsiEncoding")) {
		t.Fatal("the PDF declares no WinAnsiEncoding")
	}
	toRune := map[byte]rune{}
	for r, c := range cp1252High {
		toRune[c] = r
	}
	var out []string
	for _, m := range regexp.MustCompile(`(?s)stream\r?\n(.*?)endstream`).FindAllSubmatch(pdf, -1) {
		data := m[1]
		if zr, err := zlib.NewReader(bytes.NewReader(data)); err == nil {
			if d, err := io.ReadAll(zr); err == nil {
				data = d
			}
		}
		for _, s := range regexp.MustCompile(`(?s)\(((?:\\.|[^\\)])*)\)\s*Tj`).FindAllSubmatch(data, -1) {
			raw := unescapePDF(s[1])
			var b strings.Builder
			for _, c := range raw {
				switch r, ok := toRune[c]; {
				case ok:
					b.WriteRune(r)
				default:
					b.WriteRune(rune(c))
				}
			}
			out = append(out, b.String())
		}
	}
	return out
}

var pdfEscapes = map[byte]byte{'n': '\n', 'r': '\r', 't': '\t', 'b': '\b', 'f': '\f'}

// unescapePDF undoes a PDF literal string's escapes: \n \r \t \b \f \( \) \\ and \ddd octal.
func unescapePDF(s []byte) []byte {
	var out []byte
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			out = append(out, s[i])
			continue
		}
		i++
		switch c := s[i]; {
		case c >= '0' && c <= '7':
			j := i
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			v, _ := strconv.ParseUint(string(s[i:j]), 8, 8)
			out = append(out, byte(v))
			i = j - 1
		default:
			if e, ok := pdfEscapes[c]; ok {
				c = e
			}
			out = append(out, c)
		}
	}
	return out
}

// A PDF's title reads as written: its characters encoded in the
// WinAnsiEncoding the PDF declares (· as 0xB7, — as 0x97), not as UTF-8
// bytes that viewers show as "Â·" and "â€”"; one outside it is spelt with
// ones inside.
func TestPDFTitleText(t *testing.T) {
	in, tour := ring(30)
	for title, want := range map[string]string{
		"pspm/cpu · pr2392 — 413,346 (0.20 % above 412,000) € – “ok”": "pspm/cpu · pr2392 — 413,346 (0.20 % above 412,000) € – “ok”",
		"gap ≤ 5.53 % → Zürich 東":                                     "gap <= 5.53 % -> Zürich ?",
	} {
		var buf bytes.Buffer
		if err := Write(&buf, FormatPDF, Scene{Instance: in, Tour: tour, Title: title}, 600, 0); err != nil {
			t.Fatal(err)
		}
		if got := pdfStrings(t, buf.Bytes()); !slices.Contains(got, want) {
			t.Errorf("PDF text %q, want %q", got, want)
		}
	}
}
