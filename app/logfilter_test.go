package app

import (
	"bytes"
	"errors"
	"image/color"
	"log"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
)

// TestQuietLogDropsMissingFavourites: Fyne's report of a missing
// favourite folder goes, with its Cause and At lines; other errors and
// lines stay whole.
func TestQuietLogDropsMissingFavourites(t *testing.T) {
	var buf bytes.Buffer
	old := log.Writer()
	log.SetOutput(QuietLog(&buf))
	defer log.SetOutput(old)
	fyne.LogError("Getting favorite locations", errors.New("this computer does not define a VIDEOS folder"))
	fyne.LogError("Something else", errors.New("a real problem"))
	log.Println("plain line")
	out := buf.String()
	if bytes.Contains(buf.Bytes(), []byte("VIDEOS")) || bytes.Contains(buf.Bytes(), []byte("favorite")) {
		t.Errorf("the favourites report is still logged:\n%s", out)
	}
	for _, want := range []string{"Fyne error:  Something else", "Cause: a real problem", "At: ", "plain line"} {
		if !bytes.Contains(buf.Bytes(), []byte(want)) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
}

// TestProgressBarEmptyAtZero: at 0 % the bar shows no primary colour; at
// 50 % about half of it.
func TestProgressBarEmptyAtZero(t *testing.T) {
	a := test.NewTempApp(t)
	a.Settings().SetTheme(NewTheme(theme.DefaultTheme()))
	b := newFractionBar()
	w := test.NewWindow(b)
	defer w.Close()
	w.SetPadded(false)
	w.Resize(fyne.NewSize(200, 40))
	share := func(c color.Color) float64 {
		img := rgba(w.Canvas().Capture())
		pr, pg, pb, _ := c.RGBA()
		n, all := 0, 0
		for i := 0; i+3 < len(img.Pix); i += 4 {
			all++
			if uint32(img.Pix[i])<<8|uint32(img.Pix[i]) == pr && uint32(img.Pix[i+1])<<8|uint32(img.Pix[i+1]) == pg && uint32(img.Pix[i+2])<<8|uint32(img.Pix[i+2]) == pb {
				n++
			}
		}
		return float64(n) / float64(all)
	}
	primary, empty := theme.Color(theme.ColorNamePrimary), theme.Color(theme.ColorNameInputBackground)
	if s, e := share(primary), share(empty); s > 0.02 || e < 0.5 {
		t.Errorf("at 0 %%: %.0f %% of the bar is the primary colour, %.0f %% the empty field's", 100*s, 100*e)
	}
	b.Set(0.5, false)
	if s := share(primary); s < 0.3 || s > 0.55 {
		t.Errorf("at 50 %% %.0f %% of the bar is the primary colour", 100*s)
	}
}
