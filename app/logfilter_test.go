package app

import (
	"bytes"
	"errors"
	"log"
	"testing"

	"fyne.io/fyne/v2"
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
